package io.github.mcpsupervisor.supervisor;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeoutException;
import java.util.function.Function;
import java.util.function.Supplier;

import io.github.mcpsupervisor.internal.CauseChain;
import io.github.mcpsupervisor.internal.McpRequestObserver;
import io.github.mcpsupervisor.supervisor.McpConnector.McpConnection;
import io.github.mcpsupervisor.supervisor.McpConnector.McpServerRequests;
import io.github.mcpsupervisor.supervisor.McpServerStatus.ExitStatus;
import io.modelcontextprotocol.client.McpAsyncClient;
import io.modelcontextprotocol.spec.McpError;
import io.modelcontextprotocol.spec.McpSchema.CallToolRequest;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import io.modelcontextprotocol.spec.McpSchema.Tool;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;
import reactor.core.publisher.Mono;

/**
 * Routes one tool call through a server's outages: waits for a generation while the
 * server recovers, calls once, tells a lost generation from the server's own answer, and
 * runs a retry-eligible call once more on the next generation. A call is retried at most
 * once, and never after the server answered or the caller gave up.
 */
final class CallRouter {

	private static final Log logger = LogFactory.getLog(CallRouter.class);

	private static final String TOOL = "tool";

	private static final String REQUEST = "request";

	private final Target supervisor;

	private final CallPolicy policy;

	private final Duration pingTimeout;

	private final McpRequestObserver observer;

	CallRouter(Target supervisor, CallPolicy policy, Duration pingTimeout, McpRequestObserver observer) {
		this.supervisor = supervisor;
		this.policy = policy;
		this.pingTimeout = pingTimeout;
		this.observer = observer;
	}

	CallToolResult call(CallToolRequest request) {
		McpRequestObserver.Request observed = this.observer.start(this.supervisor.name(), "tools/call", request.name(),
				request.meta());
		Activity activity = this.supervisor.activity();
		activity.started();
		try {
			return observed(observed, () -> call(withMeta(request, observed.meta(request.meta())), observed));
		}
		finally {
			activity.ended();
		}
	}

	private static CallToolRequest withMeta(CallToolRequest request, @Nullable Map<String, Object> meta) {
		return (meta == request.meta()) ? request : new CallToolRequest(request.name(), request.arguments(), meta);
	}

	// Ends the observed request with its result or failure, on the caller's thread.
	private static <T> T observed(McpRequestObserver.Request observed, Supplier<T> request) {
		T result = null;
		Throwable failure = null;
		try {
			result = request.get();
			return result;
		}
		catch (RuntimeException | Error ex) {
			failure = ex;
			throw ex;
		}
		finally {
			observed.end(result, failure);
		}
	}

	private CallToolResult call(CallToolRequest request, McpRequestObserver.Request observed) {
		McpConnection connection = awaitConnection(TOOL, request.name(), null);
		try {
			observed.attempt(connection.generation());
			return callOnce(connection, request);
		}
		catch (LostDuringCall lost) {
			Tool tool = this.supervisor.tools().find(request.name());
			if (tool == null || !this.policy.isRetryEligible(tool) || Thread.currentThread().isInterrupted()
					|| stopped(connection)) {
				throw lostDuringCall(connection, request.name(), lost, "");
			}
			McpConnection next;
			try {
				next = awaitConnection(TOOL, request.name(), connection);
			}
			catch (McpServerUnavailableException ex) {
				throw lostDuringCall(connection, request.name(), lost,
						" It could not be retried: " + ex.getMessage() + ".");
			}
			logger.info("MCP server '" + this.supervisor.name() + "': retrying a call to tool '"
					+ this.supervisor.loggable(request.name()) + "' on generation " + next.generation()
					+ " after generation " + connection.generation() + " was lost under it");
			try {
				observed.attempt(next.generation());
				return callOnce(next, request);
			}
			catch (LostDuringCall again) {
				throw lostDuringCall(next, request.name(), again, " It was retried once already.");
			}
		}
	}

	// A request other than a tool call: each of them reads, or sets state that a new
	// generation is given again (subscriptions, roots), so it is retried once when the
	// generation is lost under it.
	<T> @Nullable T request(String method, Function<McpAsyncClient, Mono<T>> request) {
		return route(method, (connection) -> connection.request(method, request));
	}

