package io.github.mcpsupervisor.transport;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import io.github.mcpsupervisor.supervisor.ExitStatus;
import io.github.mcpsupervisor.transport.LineReader.LineTooLongException;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

/**
 * A server process owned by its generation: spawned with the configured command,
 * environment and working directory, its stderr always drained into a {@link StderrTail},
 * its exit observed at once through {@link Process#onExit()}, and its whole process tree
 * terminated within a bound.
 */
final class StdioServerProcess {

	/** How long SIGKILLed processes may take to be confirmed gone. */
	static final Duration KILL_CONFIRMATION = Duration.ofSeconds(2);

	/** How long an exited process's last stderr lines may take to be read. */
	static final Duration STDERR_SETTLE_TIME = Duration.ofMillis(100);

	/**
	 * The longest stderr line that is read; the rest of a longer line is discarded.
	 */
	static final int MAX_STDERR_LINE_BYTES = 8192;

	private static final int STDERR_LINES = 20;

	private static final Log logger = LogFactory.getLog(StdioServerProcess.class);

	private final Process process;

	private final String label;

	private final StderrTail stderr = new StderrTail(STDERR_LINES);

	/**
	 * Completes when stderr reached its end: everything the process wrote is in the tail.
	 */
	private final CompletableFuture<Void> stderrDrained = new CompletableFuture<>();

	private final CompletableFuture<ExitStatus> exited;

	/** Every descendant seen while the tree was intact: an orphan is no longer listed. */
	private final Set<ProcessHandle> tree = ConcurrentHashMap.newKeySet();

	private @Nullable Boolean terminated;

	private volatile long longStderrLines;

	private StdioServerProcess(Process process, String label) {
		this.process = process;
		this.label = label;
		// A grandchild may hold stderr open after the exit: its last lines get a bound.
		this.exited = process.onExit()
			.thenCompose((ignored) -> this.stderrDrained.copy()
				.completeOnTimeout(null, STDERR_SETTLE_TIME.toMillis(), TimeUnit.MILLISECONDS))
			.thenApply((ignored) -> new ExitStatus(process.exitValue(), this.stderr.lastLine()));
	}

	/**
	 * Spawns the server and starts draining its stderr.
	 * @param definition the server
	 * @param label names the drain thread
	 * @return the running process
	 * @throws IOException if the process cannot be started
	 */
	static StdioServerProcess start(StdioServerDefinition definition, String label) throws IOException {
		ProcessBuilder builder = new ProcessBuilder(definition.commandLine());
		builder.environment().putAll(definition.env());
		if (definition.workingDirectory() != null) {
			builder.directory(definition.workingDirectory().toFile());
		}
		StdioServerProcess server = new StdioServerProcess(builder.start(), label);
		Thread drain = new Thread(server::drainStderr, label + "-stderr");
		drain.setDaemon(true);
		drain.start();
		return server;
	}

	long pid() {
		return this.process.pid();
	}

	InputStream stdout() {
		return this.process.getInputStream();
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
	 * Terminates the whole process tree: stdin closed and SIGTERM to every process, up to
	 * the grace period to exit, then SIGKILL to the survivors. Idempotent: later calls
	 * return the first result.
	 * @param grace how long the processes may take to exit after SIGTERM
	 * @return whether every process of the tree is confirmed gone
	 */
	synchronized boolean terminate(Duration grace) {
		if (this.terminated == null) {
			this.terminated = terminateTree(grace);
		}
		return this.terminated;
	}

	private boolean terminateTree(Duration grace) {
		if (this.process.isAlive()) {
			rememberDescendants();
		}
		List<ProcessHandle> all = new ArrayList<>();
		all.add(this.process.toHandle());
		all.addAll(this.tree);
		try {
			this.process.getOutputStream().close();
		}
		catch (IOException ex) {
			// already closed by a broken pipe: SIGTERM follows
		}
		all.stream().filter(ProcessHandle::isAlive).forEach(ProcessHandle::destroy);
		awaitExit(all, grace);
		all.stream().filter(ProcessHandle::isAlive).forEach(ProcessHandle::destroyForcibly);
		awaitExit(all, KILL_CONFIRMATION);
		return all.stream().noneMatch(ProcessHandle::isAlive);
	}

	private static void awaitExit(List<ProcessHandle> handles, Duration bound) {
		long deadline = System.nanoTime() + bound.toNanos();
		for (ProcessHandle handle : handles) {
			long remaining = deadline - System.nanoTime();
			if (remaining <= 0) {
				return;
			}
			try {
				handle.onExit().get(remaining, TimeUnit.NANOSECONDS);
			}
			catch (TimeoutException ex) {
				return;
			}
			catch (ExecutionException ex) {
				// cannot be observed: judged by isAlive() afterwards
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
				return;
			}
		}
	}

	private void drainStderr() {
		LineReader reader = new LineReader(this.process.getErrorStream(), MAX_STDERR_LINE_BYTES);
		try {
			while (true) {
				String line;
				try {
					line = reader.readLine();
				}
				catch (LineTooLongException ex) {
					line = reader.startOfLongLine();
					long discarded = reader.skipLine();
					if (this.longStderrLines++ == 0) {
						logger.warn(this.label + ": discarded " + discarded + " bytes of a stderr line longer than "
								+ MAX_STDERR_LINE_BYTES + " bytes (later ones are counted, not logged)");
					}
				}
				if (line == null) {
					break;
				}
				this.stderr.add(line);
				if (logger.isDebugEnabled()) {
					logger.debug(this.label + " stderr: " + StderrTail.sanitize(line));
				}
			}
		}
		catch (IOException ex) {
			// the stream closes with the process
		}
		finally {
			this.stderrDrained.complete(null);
		}
	}

	/**
	 * Returns how many stderr lines were longer than {@link #MAX_STDERR_LINE_BYTES} and
	 * cut.
	 * @return the count
	 */
	long longStderrLines() {
		return this.longStderrLines;
	}

}
