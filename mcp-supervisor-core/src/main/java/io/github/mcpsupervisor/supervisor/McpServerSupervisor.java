package io.github.mcpsupervisor.supervisor;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.function.Function;

import io.github.mcpsupervisor.authorization.McpUserResolver;
import io.github.mcpsupervisor.internal.Caller;
import io.github.mcpsupervisor.internal.McpRequestObserver;
import io.github.mcpsupervisor.internal.ServerText;
import io.github.mcpsupervisor.supervisor.McpConnector.McpServerRequests;
import io.modelcontextprotocol.client.McpAsyncClient;
import io.modelcontextprotocol.spec.McpSchema.CallToolRequest;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import org.jspecify.annotations.Nullable;
import reactor.core.publisher.Mono;

/**
 * Keeps one MCP server alive: connects generation after generation, notices a lost
 * generation at once, reconnects with bounded backoff within an outage budget, and keeps
 * the server's tool set in step with the live generation.
 *
 * <p>
 * This is the server's public face: its state machine is {@link ServerLifecycle}, and
 * calls are routed by {@link CallRouter}. Invariants, all owned by the state machine: at
 * most one generation's process exists at any time (the next attempt starts only after
 * the previous process tree is confirmed gone, and a start waits for a stop's
 * terminations); a stale generation's signals are inert (every callback checks that its
 * generation is still the live one); the outage budget is reset only by sustained uptime
 * or {@link #reset()}; after {@link #stop()} nothing is scheduled, spawned or left
 * running, and the returned future completes when every attempt, sync and termination has
 * ended.
 *
 * @since 0.1.0
 */
public final class McpServerSupervisor {

	private final ReconnectPolicy policy;

	private final ServerLifecycle lifecycle;

	private final LifecycleView view;

	private final CallRouter router;

	private final McpConnector connector;

	private final McpUserResolver users;

	private final boolean runsOnlyWhileUsed;

	private McpServerSupervisor(Builder builder) {
		this.runsOnlyWhileUsed = builder.firstUse != null || builder.idleTimeout != null;
		this.policy = builder.reconnect;
		this.users = builder.users;
		this.connector = builder.connector;
		this.lifecycle = ServerLifecycle.create(builder.name, builder.connector, builder.scheduler, builder.reconnect,
				builder.calls, builder.healthCheck, builder.listener, builder.toolsWhenDown, builder.standby,
				builder.firstUse, builder.idleTimeout);
		this.view = this.lifecycle.view();
		this.router = new CallRouter(this.view, builder.calls, builder.healthCheck.timeout(), builder.requestObserver);
	}

	/**
	 * Starts building the supervisor of one server.
	 * @param name the server's name
	 * @param connector creates its generations
	 * @param scheduler its time and threads
	 * @return the builder
	 */
	public static Builder builder(String name, McpConnector connector, SupervisorScheduler scheduler) {
		return new Builder(name, connector, scheduler);
	}

	public String name() {
		return this.view.name();
	}

	/**
	 * Returns a text of the server (a tool name, an error message) fit to be quoted in a
	 * log line: the secrets of its configuration masked, control characters escaped, at
	 * most {@value ServerText#MAX_LOG_LENGTH} characters.
	 * @param text the server's text
	 * @return the text for a log line
	 * @see ServerText#forLog(String)
	 */
	public String loggable(@Nullable String text) {
		return this.view.loggable(text);
	}

	public ReconnectPolicy policy() {
		return this.policy;
	}

	public McpServerState state() {
		return this.lifecycle.phase().state();
	}

	/**
	 * Returns whether the server runs only while it is used: it starts on first use or is
	 * stopped when idle. Its starts then come from calls, as its recoveries do.
	 * @return whether it runs only while used
	 */
	public boolean runsOnlyWhileUsed() {
		return this.runsOnlyWhileUsed;
	}

	/**
	 * Returns the tools of the live generation, or the last ones during an outage (marked
	 * {@link ToolSet#unavailable() unavailable} when the server keeps its tools while
	 * down), or none once withdrawn.
	 * @return the current tool set
	 */
	public ToolSet tools() {
		return this.view.tools();
	}

	/**
	 * Starts supervising: the first attempt runs at once, or as soon as a previous stop's
	 * terminations have ended.
	 * @return completes with the status after the first attempt succeeded or failed
	 */
	public CompletableFuture<McpServerStatus> start() {
		return this.lifecycle.start();
	}

	/**
	 * Clears the outage budget and connects now. On an UP server only the budget is
	 * cleared; while an attempt or a termination is running, the attempt follows as soon
	 * as it ends.
	 * @return the status after the reset was taken
	 * @throws IllegalStateException if the supervisor is stopped
	 */
	public McpServerStatus reset() {
		this.lifecycle.reset();
		return status();
	}

	/**
	 * Ends the live generation, even when it is up, and connects a new one with a fresh
	 * budget: for a server that is alive but misbehaving. Concurrent restarts and resets
	 * join: there is never more than one process.
	 * @return the status after the restart was taken
	 * @throws IllegalStateException if the supervisor is stopped
	 */
	public McpServerStatus restart() {
		this.lifecycle.restart();
		return status();
	}

