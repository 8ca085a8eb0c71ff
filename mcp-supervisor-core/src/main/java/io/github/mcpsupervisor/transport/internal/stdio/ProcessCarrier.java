package io.github.mcpsupervisor.transport.internal.stdio;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;

import io.github.mcpsupervisor.internal.CauseChain;
import io.github.mcpsupervisor.supervisor.McpConnector.McpConnectException;
import io.github.mcpsupervisor.supervisor.McpConnector.McpConnectException.Kind;
import io.github.mcpsupervisor.supervisor.McpServerStatus.ExitStatus;
import io.github.mcpsupervisor.transport.StdioServerDefinition;
import io.github.mcpsupervisor.transport.internal.Carrier;
import io.github.mcpsupervisor.transport.internal.GenerationLife;
import io.github.mcpsupervisor.transport.internal.RevisionClient;
import io.github.mcpsupervisor.transport.internal.RevisionClient.Refusal;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

/**
 * The process of one stdio generation, whichever revision it speaks: started for the
 * generation, its exit ending the generation and failing the calls in flight at once, and
 * a failed start told with the process's exit and its last stderr line.
 */
final class ProcessCarrier implements Carrier {

	private static final Log logger = LogFactory.getLog(ProcessCarrier.class);

	/**
	 * How long a failed start or call waits for the process exit that may have caused it:
	 * a write can hit the broken pipe of a dying process a moment before its exit is
	 * seen.
	 */
	static final Duration EXIT_SETTLE_TIME = Duration.ofSeconds(1);

	/**
	 * How long an exit waits for stdout to be read to its end before it is reported: an
	 * answer written just before the exit is delivered first. A descendant that keeps
	 * stdout open costs this bound.
	 */
	static final Duration STDOUT_SETTLE_TIME = Duration.ofSeconds(1);

	private final GenerationLife life;

	private final StdioServerDefinition definition;

	private final Executor executor;

	private final GenerationProcess process;

	private final StdioBinding binding;

	private final StartGate.Start start;

	ProcessCarrier(GenerationLife life, StdioServerDefinition definition, Executor executor, ProcessRecords records,
			StdioBinding binding, StartGate starts) {
		this.life = life;
		this.definition = definition;
		this.executor = executor;
		this.process = new GenerationProcess(definition, records);
		this.binding = binding;
		this.start = starts.start(definition.name(), life.number());
	}

	// The place in the application's starts is held from before the spawn until the
	// generation is connected, or has failed and its process is gone.
	@Override
	public void open() throws McpConnectException {
		if (!this.start.enter()) {
			throw new McpConnectException(Kind.TRANSIENT, Thread.currentThread().isInterrupted()
					? "interrupted while waiting to start" : "stopped while starting", null, null);
		}
		try {
			openStarted();
		}
		finally {
			this.start.leave();
		}
	}

	private void openStarted() throws McpConnectException {
		String label = "mcp-" + this.definition.name() + "-g" + this.life.number();
		StdioServerProcess started = this.process.start(label);
		try {
			this.binding.connect(started, label);
		}
		catch (RuntimeException ex) {
			// a transport started before its client failed to build: its threads end
			// with it
			closeQuietly();
			throw Carrier.clientBuildFailure(ex, started.terminate(this.definition.terminationGracePeriod()));
		}
		// The exit is the one signal of a dead stdio server: closing the client fails the
		// requests in flight at once instead of after their timeout.
		started.exited()
			.thenCompose((exit) -> this.binding.drained()
				.completeOnTimeout(null, STDOUT_SETTLE_TIME.toMillis(), TimeUnit.MILLISECONDS)
				.thenApply((ignored) -> exit))
			.thenAcceptAsync((exit) -> this.life.exited(this.process.redacted(exit)), this.executor);
		RevisionClient client = this.binding.client();
		try {
			client.open(this::streamFailed);
			started.rememberDescendants();
		}
		catch (RuntimeException ex) {
			ExitStatus exitedByItself = started.awaitExit(exitSettleTime(ex));
			this.life.closeClient();
			boolean confirmed = started.terminate(this.definition.terminationGracePeriod());
			ExitStatus awaited = (exitedByItself != null) ? exitedByItself
					: confirmed ? started.awaitExit(StdioServerProcess.KILL_CONFIRMATION) : null;
			ExitStatus exit = (awaited != null) ? this.process.redacted(awaited) : null;
			throw openFailure(client, ex, exit, exitedByItself != null, confirmed);
		}
	}

	// A failure of the server's own making (an answer, a timeout, a listing over a limit)
	// leaves its process running; any other failure may be its exit, seen a moment
	// later.
	private Duration exitSettleTime(RuntimeException ex) {
		return this.binding.client().isAnswered(ex) ? Duration.ZERO : EXIT_SETTLE_TIME;
	}

	private McpConnectException openFailure(RevisionClient client, RuntimeException ex, @Nullable ExitStatus exit,
			boolean exitedByItself, boolean confirmed) {
		StringBuilder message = new StringBuilder();
		RuntimeException cause = ex;
		Refusal refusal = client.refusal(ex);
		if (this.life.endedBecause() != null) {
			message.append(client.handshake()).append(" failed: ").append(this.life.endedBecause());
		}
		else if (exit != null && exitedByItself) {
			message.append("process exited during ")
				.append(client.handshake())
				.append(" with ")
				.append(exit.describe());
			cause = client.exitedDuringHandshake(message.toString(), ex);
		}
		else if (refusal != null && refusal.message() != null) {
			message.append(refusal.message());
		}
		else {
			message.append(client.handshake())
				.append(" failed: ")
				.append(this.definition.redact(CauseChain.rootMessage(ex)));
		}
		if (exit != null && exit.lastStderrLine() != null) {
			message.append("; last stderr line: ").append(exit.lastStderrLine());
		}
		if (!confirmed) {
			message.append(
					"; its process tree could not be confirmed gone, not reconnecting so that two servers never run");
			return new McpConnectException(Kind.NOT_CONFIRMED_DEAD, message.toString(), exit, cause);
		}
		if (refusal != null) {
			return new McpConnectException(Kind.CONFIGURATION, message.toString(), exit, cause);
		}
		if (exit != null && (exit.exitCode() == 126 || exit.exitCode() == 127)) {
			message.append(" (126/127: command not executable or not found)");
			return new McpConnectException(Kind.CONFIGURATION, message.toString(), exit, cause);
		}
		return new McpConnectException(Kind.TRANSIENT, message.toString(), exit, cause);
	}

	@Override
	public RuntimeException callFailed(RuntimeException ex) {
		// A broken pipe can surface a moment before the exit does: give the exit that
		// moment, so that the failure is reported as the loss it is.
		GenerationProcess.awaitLoss(this.life.lost(), exitSettleTime(ex));
		return ex;
	}

	@Override
	public void listed() {
		StdioServerProcess current = this.process.current();
		if (current != null) {
			current.rememberDescendants();
		}
	}

	@Override
	public void close() {
		this.binding.close();
	}

	@Override
	public boolean terminate() {
		this.start.stop();
		return this.process.terminate();
	}

	@Override
	public long messagesReceived() {
		return this.binding.messagesReceived();
	}

	@Override
	public @Nullable Long pid() {
		return this.process.pid();
	}

	@Override
	public List<String> stderrTail() {
		return this.process.stderrTail();
	}

	private void closeQuietly() {
		try {
			this.binding.close();
		}
		catch (RuntimeException ex) {
			logger.debug("MCP server '" + this.definition.name() + "': closing the transport of generation "
					+ this.life.number() + " failed", ex);
		}
	}

}
