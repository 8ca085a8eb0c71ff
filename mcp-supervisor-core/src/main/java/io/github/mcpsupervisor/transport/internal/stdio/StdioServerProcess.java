package io.github.mcpsupervisor.transport.internal.stdio;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.time.Duration;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.UnaryOperator;

import io.github.mcpsupervisor.internal.RepeatedWarnings;
import io.github.mcpsupervisor.supervisor.McpServerStatus.ExitStatus;
import io.github.mcpsupervisor.transport.StdioServerDefinition;
import io.github.mcpsupervisor.transport.internal.stdio.ProcessTree.Launch;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

/**
 * A server process owned by its generation: spawned with the configured command,
 * environment and working directory, its stderr always drained into a {@link StderrTail}
 * (by the {@link StderrPump} shared by every server), its exit observed at once, and its
 * whole process tree terminated within a bound.
 * <p>
 * The exit is seen by the reader of its stdout, which ends with the process, and by the
 * stderr pump's rounds, for a process whose stdout a descendant still holds; never
 * through {@link Process#onExit()}, which the JDK completes on
 * {@code CompletableFuture}'s default executor, the common pool an application's own
 * tasks can fill.
 */
final class StdioServerProcess {

	/** How long SIGKILLed processes may take to be confirmed gone. */
	static final Duration KILL_CONFIRMATION = Duration.ofSeconds(2);

	/** How long the reader of a stdout that ended waits for the process's exit. */
	static final Duration EXIT_AFTER_STDOUT_END = Duration.ofMillis(50);

	/** How long an exited process's last stderr lines may take to be read. */
	static final Duration STDERR_SETTLE_TIME = Duration.ofMillis(100);

	/**
	 * The longest stderr line that is read; the rest of a longer line is discarded.
	 */
	static final int MAX_STDERR_LINE_BYTES = 8192;

	private static final int STDERR_LINES = 20;

	/**
	 * The logger of the servers' stderr lines: a name of its own, which users set levels
	 * for, whatever class logs them.
	 */
	static final String STDERR_LOGGER = "io.github.mcpsupervisor.stderr";

	private static final Log logger = LogFactory.getLog(STDERR_LOGGER);

	private final Process process;

	private final String label;

	private final StderrTail stderr = new StderrTail(STDERR_LINES);

	private final StderrPump.Drain stderrDrain;

	private final CompletableFuture<ExitStatus> exited;

	/** Completed once the process has exited, by whichever sees it first. */
	private final CompletableFuture<Void> gone = new CompletableFuture<>();

	private final InputStream stdout;

	/** Every descendant seen while the tree was intact: an orphan is no longer listed. */
	private final Set<ProcessHandle> tree = ConcurrentHashMap.newKeySet();

	private boolean terminated;

	// written on the pump's thread only
	private long longStderrLines;

	/** Whether the process leads its own process group, which holds its whole tree. */
	private final boolean ownGroup;

	/** Masks the configuration's secrets in what the server writes. */
	private final UnaryOperator<String> redaction;

	/** Where the process is recorded until its tree is confirmed gone. */
	private final ProcessRecords records;

	private StdioServerProcess(Process process, String label, boolean ownGroup, UnaryOperator<String> redaction,
			ProcessRecords records) {
		this.records = records;
		this.redaction = redaction;
		this.process = process;
		this.label = label;
		this.ownGroup = ownGroup;
		this.stderrDrain = StderrPump.shared()
			.drain(process.getErrorStream(), new StderrLines(MAX_STDERR_LINE_BYTES, new StderrSink()));
		// Everything the process wrote before its exit is read at once after it; the
		// bound is a safety net.
		this.stdout = new ExitNoticingInputStream(process.getInputStream(), this::noticeExit);
		StderrPump.shared().watchExit(process, this.gone);
		this.exited = this.gone
			.thenCompose((ignored) -> this.stderrDrain.finish()
				.completeOnTimeout(null, STDERR_SETTLE_TIME.toMillis(), TimeUnit.MILLISECONDS))
			.thenApply((ignored) -> new ExitStatus(process.exitValue(), this.stderr.lastLine()));
	}

	/**
	 * Spawns the server and starts draining its stderr.
	 * @param definition the server
	 * @param label names the server in log lines
	 * @return the running process
	 * @throws IOException if the process cannot be started
	 */
	static StdioServerProcess start(StdioServerDefinition definition, String label) throws IOException {
		return start(definition, label, ProcessRecords.none());
	}

	/**
	 * Spawns the server, records it, and starts draining its stderr.
	 * @param definition the server
	 * @param label names the server in log lines
	 * @param records where the process is recorded until its tree is confirmed gone
	 * @return the running process
	 * @throws IOException if the process cannot be started
	 */
	static StdioServerProcess start(StdioServerDefinition definition, String label, ProcessRecords records)
			throws IOException {
		Launch launch = ProcessTree.launch(definition.commandLine(), definition.workingDirectory());
		ProcessBuilder builder = new ProcessBuilder(launch.commandLine());
		// never the application's whole environment: it holds the application's secrets
		builder.environment().clear();
		builder.environment().putAll(ServerEnvironment.of(definition.inheritEnv(), definition.env()));
		if (definition.workingDirectory() != null) {
			builder.directory(definition.workingDirectory().toFile());
		}
		Process process = builder.start();
		records.add(process, launch.ownGroup(), definition.commandLine());
		return new StdioServerProcess(process, label, launch.ownGroup(), definition::redact, records);
	}

	long pid() {
		return this.process.pid();
	}