	// The same, in the revision of the generation it runs on.
	<T> @Nullable T send(String method, Function<McpServerRequests, Mono<T>> request) {
		return route(method, (connection) -> connection.send(method, request));
	}

	private <T> @Nullable T route(String method, Function<McpConnection, @Nullable T> request) {
		McpRequestObserver.Request observed = this.observer.start(this.supervisor.name(), method, null, null);
		Activity activity = this.supervisor.activity();
		activity.started();
		try {
			return observed(observed, () -> route(method, request, observed));
		}
		finally {
			activity.ended();
		}
	}

	private <T> @Nullable T route(String method, Function<McpConnection, @Nullable T> request,
			McpRequestObserver.Request observed) {
		String what = what(REQUEST, method);
		McpConnection connection = awaitConnection(REQUEST, method, null);
		try {
			observed.attempt(connection.generation());
			return once(connection, () -> request.apply(connection));
		}
		catch (LostDuringCall lost) {
			if (stopped(connection)) {
				throw lostDuringRequest(connection, what, lost, "");
			}
			McpConnection next;
			try {
				next = awaitConnection(REQUEST, method, connection);
			}
			catch (McpServerUnavailableException ex) {
				throw lostDuringRequest(connection, what, lost, " It could not be retried: " + ex.getMessage() + ".");
			}
			try {
				observed.attempt(next.generation());
				return once(next, () -> request.apply(next));
			}
			catch (LostDuringCall again) {
				throw lostDuringRequest(next, what, again, " It was retried once already.");
			}
		}
	}

	private CallToolResult callOnce(McpConnection connection, CallToolRequest request) {
		ToolSet tools = this.supervisor.tools();
		if (tools.find(request.name()) == null) {
			throw new McpServerUnavailableException(
					this.supervisor.name(), McpServerState.UP, "MCP server '" + this.supervisor.name()
							+ "' no longer offers tool '" + request.name() + "' (it offers " + tools.names() + ")",
					null);
		}
		return once(connection, () -> connection.callTool(request));
	}

	// Runs one request on a generation, telling a lost generation from the server's own
	// answer.
	private <T> T once(McpConnection connection, Supplier<T> request) {
		try {
			return request.get();
		}
		catch (RuntimeException ex) {
			throw failure(connection, ex);
		}
	}

	// What a request that failed on a generation throws: the failure itself, or
	// LostDuringCall when the generation was lost under it.
	private RuntimeException failure(McpConnection connection, RuntimeException ex) {
		if (ex instanceof McpError) {
			return ex; // the server answered: never retried, never a reason to reconnect
		}
		if (CauseChain.isCancellation(ex)) {
			return ex;
		}
		if (connection.isLost() || this.supervisor.endedOnRequest(connection) != null) {
			return new LostDuringCall(ex);
		}
		if (CauseChain.hasCause(ex, TimeoutException.class)) {
			if (LivenessProbe.check(connection, this.pingTimeout) != LivenessProbe.Verdict.UNRESPONSIVE) {
				return ex; // slow or busy with other calls, not dead
			}
			this.supervisor.end(connection, "liveness: no reply to ping after a request timeout");
			return new LostDuringCall(ex);
		}
		return ex;
	}

	// The live connection, waiting for the next generation while the server is starting
	// or reconnecting (or while the failed one is not yet seen as lost). What waits is
	// named for the messages only when it is unavailable.
	private McpConnection awaitConnection(String kind, String name, @Nullable McpConnection failed) {
		McpConnection connection = this.supervisor.current();
		if (connection != null && connection != failed && !connection.isLost()) {
			return connection;
		}
		CompletableFuture<McpConnection> next = this.supervisor.nextGeneration(failed);
		if (next == null) {
			throw this.supervisor.unavailable(what(kind, name), "");
		}
		try {
			return next.get();
		}
		catch (ExecutionException ex) {
			throw this.supervisor.unavailable(what(kind, name), (ex.getCause() instanceof TimeoutException)
					? " and did not recover within " + this.policy.waitForRecovery().toMillis() + " ms" : "");
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw this.supervisor.unavailable(what(kind, name), " (the caller was interrupted while waiting)");
		}
	}

	// A generation that a stop ended: the server has no next one to retry on.
	private boolean stopped(McpConnection connection) {
		EndedOnRequest ended = this.supervisor.endedOnRequest(connection);
		return ended != null && ended.stopsTheServer();
	}

