package io.github.mcpsupervisor.transport.internal.modern;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;

import io.github.mcpsupervisor.internal.CauseChain;
import io.github.mcpsupervisor.internal.ServerText;
import io.github.mcpsupervisor.supervisor.McpConnector;
import io.github.mcpsupervisor.supervisor.McpConnector.McpConnectException;
import io.github.mcpsupervisor.supervisor.McpConnector.McpConnectException.Kind;
import io.github.mcpsupervisor.supervisor.McpConnector.McpConnection;
import io.github.mcpsupervisor.supervisor.McpConnector.McpServerRequests;
import io.github.mcpsupervisor.supervisor.McpServerStatus.ExitStatus;
import io.github.mcpsupervisor.supervisor.ToolSet.SessionInfo;
import io.github.mcpsupervisor.transport.internal.Revisions;
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
 * One generation of a server configured as {@code auto}: opened in the revision the
 * server speaks (see {@link NegotiatingConnector}), then everything is the chosen
 * connection's.
 */
final class NegotiatingConnection implements McpConnection {

	private static final Log logger = LogFactory.getLog(NegotiatingConnector.class);

	private final String server;

	private final int generation;

	private final Runnable toolsChanged;

	private final McpConnector modern;

	private final McpConnector legacy;

	private final NegotiatedRevision negotiated;

	private final CompletableFuture<ExitStatus> lost = new CompletableFuture<>();

	private volatile @Nullable McpConnection chosen;

	private volatile boolean terminateRequested;

	NegotiatingConnection(String server, int generation, Runnable toolsChanged, McpConnector modern,
			McpConnector legacy, NegotiatedRevision negotiated) {
		this.server = server;
		this.generation = generation;
		this.toolsChanged = toolsChanged;
		this.modern = modern;
		this.legacy = legacy;
		this.negotiated = negotiated;
	}

	@Override
	public int generation() {
		return this.generation;
	}

	@Override
	public void open() throws McpConnectException {
		String known = this.negotiated.get();
		if (Revisions.V2025_11_25.equals(known)) {
			try {
				openLegacy();
				return;
			}
			catch (McpConnectException ex) {
				if (!refusedAsOtherRevision(ex) || ex.getKind() == Kind.NOT_CONFIRMED_DEAD) {
					throw ex; // another failure, or a process that may still run
				}
				logger.info("MCP server '" + this.server + "' refused initialize ("
						+ ServerText.forLog(this.modern.redact(ex.getMessage())) + "): probing it as a "
						+ Revisions.V2026_07_28 + " server");
			}
		}
		McpConnectException probe;
		try {
			openModern();
			return;
		}
		catch (McpConnectException ex) {
			NotModernException notModern = CauseChain.cause(ex, NotModernException.class);
			if (notModern == null || ex.getKind() == Kind.NOT_CONFIRMED_DEAD) {
				throw ex; // a failure of a modern server, or one that may still run
			}
			if (Revisions.V2026_07_28.equals(known) && !notModern.isAnswered()) {
				throw transientFailure(ex); // a known modern server that failed: an
											// outage
			}
			logger.info("MCP server '" + this.server + "' is not a " + Revisions.V2026_07_28 + " server ("
					+ ServerText.forLog(this.modern.redact(String.valueOf(notModern.getMessage())))
					+ "): connecting as a " + Revisions.V2025_11_25 + " client");
			probe = ex;
		}
		try {
			openLegacy();
		}
		catch (McpConnectException ex) {
			if (refusedAsOtherRevision(ex) && ex.getKind() != Kind.NOT_CONFIRMED_DEAD) {
				// a modern server whose probe failed (no answer in time, an exit) and
				// that
				// refuses initialize: the probe's failure is the attempt's, worth
				// retrying
				throw transientFailure(probe);
			}
			throw ex;
		}
	}

	private static McpConnectException transientFailure(McpConnectException ex) {
		return (ex.getKind() == Kind.TRANSIENT) ? ex
				: new McpConnectException(Kind.TRANSIENT, String.valueOf(ex.getMessage()), ex.getExit(), ex);
	}

