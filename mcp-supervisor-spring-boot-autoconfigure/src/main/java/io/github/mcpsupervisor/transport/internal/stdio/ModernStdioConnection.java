package io.github.mcpsupervisor.transport.internal.stdio;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeoutException;

import io.github.mcpsupervisor.internal.CauseChain;
import io.github.mcpsupervisor.supervisor.ExitStatus;
import io.github.mcpsupervisor.supervisor.McpConnectException;
import io.github.mcpsupervisor.supervisor.McpConnectException.Kind;
import io.github.mcpsupervisor.transport.StdioServerDefinition;
import io.github.mcpsupervisor.transport.internal.CallTimeouts;
import io.github.mcpsupervisor.transport.internal.ClientConnection.ClientSetup;
import io.github.mcpsupervisor.transport.internal.MessageLimits;
import io.github.mcpsupervisor.transport.internal.ToolListing.ToolListingException;
import io.github.mcpsupervisor.transport.internal.modern.ModernConnection;
import io.github.mcpsupervisor.transport.internal.modern.NotModernException;
import io.github.mcpsupervisor.transport.internal.modern.UnsupportedRevisionException;
import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.modern.client.transport.StdioMcpClientTransport;
import io.modelcontextprotocol.spec.McpError;
import org.jspecify.annotations.Nullable;

/**
 * The generation of a stdio server that speaks MCP revision 2026-07-28: its own process
 * (spawned, recorded and terminated as a 2025-11-25 server's is), the SDK's modern stdio
 * transport over the process's pipes, discovery instead of initialize. The exit of the
 * process ends the generation and fails its requests in flight at once.
 */
final class ModernStdioConnection extends ModernConnection {

	private final StdioServerDefinition definition;

	private final Executor executor;

	private final McpJsonMapper jsonMapper;

	private final GenerationProcess process;

	private volatile @Nullable StdioMcpClientTransport transport;

	private volatile @Nullable JsonLinesInputStream stdout;

	ModernStdioConnection(StdioServerDefinition definition, int generation, ClientSetup setup, Executor executor,
			McpJsonMapper jsonMapper, ProcessRecords records) {
		super(definition.name(), generation, new CallTimeouts(definition.requestTimeout(), definition.toolTimeouts()),
				definition.initializationTimeout(), setup, jsonMapper, "process ended");
		this.definition = definition;
		this.executor = executor;
		this.jsonMapper = jsonMapper;
		this.process = new GenerationProcess(definition, records);
	}

	@Override
	public void open() throws McpConnectException {
		String label = "mcp-" + this.definition.name() + "-g" + generation();
		StdioServerProcess started = this.process.start(label);
		JsonLinesInputStream counted = new JsonLinesInputStream(started.stdout(), label, this::takeLogMessage);
		this.stdout = counted;
		StdioMcpClientTransport created = StdioMcpClientTransport.builder(counted, started.stdin())
			.jsonMapper(this.jsonMapper)
			.inputMaxSize(MessageLimits.MAX_MESSAGE_BYTES)
			.start();
		this.transport = created;
		// the exit is the one signal of a dead stdio server: closing the transport fails
		// the requests in flight at once instead of after their timeout
		started.exited().thenAcceptAsync((exit) -> {
			this.lost.complete(redacted(exit));
			closeClient();
		}, this.executor);
		try {
			discover(createClient(created, this.jsonMapper));
			started.rememberDescendants();
		}
		catch (RuntimeException ex) {
			ExitStatus exitedByItself = started.awaitExit(exitSettleTime(ex));
			closeClient();
			boolean confirmed = started.terminate(this.definition.terminationGracePeriod());
			ExitStatus exit = (exitedByItself != null) ? redacted(exitedByItself) : null;
			throw openFailure(ex, exit, confirmed);
		}
	}

	// An answer or a timeout leaves the process running; any other failure may be its
	// exit, seen a moment later.
	private static Duration exitSettleTime(RuntimeException ex) {
		boolean answered = (ex instanceof NotModernException notModern && notModern.isAnswered())
				|| ex instanceof UnsupportedRevisionException || CauseChain.cause(ex, McpError.class) != null
				|| CauseChain.cause(ex, TimeoutException.class) != null || ex instanceof ToolListingException;
		return answered ? Duration.ZERO : StdioConnection.EXIT_SETTLE_TIME;
	}

	private McpConnectException openFailure(RuntimeException ex, @Nullable ExitStatus exit, boolean confirmed) {
		StringBuilder message = new StringBuilder();
		RuntimeException cause = ex;
		if (exit != null) {
			message.append("process exited during discovery with ").append(exit.describe());
			if (!(ex instanceof NotModernException)) {
				// a legacy server may exit on a request it does not know
				cause = new NotModernException(message.toString(), false, ex);
			}
		}
		else if (ex instanceof NotModernException notModern && notModern.isAnswered()) {
			message.append(NotModernException
				.configurationMessage(this.definition.redact(String.valueOf(notModern.getMessage()))));
		}
		else {
			message.append("discovery failed: ").append(this.definition.redact(CauseChain.rootMessage(ex)));
		}
		if (exit != null && exit.lastStderrLine() != null) {
			message.append("; last stderr line: ").append(exit.lastStderrLine());
		}
		if (!confirmed) {
			message.append(
					"; its process tree could not be confirmed gone, not reconnecting so that two servers never run");
			return new McpConnectException(Kind.NOT_CONFIRMED_DEAD, message.toString(), exit, cause);
		}
		if (ex instanceof UnsupportedRevisionException
				|| (ex instanceof NotModernException notModern && notModern.isAnswered())) {
			return new McpConnectException(Kind.CONFIGURATION, message.toString(), exit, cause);
		}
		if (exit != null && (exit.exitCode() == 126 || exit.exitCode() == 127)) {
			message.append(" (126/127: command not executable or not found)");
			return new McpConnectException(Kind.CONFIGURATION, message.toString(), exit, cause);
		}
		return new McpConnectException(Kind.TRANSIENT, message.toString(), exit, cause);
	}

	private ExitStatus redacted(ExitStatus exit) {
		return this.process.redacted(exit);
	}

	@Override
	protected void callFailed(RuntimeException ex) {
		GenerationProcess.awaitLoss(this.lost, exitSettleTime(ex));
	}

	@Override
	protected void closeTransport() {
		StdioMcpClientTransport current = this.transport;
		if (current != null) {
			current.close();
		}
	}

	@Override
	public boolean terminate() {
		return this.process.terminate();
	}

	@Override
	public long messagesReceived() {
		JsonLinesInputStream current = this.stdout;
		return (current != null) ? current.messages() : 0;
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