	/**
	 * Returns the process's stdout, whose end tells of the process's exit at once.
	 * @return the stream, to be read by one reader
	 */
	InputStream stdout() {
		return this.stdout;
	}

	// The stdout ended: the process has exited, or is about to, or closed it and runs on
	// (the pump's rounds see its exit later).
	private void noticeExit() {
		try {
			if (this.process.waitFor(EXIT_AFTER_STDOUT_END.toMillis(), TimeUnit.MILLISECONDS)) {
				this.gone.complete(null);
			}
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}

	OutputStream stdin() {
		return this.process.getOutputStream();
	}

	/**
	 * Returns how the process ended, once it has and its last stderr lines were read.
	 * @return completes with the exit
	 */
	CompletableFuture<ExitStatus> exited() {
		return this.exited.copy();
	}

	/**
	 * Waits for the process to end, at most for the bound.
	 * @param bound how long to wait
	 * @return how it ended, or {@code null} if it still runs
	 */
	@Nullable ExitStatus awaitExit(Duration bound) {
		try {
			return this.exited.get(bound.toMillis(), TimeUnit.MILLISECONDS);
		}
		catch (TimeoutException | ExecutionException ex) {
			return null;
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			return null;
		}
	}

	StderrTail stderr() {
		return this.stderr;
	}

	/**
	 * Remembers the current descendants, so that they can be killed even after the server
	 * process itself died and they were re-parented.
	 */
	void rememberDescendants() {
		this.process.descendants().forEach(this.tree::add);
	}

	/**
	 * Terminates the whole process tree: SIGTERM to every process of the server's process
	 * group and of its tree, up to the grace period to exit, then SIGKILL to the
	 * survivors. A zombie counts as gone: it runs nothing. When the tree was not
	 * confirmed gone, a later call tries again; once it was, later calls return at once.
	 * @param grace how long the processes may take to exit after SIGTERM
	 * @return whether every process of the tree is confirmed gone
	 */
	synchronized boolean terminate(Duration grace) {
		if (!this.terminated) {
			this.terminated = terminateTree(grace);
			if (this.terminated) {
				this.records.remove(this.process.pid());
			}
		}
		return this.terminated;
	}

	private boolean terminateTree(Duration grace) {
		if (this.process.isAlive()) {
			rememberDescendants();
		}
		closeStdin();
		Set<ProcessHandle> all = members();
		all.stream().filter(this::isRunning).forEach(ProcessHandle::destroy);
		awaitGone(all, grace);
		// Whatever the group started meanwhile is killed too, until a scan of the group
		// finds none running: a member forked after a scan, by one not yet killed, is
		// found by the next one. Only a process that runs can fork, so a scan that finds
		// none is final.
		long deadline = System.nanoTime() + KILL_CONFIRMATION.toNanos();
		while (true) {
			all.addAll(members());
			List<ProcessHandle> running = all.stream().filter(this::isRunning).toList();
			if (running.isEmpty()) {
				return true;
			}
			if (System.nanoTime() >= deadline) {
				return false;
			}
			running.forEach(ProcessHandle::destroyForcibly);
			awaitGone(all, Duration.ofNanos(Math.max(0, deadline - System.nanoTime())));
		}
	}

	// The server process itself is the JVM's child, which the JDK reaps: it is gone once
	// reaped. Any other process counts as gone once it runs nothing.
	private boolean isRunning(ProcessHandle handle) {
		return (handle.pid() == this.process.pid()) ? this.process.isAlive() : ProcessTree.isRunning(handle);
	}

	// The server, every descendant seen, and every member of its process group.
	private Set<ProcessHandle> members() {
		Set<ProcessHandle> all = new LinkedHashSet<>();
		all.add(this.process.toHandle());
		all.addAll(this.tree);
		if (this.ownGroup) {
			all.addAll(ProcessTree.group(this.process.pid()));
		}
		return all;
	}

	// Closing stdin flushes under the stream's lock, which a write blocked on a full pipe
	// holds: it must never delay the signals.
	private void closeStdin() {
		Thread close = new Thread(() -> {
			try {
				this.process.getOutputStream().close();
			}
			catch (IOException ex) {
				// already closed by a broken pipe
			}
		}, this.label + "-close-stdin");
		close.setDaemon(true);
		close.start();
	}

	private void awaitGone(Set<ProcessHandle> handles, Duration bound) {
		long deadline = System.nanoTime() + bound.toNanos();
		long pause = 1;
		while (handles.stream().anyMatch(this::isRunning)) {
			if (System.nanoTime() >= deadline) {
				return;
			}
			try {
				Thread.sleep(pause);
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
				return;
			}
			pause = Math.min(pause * 2, 50);
		}
	}

	/**
	 * Keeps the lines of stderr in the tail, logs them at DEBUG.
	 */
	private final class StderrSink implements StderrLines.Sink {

		@Override
		public void line(String line) {
			StdioServerProcess.this.stderr.add(line);
			if (logger.isDebugEnabled()) {
				logger.debug(StdioServerProcess.this.label + " stderr: "
						+ StdioServerProcess.this.redaction.apply(StderrTail.sanitize(line)));
			}
		}

		@Override
		public void cut(long discardedBytes) {
			long count = ++StdioServerProcess.this.longStderrLines;
			if (RepeatedWarnings.isLogged(count)) {
				logger.warn(StdioServerProcess.this.label + ": cut " + count + " stderr line(s) longer than "
						+ MAX_STDERR_LINE_BYTES + " bytes so far (the last lost " + discardedBytes + " bytes)");
			}
		}

	}

}
