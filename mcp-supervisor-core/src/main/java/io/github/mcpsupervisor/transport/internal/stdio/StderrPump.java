package io.github.mcpsupervisor.transport.internal.stdio;

import java.io.IOException;
import java.io.InputStream;
import java.time.Duration;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

import org.jspecify.annotations.Nullable;

/**
 * Drains the stderr of every stdio server of the JVM on one shared daemon thread, without
 * ever blocking on a stream: each is read as far as it has bytes, every few milliseconds,
 * and once more at once when its process has exited. A server holds no thread of its own
 * for its stderr. Every round also looks for {@link #watchExit exits}: the JDK tells of a
 * child's exit only on a pool the application shares, so a process whose stdout does not
 * end with it (a descendant holds it) is found gone here, within a round. A stream that
 * still has bytes after a round is read again right away, after the others and after
 * whatever else waits for the thread (a server started meanwhile): a flood is read at the
 * speed it comes, and cannot starve the other servers.
 */
final class StderrPump {

	/** The pause between two rounds when no stream had more bytes. */
	static final Duration INTERVAL = Duration.ofMillis(20);

	/** The most bytes read from one stream in one round. */
	private static final int BYTES_PER_ROUND = 1024 * 1024;

	private static final StderrPump SHARED = new StderrPump();

	private final ScheduledThreadPoolExecutor thread;

	// Touched on the pump's thread only.
	private final Set<Drain> drains = new LinkedHashSet<>();

	// Touched on the pump's thread only: the processes whose exit is looked for.
	private final Map<Process, CompletableFuture<Void>> exits = new LinkedHashMap<>();

	private final byte[] chunk = new byte[8192];

	private @Nullable ScheduledFuture<?> rounds;

	// Whether a round is queued behind what waits for the thread: there is never more
	// than one, whatever the number of streams and ticks during a flood.
	private boolean followUpQueued;

	private final Duration interval;

	private StderrPump() {
		this(INTERVAL);
	}

	StderrPump(Duration interval) {
		this.interval = interval;
		this.thread = new ScheduledThreadPoolExecutor(1, (task) -> {
			Thread pump = new Thread(task, "mcp-stderr-pump");
			pump.setDaemon(true);
			return pump;
		});
		// the thread ends while no server runs
		this.thread.setKeepAliveTime(1, TimeUnit.SECONDS);
		this.thread.allowCoreThreadTimeOut(true);
		this.thread.setRemoveOnCancelPolicy(true);
	}

	static StderrPump shared() {
		return SHARED;
	}

	/**
	 * Starts draining a stream.
	 * @param in the stream, read by the pump only from now on
	 * @param lines takes its bytes
	 * @return the drain, to finish once its process has exited
	 */
	Drain drain(InputStream in, StderrLines lines) {
		Drain drain = new Drain(in, lines);
		this.thread.execute(() -> {
			this.drains.add(drain);
			startRounds();
		});
		return drain;
	}

	/**
	 * Looks for a process's exit at every round until it has exited.
	 * @param process the process
	 * @param exited completed on the pump's thread once the process has exited
	 */
	void watchExit(Process process, CompletableFuture<Void> exited) {
		this.thread.execute(() -> {
			this.exits.put(process, exited);
			startRounds();
		});
	}

	private void startRounds() {
		if (this.rounds == null) {
			this.rounds = this.thread.scheduleWithFixedDelay(this::tick, this.interval.toNanos(),
					this.interval.toNanos(), TimeUnit.NANOSECONDS);
		}
	}

	// The periodic pass; while a follow-up is queued the streams are read by it, soon.
	private void tick() {
		if (!this.followUpQueued) {
			try {
				round();
			}
			catch (RuntimeException ex) {
				// a sink that failed on a line: the rounds, and the exits they look for,
				// go
				// on (an exception would end the periodic task for every server)
			}
		}
	}

	private void followUp() {
		this.followUpQueued = false;
		round();
	}

	// One pass over every stream. A stream with more bytes gets the next pass queued
	// behind what waits for the thread (a new server's drain, an exited one's finish):
	// a flood is read at the speed it comes and never holds the thread from them. Only
	// one pass is ever queued, so what waits for the thread waits for one pass at most.
	private void round() {
		for (Iterator<Map.Entry<Process, CompletableFuture<Void>>> iterator = this.exits.entrySet().iterator(); iterator
			.hasNext();) {
			Map.Entry<Process, CompletableFuture<Void>> exit = iterator.next();
			if (!exit.getKey().isAlive() || exit.getValue().isDone()) {
				iterator.remove();
				exit.getValue().complete(null);
			}
		}
		boolean more = false;
		for (Iterator<Drain> iterator = this.drains.iterator(); iterator.hasNext();) {
			Drain drain = iterator.next();
			int read = drain.read(BYTES_PER_ROUND);
			if (read < 0) {
				iterator.remove();
			}
			more |= read >= BYTES_PER_ROUND;
		}
		if (more) {
			// no pass is queued here: a tick runs none then, and a follow-up cleared it
			this.followUpQueued = true;
			this.thread.execute(this::followUp);
		}
		else {
			stopWhenIdle();
		}
	}

	// The tasks that wait for the pump's thread, periodic pass included.
	int queuedTasks() {
		return this.thread.getQueue().size();
	}

	private void finish(Drain drain) {
		drain.read(Integer.MAX_VALUE);
		drain.end();
		this.drains.remove(drain);
		stopWhenIdle();
	}

	private void stopWhenIdle() {
		ScheduledFuture<?> current = this.rounds;
		if (this.drains.isEmpty() && this.exits.isEmpty() && current != null) {
			current.cancel(false);
			this.rounds = null;
		}
	}

	/**
	 * The stderr of one process.
	 */
	final class Drain {

		private final InputStream in;

		private final StderrLines lines;

		private final CompletableFuture<Void> finished = new CompletableFuture<>();

		private boolean ended;

		private Drain(InputStream in, StderrLines lines) {
			this.in = in;
			this.lines = lines;
		}

		/**
		 * Reads what the process wrote before it exited, then stops.
		 * @return completes when every byte written before the exit was read
		 */
		CompletableFuture<Void> finish() {
			StderrPump.this.thread.execute(() -> StderrPump.this.finish(this));
			return this.finished.copy();
		}

		// The bytes read, or -1 once the stream has ended.
		private int read(int budget) {
			if (this.ended) {
				return -1;
			}
			int total = 0;
			try {
				while (total < budget) {
					int available = this.in.available();
					if (available <= 0) {
						return total;
					}
					byte[] chunk = StderrPump.this.chunk;
					int read = this.in.read(chunk, 0, Math.min(available, chunk.length));
					if (read < 0) {
						end();
						return -1;
					}
					this.lines.accept(chunk, read);
					total += read;
				}
				return total;
			}
			catch (IOException ex) {
				// the stream closes with the process
				end();
				return -1;
			}
		}

		private void end() {
			if (!this.ended) {
				this.ended = true;
				this.lines.end();
			}
			this.finished.complete(null);
		}

	}

}
