package io.github.mcpsupervisor.transport.internal.stdio;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import io.github.mcpsupervisor.internal.CauseChain;
import io.github.mcpsupervisor.supervisor.ExitStatus;
import io.github.mcpsupervisor.supervisor.McpConnectException;
import io.github.mcpsupervisor.supervisor.McpConnectException.Kind;
import io.github.mcpsupervisor.transport.StdioServerDefinition;
import io.github.mcpsupervisor.transport.internal.CallTimeouts;
import io.github.mcpsupervisor.transport.internal.ClientConnection;
import io.github.mcpsupervisor.transport.internal.ClientSetup;
import io.github.mcpsupervisor.transport.internal.ToolListing.ToolListingException;
import io.modelcontextprotocol.client.McpAsyncClient;
import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.spec.McpError;
import org.jspecify.annotations.Nullable;

/**
 * One generation of a stdio server: its own process, transport and SDK client.
 */
final class StdioConnection extends ClientConnection {

	/**
	 * How long a failed initialize or call waits for the process exit that may have
	 * caused it: a write can hit the broken pipe of a dying process a moment before its
	 * exit is seen.
	 */
	static final Duration EXIT_SETTLE_TIME = Duration.ofSeconds(1);

	/**
	 * How long an exit waits for stdout to be read to its end before it is reported: an
	 * answer written just before the exit is delivered first. A descendant that keeps
	 * stdout open costs this bound.
	 */
	static final Duration STDOUT_SETTLE_TIME = Duration.ofSeconds(1);

	private final StdioServerDefinition definition;

	private final Executor executor;

	private final McpJsonMapper jsonMapper;

	private final GenerationProcess process;

	private volatile @Nullable ProcessStdioTransport transport;

	StdioConnection(StdioServerDefinition definition, int generation, ClientSetup setup, Executor executor,
			McpJsonMapper jsonMapper) {
		this(definition, generation, setup, executor, jsonMapper, ProcessRecords.none());
	}

	StdioConnection(StdioServerDefinition definition, int generation, ClientSetup setup, Executor executor,
			McpJsonMapper jsonMapper, ProcessRecords records) {
		super(definition.name(), generation, new CallTimeouts(definition.requestTimeout(), definition.toolTimeouts()),
				setup, "process ended");
		this.process = new GenerationProcess(definition, records);
		this.definition = definition;
		this.executor = executor;
		this.jsonMapper = jsonMapper;
	}

	@Override
	public void open() throws McpConnectException {
		String label = "mcp-" + this.definition.name() + "-g" + generation();
		StdioServerProcess started = this.process.start(label);
		ProcessStdioTransport createdTransport = new ProcessStdioTransport(started, this.jsonMapper, label, this::end);
		this.transport = createdTransport;
		McpAsyncClient created;
		try {
			created = createClient(createdTransport, this.definition.initializationTimeout());
		}
		catch (RuntimeException ex) {
			throw clientBuildFailure(ex, started.terminate(this.definition.terminationGracePeriod()));
		}
		this.client = created;
		// The exit is the one signal of a dead stdio server: closing the client fails the
		// requests in flight at once instead of after their timeout.
		started.exited()
			.thenCompose((exit) -> createdTransport.stdoutClosed()
				.completeOnTimeout(null, STDOUT_SETTLE_TIME.toMillis(), TimeUnit.MILLISECONDS)
				.thenApply((ignored) -> exit))
			.thenAcceptAsync((exit) -> {
				this.lost.complete(redacted(exit));
				closeClient();
			}, this.executor);
		try {
			initialize(created);
			started.rememberDescendants();
		}
		catch (RuntimeException ex) {
			ExitStatus exitedByItself = started.awaitExit(exitSettleTime(ex));
			closeClient();
			boolean confirmed = started.terminate(this.definition.terminationGracePeriod());
			ExitStatus awaited = (exitedByItself != null) ? exitedByItself
					: confirmed ? started.awaitExit(StdioServerProcess.KILL_CONFIRMATION) : null;
			ExitStatus exit = (awaited != null) ? redacted(awaited) : null;
			throw openFailure(ex, exit, exitedByItself != null, confirmed);
		}
	}

	private ExitStatus redacted(ExitStatus exit) {
		return this.process.redacted(exit);
	}

	// A failure of the process's own making (an answered error, a timeout, a listing
	// over a limit) leaves it running; any other failure may be its exit, seen a moment
	// later.
	private static Duration exitSettleTime(RuntimeException ex) {
		boolean answeredOrTimedOut = CauseChain.cause(ex, McpError.class) != null
				|| CauseChain.cause(ex, TimeoutException.class) != null || ex instanceof ToolListingException;
		return answeredOrTimedOut ? Duration.ZERO : EXIT_SETTLE_TIME;
	}

	private McpConnectException openFailure(RuntimeException ex, @Nullable ExitStatus exit, boolean exitedByItself,
			boolean confirmed) {
		StringBuilder message = new StringBuilder();
		if (endedBecause() != null) {
			message.append("initialize failed: ").append(endedBecause());
		}
		else if (exit != null && exitedByItself) {
			message.append("process exited during initialize with ").append(exit.describe());
		}
		else {
			message.append("initialize failed: ").append(this.definition.redact(CauseChain.rootMessage(ex)));
		}
		if (exit != null && exit.lastStderrLine() != null) {
			message.append("; last stderr line: ").append(exit.lastStderrLine());
		}
		if (!confirmed) {
			message.append(
					"; its process tree could not be confirmed gone, not reconnecting so that two servers never run");
			return new McpConnectException(Kind.NOT_CONFIRMED_DEAD, message.toString(), exit, ex);
		}
		McpConnectException otherRevision = otherRevision(ex);
		if (otherRevision != null) {
			return otherRevision;
		}
		if (exit != null && (exit.exitCode() == 126 || exit.exitCode() == 127)) {
			message.append(" (126/127: command not executable or not found)");
			return new McpConnectException(Kind.CONFIGURATION, message.toString(), exit, ex);
		}
		return new McpConnectException(Kind.TRANSIENT, message.toString(), exit, ex);
	}

	@Override
	protected void callFailed(RuntimeException ex) {
		// A broken pipe can surface a moment before the exit does: give the exit that
		// moment, so that the failure is reported as the loss it is.
		GenerationProcess.awaitLoss(this.lost, exitSettleTime(ex));
	}

	@Override
	protected void afterListing() {
		StdioServerProcess current = this.process.current();
		if (current != null) {
			current.rememberDescendants();
		}
	}

	@Override
	protected void afterClose() {
		// closed even when the client's close failed; it refuses to connect again
		ProcessStdioTransport current = this.transport;
		if (current != null) {
			current.closeGracefully().subscribe();
		}
	}

	@Override
	public boolean terminate() {
		return this.process.terminate();
	}

	@Override
	public long messagesReceived() {
		ProcessStdioTransport current = this.transport;
		return (current != null) ? current.messagesReceived() : 0;
	}

	@Override
	public @Nullable Long pid() {
		return this.process.pid();
	}

	@Override
	public List<String> stderrTail() {
		return this.process.stderrTail();
	}

	@Override
	protected String redact(String text) {
		return this.definition.redact(text);
	}

}