	/**
	 * Stops supervising: cancels timers, closes the live client, terminates every process
	 * tree (bounded) and withdraws the tools. Nothing restarts afterwards.
	 * @return completes when every attempt, sync and termination has ended
	 */
	public CompletableFuture<Void> stop() {
		return stop(EndedOnRequest.STOPPED);
	}

	// The calls in flight are told why the server stopped.
	CompletableFuture<Void> stop(EndedOnRequest how) {
		return this.lifecycle.stop(how);
	}

	/**
	 * Stops supervising for good, as {@link #stop()} does, and once every attempt, sync
	 * and termination has ended releases what the server's connector holds
	 * ({@link McpConnector#close()}): for a server removed or replaced, whose supervisor
	 * is never started again.
	 * @return completes when the connector is released
	 */
	public CompletableFuture<Void> retire() {
		return retire(EndedOnRequest.STOPPED);
	}

	// The calls in flight are told why the server was retired.
	CompletableFuture<Void> retire(EndedOnRequest how) {
		return stop(how).whenComplete((ignored, ex) -> this.connector.close());
	}

	/**
	 * Calls a tool on the live generation. During STARTING or RECONNECTING the call waits
	 * for the next generation, up to the call policy's bound. When the generation dies
	 * under the call (or stops answering after the call timed out), a retry-eligible call
	 * runs once more on the next generation; others fail at once. The call acts for the
	 * user the calling thread is bound to, or else the one the
	 * {@linkplain Builder#users(McpUserResolver) user resolver} names (a server that acts
	 * for each user sends that user's token).
	 * @param request the call, with the tool's name on the server
	 * @return the server's result
	 * @throws McpServerUnavailableException if the server is not up and does not recover
	 * in time, its connection is lost during the call, or it does not offer the tool
	 */
	public CallToolResult callTool(CallToolRequest request) {
		return caller().call(() -> this.router.call(request));
	}

	/**
	 * Sends a request other than a tool call on the live generation's 2025-11-25 client
	 * (a generation of another revision refuses it; {@link #send(String, Function)}
	 * speaks both), with the rules of a retry-eligible tool call: it waits for the next
	 * generation while the server recovers, and runs once more on the next generation
	 * when its generation is lost under it. Use it only for requests that read, or that
	 * set what every new generation is given again (subscriptions, roots).
	 * @param <T> the type of the result
	 * @param method the MCP method, for messages
	 * @param request what to send on the generation's client; it must not keep the client
	 * @return the result, {@code null} for a request that answers nothing
	 * @throws McpServerUnavailableException if the server is not up and does not recover
	 * in time, or its connection is lost twice
	 */
	public <T> @Nullable T request(String method, Function<McpAsyncClient, Mono<T>> request) {
		return (Caller.actsForApplication(method)) ? Caller.none(() -> this.router.request(method, request))
				: caller().call(() -> this.router.request(method, request));
	}

	/**
	 * Sends a request other than a tool call to the live generation, in the revision it
	 * speaks, with the rules of {@link #request(String, Function)}: it waits for the next
	 * generation while the server recovers, and runs once more on the next generation
	 * when its generation is lost under it.
	 * @param <T> the type of the result
	 * @param method the MCP method, for messages
	 * @param request what to send; it must not keep the requests it is given
	 * @return the result, {@code null} for a request that answers nothing
	 * @throws McpServerUnavailableException if the server is not up and does not recover
	 * in time, or its connection is lost twice
	 */
	public <T> @Nullable T send(String method, Function<McpServerRequests, Mono<T>> request) {
		return (Caller.actsForApplication(method)) ? Caller.none(() -> this.router.send(method, request))
				: caller().call(() -> this.router.send(method, request));
	}

	// On whose behalf the calling thread makes a request: bound by the tool callback
	// (with the call's tool context), otherwise the user of the thread.
	private Caller caller() {
		Caller bound = Caller.current();
		return (bound != null) ? bound : Caller.of(this.users.resolve(null));
	}

	/**
	 * Returns a consistent snapshot of this server.
	 * @return the status
	 */
	public McpServerStatus status() {
		return this.lifecycle.status();
	}

	int waitingCalls() {
		return this.view.waitingCalls();
	}

	CompletableFuture<Void> quiescence() {
		return this.lifecycle.quiescence();
	}

	ServerLifecycle lifecycle() {
		return this.lifecycle;
	}

	/**
	 * Builds a {@link McpServerSupervisor}; each policy not given is the default one.
	 */
	public static final class Builder {

		private final String name;

		private final McpConnector connector;

		private final SupervisorScheduler scheduler;

		private ReconnectPolicy reconnect = ReconnectPolicy.defaults();

		private CallPolicy calls = CallPolicy.defaults();

		private HealthCheckPolicy healthCheck = HealthCheckPolicy.defaults();

		private SupervisorListener listener = SupervisorListener.NONE;

		private McpRequestObserver requestObserver = McpRequestObserver.NONE;

		private ToolsWhenDown toolsWhenDown = ToolsWhenDown.WITHDRAW;