	private void openModern() throws McpConnectException {
		open(this.modern, Revisions.V2026_07_28);
	}

	private void openLegacy() throws McpConnectException {
		open(this.legacy, Revisions.V2025_11_25);
	}

	private void open(McpConnector connector, String revision) throws McpConnectException {
		if (this.terminateRequested) {
			throw new McpConnectException(Kind.TRANSIENT, "stopped while starting", null, null);
		}
		McpConnection connection = connector.create(this.generation, this.toolsChanged);
		this.chosen = connection;
		if (this.terminateRequested) {
			connection.terminate();
			throw new McpConnectException(Kind.TRANSIENT, "stopped while starting", null, null);
		}
		connection.open();
		this.negotiated.set(revision);
		connection.onLost().whenComplete((exit, ex) -> this.lost.complete(exit));
	}

	// Whether a 2025-11-25 server's refusal of initialize says that it speaks another
	// revision now (an unsupported-version error naming the versions it supports).
	private static boolean refusedAsOtherRevision(McpConnectException ex) {
		McpError error = CauseChain.cause(ex, McpError.class);
		if (error != null && error.getJsonRpcError() != null
				&& Integer.valueOf(Discovery.UNSUPPORTED_PROTOCOL_VERSION).equals(error.getJsonRpcError().code())) {
			return true;
		}
		String message = CauseChain.rootMessage(ex);
		return message != null && message.contains("Unsupported protocol version");
	}

	private McpConnection required() {
		McpConnection current = this.chosen;
		if (current == null) {
			throw new IllegalStateException(
					"generation " + this.generation + " of MCP server '" + this.server + "' is not connected");
		}
		return current;
	}

	@Override
	public List<Tool> tools() {
		McpConnection current = this.chosen;
		return (current != null) ? current.tools() : List.of();
	}

	@Override
	public @Nullable Duration toolsFreshFor() {
		McpConnection current = this.chosen;
		return (current != null) ? current.toolsFreshFor() : null;
	}

	@Override
	public List<Tool> listTools() {
		return required().listTools();
	}

	@Override
	public CallToolResult callTool(CallToolRequest request) {
		return required().callTool(request);
	}

	@Override
	public <T> @Nullable T request(String method, java.util.function.Function<McpAsyncClient, Mono<T>> request) {
		return required().request(method, request);
	}

	@Override
	public <T> @Nullable T send(String method, java.util.function.Function<McpServerRequests, Mono<T>> request) {
		return required().send(method, request);
	}

	@Override
	public @Nullable SessionInfo session() {
		McpConnection current = this.chosen;
		return (current != null) ? current.session() : null;
	}

	@Override
	public boolean ping(Duration timeout) {
		McpConnection current = this.chosen;
		return current != null && current.ping(timeout);
	}

	@Override
	public long messagesReceived() {
		McpConnection current = this.chosen;
		return (current != null) ? current.messagesReceived() : 0;
	}

	@Override
	public int callsInFlight() {
		McpConnection current = this.chosen;
		return (current != null) ? current.callsInFlight() : 0;
	}

	@Override
	public CompletableFuture<ExitStatus> onLost() {
		return this.lost;
	}

	@Override
	public String lossReason() {
		McpConnection current = this.chosen;
		return (current != null) ? current.lossReason() : "process ended";
	}

	@Override
	public void closeClient() {
		McpConnection current = this.chosen;
		if (current != null) {
			current.closeClient();
		}
	}

	@Override
	public boolean terminate() {
		this.terminateRequested = true;
		McpConnection current = this.chosen;
		return current == null || current.terminate();
	}

	@Override
	public @Nullable Long pid() {
		McpConnection current = this.chosen;
		return (current != null) ? current.pid() : null;
	}

	@Override
	public List<String> stderrTail() {
		McpConnection current = this.chosen;
		return (current != null) ? current.stderrTail() : List.of();
	}

}
