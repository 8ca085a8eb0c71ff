package io.github.mcpsupervisor.supervisor;

import java.util.Locale;
import java.util.concurrent.CompletableFuture;
import java.util.function.Function;

import io.github.mcpsupervisor.internal.ServerText;
import io.github.mcpsupervisor.supervisor.ServerState.Level;
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
 * Invariants, all owned here: at most one generation's process exists at any time (the
 * next attempt starts only after the previous process tree is confirmed gone, and a start
 * waits for a stop's terminations); a stale generation's signals are inert (every
 * callback checks that its generation is still the live one); the outage budget is reset
 * only by sustained uptime or {@link #reset()}; after {@link #stop()} nothing is
 * scheduled, spawned or left running, and the returned future completes when every
 * attempt, sync and termination has ended.
 *
 * @since 0.1.0
 */
public final class McpServerSupervisor {

	private final ReconnectPolicy policy;

	private final SupervisorLock lock;

	private final WorkTracker work;

	private final RecoveryWaiters waiters;

	private final ServerState state;

	private final Retirements retirements;

	private final Attempts attempts;

	private final CallRouter router;

	private McpServerSupervisor(Builder builder) {
		this.policy = builder.reconnect;
		this.lock = new SupervisorLock(builder.name);
		this.work = new WorkTracker(builder.scheduler, builder.name);
		this.waiters = new RecoveryWaiters(builder.calls.waitForRecovery(), builder.scheduler, this.lock);
		this.state = new ServerState(builder.name, this.policy, this.lock, builder.scheduler, builder.listener,
				this.waiters, builder.connector::redact);
		this.retirements = new Retirements(this.state, this.lock, this.policy, this.work);
		LivenessProbe probe = new LivenessProbe(builder.healthCheck, builder.scheduler, this.lock, this);
		ToolSync toolSync = new ToolSync(this, this.lock, this.work, builder.scheduler);
		this.attempts = new Attempts(this.state, this.lock, this.policy, builder.connector, builder.scheduler,
				this.work, this.waiters, probe, toolSync, this.retirements);
		this.retirements.setAttempts(this.attempts);
		this.router = new CallRouter(this, builder.calls, builder.healthCheck.timeout());
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
		return this.state.name;
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
		return ServerText.forLog(this.state.redact(String.valueOf(text)));
	}

	public ReconnectPolicy policy() {
		return this.policy;
	}

	public McpServerState state() {
		return this.lock.read(() -> this.state.state);
	}

	/**
	 * Returns the tools of the live generation, or the last ones during an outage, or
	 * none once withdrawn.
	 * @return the current tool set
	 */
	public ToolSet tools() {
		return this.state.tools;
	}

	/**
	 * Starts supervising: the first attempt runs at once, or as soon as a previous stop's
	 * terminations have ended.
	 * @return completes with the status after the first attempt succeeded or failed
	 */
	public CompletableFuture<McpServerStatus> start() {
		return this.lock.locked(() -> {
			ServerState s = this.state;
			if (s.state != McpServerState.STOPPED) {
				return s.firstOutcome;
			}
			s.firstOutcome = new CompletableFuture<>();
			s.budget.reset();
			s.lastError = null;
			s.lastExit = null;
			s.outageStartedAt = null;
			s.transition(McpServerState.STARTING, "start", null);
			s.budget.takeImmediate();
			CompletableFuture<Void> previous = this.work.quiescence();
			// a stop's terminations still running count as a termination: nothing is
			// launched before they end (never two processes)
			s.terminating = !previous.isDone();
			if (!s.terminating) {
				launchOnceGone();
			}
			else {
				previous.whenComplete((ignored, ex) -> this.lock.locked(() -> {
					s.terminating = false;
					if (s.live == null && s.connecting == null
							&& (s.state == McpServerState.STARTING || s.connectWhenIdle)) {
						s.connectWhenIdle = false;
						launchOnceGone();
					}
				}));
			}
			return s.firstOutcome;
		});
	}

	/**
	 * Clears the outage budget and connects now. On an UP server only the budget is
	 * cleared; while an attempt or a termination is running, the attempt follows as soon
	 * as it ends.
	 * @return the status after the reset was taken
	 * @throws IllegalStateException if the supervisor is stopped
	 */
	public McpServerStatus reset() {
		this.lock.locked(() -> {
			requireStarted("reset");
			this.state.log(Level.INFO, "reset requested in state " + this.state.state + ", outage budget cleared");
			this.state.budget.reset();
			if (this.state.state != McpServerState.UP && this.state.state != McpServerState.STARTING) {
				connectNow(RestartCause.RESET);
			}
		});
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
		McpConnection retired = this.lock.locked(() -> {
			requireStarted("restarted");
			ServerState s = this.state;
			s.log(Level.INFO, "restart requested in state " + s.state + ", outage budget cleared");
			s.budget.reset();
			if (s.live == null) {
				connectNow(RestartCause.RESTART);
				return null;
			}
			McpConnection connection = s.retire();
			s.connectWhenIdle = true;
			s.outageStartedAt = s.now();
			s.transition(McpServerState.RECONNECTING, "restart", null);
			SupervisorListener listener = s.listener();
			s.notify(() -> listener.restarting(s.name, RestartCause.RESTART));
			return connection;
		});
		if (retired != null) {
			this.retirements.restart(retired);
		}
		return status();
	}

	/**
	 * Stops supervising: cancels timers, closes the live client, terminates every process
	 * tree (bounded) and withdraws the tools. Nothing restarts afterwards.
	 * @return completes when every attempt, sync and termination has ended
	 */
	public CompletableFuture<Void> stop() {
		Stopped stopped = this.lock.locked(() -> {
			ServerState s = this.state;
			if (s.state == McpServerState.STOPPED) {
				return Stopped.NOTHING;
			}
			s.cancelPendingAttempt();
			McpConnection live = (s.live != null) ? s.retire() : null;
			McpConnection connecting = s.connecting;
			// the attempt is the stop's now: a later start never adopts it
			s.connecting = null;
			McpConnection unconfirmed = s.unconfirmed;
			s.connectWhenIdle = false;
			s.transition(McpServerState.STOPPED, "stop", null);
			s.swapTools(ToolSet.EMPTY);
			s.completeFirstOutcome();
			return new Stopped(live, connecting, unconfirmed);
		});
		if (stopped.live() != null) {
			this.retirements.stop(stopped.live(), true);
		}
		if (stopped.connecting() != null) {
			this.retirements.stop(stopped.connecting(), false);
		}
		if (stopped.unconfirmed() != null) {
			this.retirements.stop(stopped.unconfirmed(), false);
		}
		return this.work.quiescence();
	}

	/**
	 * Calls a tool on the live generation. During STARTING or RECONNECTING the call waits
	 * for the next generation, up to the call policy's bound. When the generation dies
	 * under the call (or stops answering after the call timed out), a retry-eligible call
	 * runs once more on the next generation; others fail at once.
	 * @param request the call, with the tool's name on the server
	 * @return the server's result
	 * @throws McpServerUnavailableException if the server is not up and does not recover
	 * in time, its connection is lost during the call, or it does not offer the tool
	 */
	public CallToolResult callTool(CallToolRequest request) {
		return this.router.call(request);
	}

	/**
	 * Sends a request other than a tool call to the live generation, with the rules of a
	 * retry-eligible tool call: it waits for the next generation while the server
	 * recovers, and runs once more on the next generation when its generation is lost
	 * under it. Use it only for requests that read, or that set what every new generation
	 * is given again (subscriptions, roots).
	 * @param <T> the type of the result
	 * @param method the MCP method, for messages
	 * @param request what to send on the generation's client; it must not keep the client
	 * @return the result, {@code null} for a request that answers nothing
	 * @throws McpServerUnavailableException if the server is not up and does not recover
	 * in time, or its connection is lost twice
	 */
	public <T> @Nullable T request(String method, Function<McpAsyncClient, Mono<T>> request) {
		return this.router.request(method, request);
	}

	/**
	 * Returns a consistent snapshot of this server.
	 * @return the status
	 */
	public McpServerStatus status() {
		return this.lock.read(this.state::status);
	}

	int waitingCalls() {
		return this.lock.read(this.waiters::size);
	}

	CompletableFuture<Void> quiescence() {
		return this.work.quiescence();
	}

	@Nullable McpConnection current() {
		return this.state.current;
	}

	// Under the lock.
	@Nullable Generation live() {
		return this.state.live;
	}

	// Under the lock.
	boolean isLive(Generation generation) {
		return this.state.live == generation;
	}

	// The live connection, or a waiter for the next generation, or null when the server
	// does not recover or calls do not wait.
	@Nullable CompletableFuture<McpConnection> nextGeneration(@Nullable McpConnection failed) {
		return this.lock.read(() -> {
			McpConnection connection = this.state.current;
			// a generation that is lost but not yet retired is not called: a call waits
			// for the next one, like any call during a restart
			if (connection != null && connection != failed && !connection.isLost()) {
				return CompletableFuture.completedFuture(connection);
			}
			McpServerState now = this.state.state;
			boolean recovering = now == McpServerState.STARTING || now == McpServerState.RECONNECTING
					|| now == McpServerState.UP;
			return (recovering && this.waiters.isEnabled()) ? this.waiters.add() : null;
		});
	}

	// "what" names what is unavailable: "tool 'x'" or "request 'y'"
	McpServerUnavailableException unavailable(String what, String suffix) {
		McpServerStatus status = status();
		return new McpServerUnavailableException(name(), status.state(),
				UnavailableMessages.notUp(status, this.state.now(), what, suffix), null);
	}

	void endGeneration(McpConnection connection, String because) {
		this.retirements.end(connection, because);
	}

	// Under the lock.
	void swapTools(ToolSet replacement) {
		this.state.swapTools(replacement);
	}

	// Under the lock: connects at once, or as soon as the running attempt or termination
	// ends.
	private void connectNow(RestartCause cause) {
		ServerState s = this.state;
		s.cancelPendingAttempt();
		SupervisorListener listener = s.listener();
		s.notify(() -> listener.restarting(s.name, cause));
		if (s.connecting != null || s.terminating) {
			s.connectWhenIdle = true;
		}
		else {
			s.budget.takeImmediate();
			s.transition(McpServerState.RECONNECTING, cause.name().toLowerCase(Locale.ROOT), null);
			launchOnceGone();
		}
	}

	// Under the lock: launches at once, or once a generation whose tree could not be
	// confirmed gone is.
	private void launchOnceGone() {
		if (!this.retirements.recheckUnconfirmed()) {
			this.attempts.launch();
		}
	}

	// Under the lock.
	private void requireStarted(String done) {
		if (this.state.state == McpServerState.STOPPED) {
			throw new IllegalStateException("MCP server '" + name() + "' is stopped and cannot be " + done);
		}
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
		 * Builds the supervisor; it does nothing until started.
		 * @return the supervisor
		 */
		public McpServerSupervisor build() {
			return new McpServerSupervisor(this);
		}

	}

	/**
	 * The connections a stop ended: the live one, retired, one still connecting, and one
	 * whose tree was not confirmed gone.
	 */
	private record Stopped(@Nullable McpConnection live, @Nullable McpConnection connecting,
			@Nullable McpConnection unconfirmed) {

		static final Stopped NOTHING = new Stopped(null, null, null);

	}

}
