package io.github.mcpsupervisor.transport;

import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import io.modelcontextprotocol.client.McpAsyncClient;
import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.spec.McpError;
import io.modelcontextprotocol.spec.McpSchema.CallToolRequest;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import io.modelcontextprotocol.spec.McpSchema.Tool;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

import io.github.mcpsupervisor.supervisor.ExitStatus;
import io.github.mcpsupervisor.supervisor.McpConnectException;
import io.github.mcpsupervisor.supervisor.McpConnectException.Kind;
import io.github.mcpsupervisor.supervisor.McpConnection;

/**
 * One generation of a stdio server: its own process, transport and SDK client.
 */
final class StdioConnection implements McpConnection {

	/** How long a failed call waits for the process exit that may have caused it. */
	private static final Duration LOSS_SETTLE_TIME = Duration.ofMillis(200);

	private final StdioServerDefinition definition;

	private final int generation;

	private final Runnable toolsChanged;

	private final Executor executor;

	private final McpJsonMapper jsonMapper;

	private final CompletableFuture<ExitStatus> lost = new CompletableFuture<>();

	private volatile @Nullable StdioServerProcess process;

	private static final Log logger = LogFactory.getLog(StdioConnection.class);

	private volatile @Nullable McpAsyncClient client;

	private volatile @Nullable ProcessStdioTransport transport;

	private volatile boolean terminateRequested;

	private volatile List<Tool> tools = List.of();

	StdioConnection(StdioServerDefinition definition, int generation, Runnable toolsChanged, Executor executor,
			McpJsonMapper jsonMapper) {
		this.definition = definition;
		this.generation = generation;
		this.toolsChanged = toolsChanged;
		this.executor = executor;
		this.jsonMapper = jsonMapper;
	}

	@Override
	public int generation() {
		return this.generation;
	}

	@Override
	public void open() throws McpConnectException {
		String label = "mcp-" + this.definition.name() + "-g" + this.generation;
		StdioServerProcess started;
		try {
			started = StdioServerProcess.start(this.definition, label);
		}
		catch (IOException ex) {
			throw new McpConnectException(Kind.CONFIGURATION,
					"cannot start " + this.definition.commandLine() + ": " + McpClients.rootMessage(ex), null, ex);
		}
		this.process = started;
		if (this.terminateRequested) {
			started.terminate(this.definition.terminationGracePeriod());
			throw new McpConnectException(Kind.TRANSIENT, "stopped while starting", null, null);
		}
		ProcessStdioTransport createdTransport = new ProcessStdioTransport(started, this.jsonMapper, label);
		this.transport = createdTransport;
		McpAsyncClient created = McpClients.create(createdTransport, this.definition.requestTimeout(),
				this.definition.initializationTimeout(), this.toolsChanged);
		this.client = created;
		// The exit is the one signal of a dead stdio server: closing the client fails the
		// requests in flight at once instead of after their timeout.
		started.onExit().thenRunAsync(() -> {
			this.lost.complete(started.exitStatus());
			closeClient();
		}, this.executor);
		try {
			created.initialize().block();
			this.tools = McpClients.requireResult(created.listTools().block()).tools();
			started.rememberDescendants();
		}
		catch (RuntimeException ex) {
			boolean exitedByItself = !started.isAlive();
			closeClient();
			boolean confirmed = started.terminate(this.definition.terminationGracePeriod());
			throw openFailure(ex, started.exitStatus(), exitedByItself, confirmed);
		}
	}

	private McpConnectException openFailure(RuntimeException ex, @Nullable ExitStatus exit, boolean exitedByItself,
			boolean confirmed) {
		StringBuilder message = new StringBuilder();
		if (exit != null && exitedByItself) {
			message.append("process exited during initialize with ").append(exit.describe());
		}
		else {
			message.append("initialize failed: ").append(McpClients.rootMessage(ex));
		}
		if (exit != null && exit.lastStderrLine() != null) {
			message.append("; last stderr line: ").append(exit.lastStderrLine());
		}
		if (!confirmed) {
			message.append("; its process tree could not be confirmed gone, not reconnecting so that two servers never run");
			return new McpConnectException(Kind.NOT_CONFIRMED_DEAD, message.toString(), exit, ex);
		}
		if (exit != null && (exit.exitCode() == 126 || exit.exitCode() == 127)) {
			message.append(" (126/127: command not executable or not found)");
			return new McpConnectException(Kind.CONFIGURATION, message.toString(), exit, ex);
		}
		return new McpConnectException(Kind.TRANSIENT, message.toString(), exit, ex);
	}

	@Override
	public List<Tool> tools() {
		return this.tools;
	}

	@Override
	public List<Tool> listTools() {
		List<Tool> listed = McpClients.requireResult(requireClient().listTools().block()).tools();
		StdioServerProcess current = this.process;
		if (current != null) {
			current.rememberDescendants();
		}
		return listed;
	}

	@Override
	public CallToolResult callTool(CallToolRequest request) {
		try {
			return McpClients.requireResult(requireClient().callTool(request).block());
		}
		catch (McpError ex) {
			throw ex; // the server answered
		}
		catch (RuntimeException ex) {
			// A broken pipe can surface a moment before the exit does: give the exit that
			// moment, so that the failure is reported as the loss it is.
			awaitLoss(LOSS_SETTLE_TIME);
			throw ex;
		}
	}

	@Override
	public boolean ping(Duration timeout) {
		McpAsyncClient current = this.client;
		return current != null && !this.lost.isDone() && McpClients.ping(current, timeout) == null;
	}

	private void awaitLoss(Duration bound) {
		try {
			this.lost.get(bound.toMillis(), TimeUnit.MILLISECONDS);
		}
		catch (TimeoutException | ExecutionException ex) {
			// alive: the failure is the call's own
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}

	@Override
	public CompletableFuture<ExitStatus> onLost() {
		return this.lost;
	}

	@Override
	public void closeClient() {
		McpAsyncClient current = this.client;
		ProcessStdioTransport currentTransport = this.transport;
		try {
			if (current != null) {
				current.close();
			}
		}
		catch (RuntimeException ex) {
			// The SDK's close races with a re-initialization that a call on this dying
			// client started (NullPointerException in LifecycleInitializer): the
			// transport below is closed regardless, and it refuses to connect again.
			logger.debug("Closing the client of generation " + this.generation + " failed", ex);
		}
		finally {
			if (currentTransport != null) {
				currentTransport.closeGracefully().subscribe();
			}
		}
	}

	@Override
	public boolean terminate() {
		this.terminateRequested = true;
		StdioServerProcess current = this.process;
		return current == null || current.terminate(this.definition.terminationGracePeriod());
	}

	@Override
	public @Nullable Long pid() {
		StdioServerProcess current = this.process;
		return (current != null) ? current.pid() : null;
	}

	@Override
	public List<String> stderrTail() {
		StdioServerProcess current = this.process;
		return (current != null) ? current.stderr().lines() : List.of();
	}

	private McpAsyncClient requireClient() {
		McpAsyncClient current = this.client;
		if (current == null) {
			throw new IllegalStateException("generation " + this.generation + " of MCP server '"
					+ this.definition.name() + "' is not connected");
		}
		return current;
	}


}