	// "tool 'x'" or "request 'y'"
	private static String what(String kind, String name) {
		return kind + " '" + name + "'";
	}

	private McpServerUnavailableException lostDuringRequest(McpConnection connection, String what, LostDuringCall lost,
			String retried) {
		EndedOnRequest ended = this.supervisor.endedOnRequest(connection);
		if (ended != null) {
			return new McpServerUnavailableException(this.supervisor.name(), state(ended),
					UnavailableMessages.endedDuringRequest(this.supervisor.name(), what, ended, retried),
					lost.getCause());
		}
		ExitStatus exit = connection.onLost().getNow(null);
		String how = (exit != null) ? exit.describe() : "connection lost";
		return new McpServerUnavailableException(this.supervisor.name(), McpServerState.RECONNECTING,
				UnavailableMessages.lostDuringRequest(this.supervisor.name(), what, how, retried,
						this.supervisor.reconnects()),
				lost.getCause());
	}

	private McpServerUnavailableException lostDuringCall(McpConnection connection, String tool, LostDuringCall lost,
			String retried) {
		ExitStatus exit = connection.onLost().getNow(null);
		// the loss reason may quote the server or its URL: the model only learns how it
		// ended
		String how = (exit != null) ? exit.describe() : connection.isLost() ? "connection lost" : null;
		Tool offered = this.supervisor.tools().find(tool);
		String retry = (offered != null && !this.policy.isRetryEligible(offered) && retried.isEmpty())
				? " It was not retried: tool '" + tool + "' is not retry-eligible." : retried;
		EndedOnRequest ended = this.supervisor.endedOnRequest(connection);
		if (ended != null) {
			return new McpServerUnavailableException(this.supervisor.name(), state(ended),
					UnavailableMessages.endedDuringCall(this.supervisor.name(), tool, ended, retry), lost.getCause());
		}
		return new McpServerUnavailableException(this.supervisor.name(), McpServerState.RECONNECTING,
				UnavailableMessages.lostDuringCall(this.supervisor.name(), tool, how, retry,
						this.supervisor.reconnects()),
				lost.getCause());
	}

	private static McpServerState state(EndedOnRequest ended) {
		return ended.stopsTheServer() ? McpServerState.STOPPED : McpServerState.RECONNECTING;
	}

	/**
	 * What the router may see of its server and do to it.
	 */
	interface Target {

		String name();

		/**
		 * Returns a text of the server fit for a log line.
		 * @param text the server's text
		 * @return the text, its secrets masked
		 */
		String loggable(@Nullable String text);

		ToolSet tools();

		/**
		 * Returns the live generation's connection, read without the lock.
		 * @return the connection, if any; always {@code null} for a server that stops
		 * while unused, whose calls take their generation under the lock
		 */
		@Nullable McpConnection current();

		/**
		 * Returns the calls of the server, counted when it stops while unused.
		 * @return the activity
		 */
		Activity activity();

		/**
		 * Returns the live connection, or a waiter for the next generation.
		 * @param failed a connection the call already lost, never returned
		 * @return the connection or waiter, or {@code null} when the server does not
		 * recover or calls do not wait
		 */
		@Nullable CompletableFuture<McpConnection> nextGeneration(@Nullable McpConnection failed);

		/**
		 * Returns the exception of a call that found the server not up.
		 * @param what what is unavailable: "tool 'x'" or "request 'y'"
		 * @param suffix what follows the state in the message
		 * @return the exception
		 */
		McpServerUnavailableException unavailable(String what, String suffix);

		/**
		 * Ends a live generation that stopped answering.
		 * @param connection the generation
		 * @param because why
		 */
		void end(McpConnection connection, String because);

		/**
		 * Returns why a generation was ended on request, if it was.
		 * @param connection the generation
		 * @return why, or {@code null} when it was not ended on request (or long ago)
		 */
		@Nullable EndedOnRequest endedOnRequest(McpConnection connection);

		/**
		 * Returns whether the server reconnects after a loss.
		 * @return whether reconnect is enabled
		 */
		boolean reconnects();

	}

	/** The generation of a call ended under it. */
	private static final class LostDuringCall extends RuntimeException {

		private static final long serialVersionUID = 1L;

		LostDuringCall(Throwable cause) {
			super(cause.getMessage(), cause, false, false);
		}

	}

}
