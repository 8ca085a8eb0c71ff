package io.github.mcpsupervisor.transport.internal.stdio;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import io.github.mcpsupervisor.internal.CauseChain;
import io.github.mcpsupervisor.supervisor.McpConnector.McpConnectException;
import io.github.mcpsupervisor.supervisor.McpConnector.McpConnectException.Kind;
import io.github.mcpsupervisor.supervisor.McpServerStatus.ExitStatus;
import io.github.mcpsupervisor.transport.StdioServerDefinition;
import org.jspecify.annotations.Nullable;

/**
 * The process of one stdio generation, whichever revision it speaks: started at most once
 * and never after its termination was asked for, terminated within bounds, and what it
 * tells (its pid, its stderr, its exit) with the configuration's secrets masked.
 */
final class GenerationProcess {

	private final StdioServerDefinition definition;

	private final ProcessRecords records;

	private volatile @Nullable StdioServerProcess process;

	private volatile boolean terminateRequested;

	GenerationProcess(StdioServerDefinition definition, ProcessRecords records) {
		this.definition = definition;
		this.records = records;
	}

	/**
	 * Starts the process.
	 * @param label names the process's threads
	 * @return the process
	 * @throws McpConnectException if it cannot be started, or the generation was
	 * terminated meanwhile (then the process is terminated again at once)
	 */
	StdioServerProcess start(String label) throws McpConnectException {
		StdioServerProcess started;
		try {
			started = StdioServerProcess.start(this.definition, label, this.records);
		}
		catch (IOException ex) {
			throw new McpConnectException(spawnFailureKind(this.definition), "cannot start "
					+ this.definition.maskedCommandLine() + ": " + this.definition.redact(CauseChain.rootMessage(ex)),
					null, ex);
		}
		this.process = started;
		if (this.terminateRequested) {
			started.terminate(this.definition.terminationGracePeriod());
			throw new McpConnectException(Kind.TRANSIENT, "stopped while starting", null, null);
		}
		return started;
	}

	// Only a command that cannot be found or run, or a missing working directory, is the
	// configuration's fault; any other failure to spawn (EAGAIN, ENOMEM, EMFILE) may
	// pass.
	static Kind spawnFailureKind(StdioServerDefinition definition) {
		Path directory = definition.workingDirectory();
		if (directory != null && !Files.isDirectory(directory)) {
			return Kind.CONFIGURATION;
		}
		return ProcessTree.resolve(definition.command(), directory).isPresent() ? Kind.TRANSIENT : Kind.CONFIGURATION;
	}

	/**
	 * Terminates the process tree within the grace period and its kill confirmation; a
	 * process not started yet never starts.
	 * @return whether every process of the tree is confirmed gone
	 */
	boolean terminate() {
		this.terminateRequested = true;
		StdioServerProcess current = this.process;
		return current == null || current.terminate(this.definition.terminationGracePeriod());
	}

	// The exit with its last stderr line as it may be logged.
	ExitStatus redacted(ExitStatus exit) {
		String line = exit.lastStderrLine();
		return (line != null) ? new ExitStatus(exit.exitCode(), this.definition.redact(line)) : exit;
	}

	/**
	 * Waits, within a bound, for a generation to be lost: a broken pipe can surface a
	 * moment before the exit that caused it.
	 * @param lost completes when the generation is lost
	 * @param bound how long to wait
	 */
	static void awaitLoss(CompletableFuture<?> lost, Duration bound) {
		try {
			lost.get(bound.toMillis(), TimeUnit.MILLISECONDS);
		}
		catch (TimeoutException | ExecutionException ex) {
			// alive: the failure is the call's own
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}

	@Nullable StdioServerProcess current() {
		return this.process;
	}

	@Nullable Long pid() {
		StdioServerProcess current = this.process;
		return (current != null) ? current.pid() : null;
	}

	// The server may quote its arguments (a usage message) or its environment.
	List<String> stderrTail() {
		StdioServerProcess current = this.process;
		return (current != null) ? current.stderr().lines().stream().map(this.definition::redact).toList() : List.of();
	}

}