		private boolean standby;

		private McpUserResolver users = McpUserResolver.DEFAULT;

		private @Nullable ToolCatalog firstUse;

		private @Nullable Duration idleTimeout;

		private Builder(String name, McpConnector connector, SupervisorScheduler scheduler) {
			this.name = name;
			this.connector = connector;
			this.scheduler = scheduler;
		}

		/**
		 * Sets how the server reconnects.
		 * @param reconnect the reconnect policy
		 * @return this builder
		 */
		public Builder reconnect(ReconnectPolicy reconnect) {
			this.reconnect = reconnect;
			return this;
		}

		/**
		 * Sets how tool calls behave around outages.
		 * @param calls the call policy
		 * @return this builder
		 */
		public Builder calls(CallPolicy calls) {
			this.calls = calls;
			return this;
		}

		/**
		 * Sets how live generations are probed.
		 * @param healthCheck the health check policy
		 * @return this builder
		 */
		public Builder healthCheck(HealthCheckPolicy healthCheck) {
			this.healthCheck = healthCheck;
			return this;
		}

		/**
		 * Sets who receives what the supervisor does.
		 * @param listener the listener
		 * @return this builder
		 */
		public Builder listener(SupervisorListener listener) {
			this.listener = listener;
			return this;
		}

		/**
		 * Sets who observes each request sent to the server for the application.
		 * @param requestObserver the observer
		 * @return this builder
		 */
		public Builder requestObserver(McpRequestObserver requestObserver) {
			this.requestObserver = requestObserver;
			return this;
		}

		/**
		 * Sets what becomes of the server's tools while it is down.
		 * @param toolsWhenDown withdrawn (the default), or kept with a description and a
		 * call result that say the server is unavailable
		 * @return this builder
		 */
		public Builder toolsWhenDown(ToolsWhenDown toolsWhenDown) {
			this.toolsWhenDown = toolsWhenDown;
			return this;
		}

		/**
		 * Sets whether the server keeps a warm standby: a spare generation started and
		 * initialized while the serving one is up, which serves at once when the serving
		 * one ends; a new spare is then started in the background, under the reconnect
		 * policy's backoff and a budget of its own. Only for stateless servers: whatever
		 * a server keeps in its process is not in its spare. It costs a second process,
		 * and needs reconnect enabled (without it no spare is kept).
		 * @param standby whether to keep a spare (default {@code false})
		 * @return this builder
		 */
		public Builder standby(boolean standby) {
			this.standby = standby;
			return this;
		}

		/**
		 * Sets who tells on whose behalf the application's requests are made, for a
		 * server that acts for each user.
		 * @param users the resolver (default {@link McpUserResolver#DEFAULT})
		 * @return this builder
		 */
		public Builder users(McpUserResolver users) {
			this.users = users;
			return this;
		}

		/**
		 * Sets that the server starts on its first call, not with the application: its
		 * tools are listed from the catalog, kept from its last run, without starting it,
		 * and the first call starts it and waits as calls wait while a server recovers
		 * ({@link CallPolicy#waitForRecovery()}). Until then the server is
		 * {@link McpServerState#IDLE}. A server whose catalog holds no tools for its
		 * configuration (its first start, a changed configuration, a listing past the
		 * time its server said it holds) is started to list them, and stopped again right
		 * away if no call came meanwhile.
		 * @param catalog where its tools are kept between runs
		 * ({@link ToolCatalog#none()} keeps nothing: it is started once at each start to
		 * list its tools)
		 * @return this builder
		 */
		public Builder startOnFirstUse(ToolCatalog catalog) {
			this.firstUse = catalog;
			return this;
		}

		/**
		 * Sets that the server is stopped when it has had no call in flight, and none for
		 * this long, its tools kept listed: it is then {@link McpServerState#IDLE} until
		 * the next call starts it. A server the application holds a subscription on stays
		 * up. Stopping loses whatever the server keeps in its process: only for servers
		 * that keep nothing a later call needs.
		 * @param idleTimeout the idle time, or {@code null} to never stop it while unused
		 * (the default)
		 * @return this builder
		 */
		public Builder idleTimeout(@Nullable Duration idleTimeout) {
			if (idleTimeout != null && (idleTimeout.isNegative() || idleTimeout.isZero())) {
				throw new IllegalArgumentException(
						"The idle time of MCP server '" + this.name + "' must be positive, not " + idleTimeout);
			}
			this.idleTimeout = idleTimeout;
			return this;
		}

		/**
		 * Builds the supervisor; it does nothing until started.
		 * @return the supervisor
		 */
		public McpServerSupervisor build() {
			Duration wait = this.calls.waitForRecovery();
			if ((this.firstUse != null || this.idleTimeout != null) && (wait.isZero() || wait.isNegative())) {
				throw new IllegalArgumentException("MCP server '" + this.name + "' runs only while it is used, but its "
						+ "calls do not wait for its start (call.wait-for-recovery is 0): each first call after an idle "
						+ "time would fail; give call.wait-for-recovery a positive duration");
			}
			return new McpServerSupervisor(this);
		}

	}

}
