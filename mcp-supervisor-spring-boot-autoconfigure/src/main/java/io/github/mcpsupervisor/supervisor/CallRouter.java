package io.github.mcpsupervisor.supervisor;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeoutException;

import io.modelcontextprotocol.spec.McpError;
import io.modelcontextprotocol.spec.McpSchema.CallToolRequest;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import io.modelcontextprotocol.spec.McpSchema.Tool;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

/**
 * Routes one tool call through a server's outages: waits for a generation while the
 * server recovers, calls once, tells a lost generation from the server's own answer, and
 * runs a retry-eligible call once more on the next generation. A call is retried at most
 * once, and never after the server answered or the caller gave up.
 */
final class CallRouter {

	private static final Log logger = LogFactory.getLog(CallRouter.class);

	private final McpServerSupervisor supervisor;

	private final CallPolicy policy;

	private final Duration pingTimeout;

	CallRouter(McpServerSupervisor supervisor, CallPolicy policy, Duration pingTimeout) {
		this.supervisor = supervisor;
		this.policy = policy;
		this.pingTimeout = pingTimeout;
	}

	CallToolResult call(CallToolRequest request) {
		McpConnection connection = awaitConnection(request.name(), null);
		try {
			return callOnce(connection, request);
		}
		catch (LostDuringCall lost) {
			Tool tool = this.supervisor.tools().find(request.name());
			if (tool == null || !this.policy.isRetryEligible(tool) || Thread.currentThread().isInterrupted()) {
				throw lostDuringCall(connection, request.name(), lost, "");
			}
			McpConnection next;
			try {
				next = awaitConnection(request.name(), connection);
			}
			catch (McpServerUnavailableException ex) {
				throw lostDuringCall(connection, request.name(), lost,
						" It could not be retried: " + ex.getMessage() + ".");
			}
			logger.info("MCP server '" + this.supervisor.name() + "': retrying a call to tool '" + request.name()
					+ "' on generation " + next.generation() + " after generation " + connection.generation()
					+ " was lost under it");
			try {
				return callOnce(next, request);
			}
			catch (LostDuringCall again) {
				throw lostDuringCall(next, request.name(), again, " It was retried once already.");
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
		try {
			return connection.callTool(request);
		}
		catch (McpError ex) {
			throw ex; // the server answered: never retried, never a reason to reconnect
		}
		catch (RuntimeException ex) {
			if (Failures.isCancellation(ex)) {
				throw ex;
			}
			if (connection.isLost()) {
				throw new LostDuringCall(ex);
			}
			if (Failures.hasCause(ex, TimeoutException.class)) {
				if (LivenessProbe.check(connection, this.pingTimeout) != LivenessProbe.Verdict.UNRESPONSIVE) {
					throw ex; // slow or busy with other calls, not dead
				}
				this.supervisor.endGeneration(connection, "liveness: no reply to ping after a request timeout");
				throw new LostDuringCall(ex);
			}
			throw ex;
		}
	}

	// The live connection, waiting for the next generation while the server is starting
	// or reconnecting (or while the failed one is not yet seen as lost).
	private McpConnection awaitConnection(String tool, @Nullable McpConnection failed) {
		McpConnection connection = this.supervisor.current();
		if (connection != null && connection != failed) {
			return connection;
		}
		CompletableFuture<McpConnection> next = this.supervisor.nextGeneration(failed);
		if (next == null) {
			throw this.supervisor.unavailable(tool, "");
		}
		try {
			return next.get();
		}
		catch (ExecutionException ex) {
			throw this.supervisor.unavailable(tool, (ex.getCause() instanceof TimeoutException)
					? " and did not recover within " + this.policy.waitForRecovery().toMillis() + " ms" : "");
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw this.supervisor.unavailable(tool, " (the caller was interrupted while waiting)");
		}
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
		return new McpServerUnavailableException(this.supervisor.name(), McpServerState.RECONNECTING,
				UnavailableMessages.lostDuringCall(this.supervisor.name(), tool, how, retry,
						this.supervisor.policy().enabled()),
				lost.getCause());
	}

	/** The generation of a call ended under it. */
	private static final class LostDuringCall extends RuntimeException {

		private static final long serialVersionUID = 1L;

		LostDuringCall(Throwable cause) {
			super(cause.getMessage(), cause, false, false);
		}

	}

}
