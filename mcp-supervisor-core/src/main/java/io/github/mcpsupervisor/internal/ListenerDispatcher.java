package io.github.mcpsupervisor.internal;

import java.time.Duration;
import java.util.concurrent.Executor;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import reactor.core.scheduler.Scheduler;
import reactor.core.scheduler.Schedulers;

/**
 * Runs the application's callbacks (listeners, events, handlers of server notifications)
 * off the threads that read the servers and outside the supervisors' steps, so that a
 * callback that calls its own server can neither block the reading of the answer nor
 * deadlock the supervisor. Each lane runs its callbacks one at a time, in order, on a
 * small pool of daemon threads shared by every server ({@link #THREADS}, none while
 * idle); a lane holds at most {@link #MAX_WAITING} callbacks and
 * {@link #MAX_WAITING_BYTES} bytes of notifications waiting, and drops the ones given to
 * it beyond either with a warning (at the 1st, 10th, 100th… drop), so that a server that
 * floods notifications while a callback of its own is stuck costs bounded memory. The
 * last callback of a lane, its server's removal, is never dropped.
 *
 * @since 0.1.0
 */
public final class ListenerDispatcher implements AutoCloseable {

	/** The threads shared by every lane. */
	public static final int THREADS = 4;

	/** The callbacks of one lane that may wait while one runs. */
	public static final int MAX_WAITING = 1024;

	/**
	 * The bytes of notifications (estimated by the characters a server sent in them) one
	 * lane may hold waiting while a callback runs: two of the longest messages a server
	 * may send. One notification alone always waits, whatever its size.
	 */
	public static final long MAX_WAITING_BYTES = 32L * 1024 * 1024;

	/** How long an idle thread is kept for the next callback. */
	static final Duration KEEP_ALIVE = Duration.ofSeconds(5);

	/** How long a close waits for the callbacks already given to run. */
	static final Duration CLOSE_TIMEOUT = Duration.ofSeconds(2);

	private static final Log logger = LogFactory.getLog(ListenerDispatcher.class);

	private final ThreadPoolExecutor pool;

	private final Scheduler scheduler;

	/**
	 * Creates a dispatcher with {@link #THREADS} threads.
	 */
	public ListenerDispatcher() {
		this(THREADS);
	}

	/**
	 * Creates a dispatcher with the given number of threads.
	 * @param threads how many callbacks run at once, of as many lanes
	 */
	public ListenerDispatcher(int threads) {
		AtomicInteger count = new AtomicInteger();
		// each lane queues at most one task here at a time: the queue is bounded by the
		// lanes
		this.pool = new ThreadPoolExecutor(threads, threads, KEEP_ALIVE.toNanos(), TimeUnit.NANOSECONDS,
				new LinkedBlockingQueue<>(), (task) -> {
					Thread thread = new Thread(task, "mcp-listener-" + count.incrementAndGet());
					thread.setDaemon(true);
					return thread;
				});
		this.pool.allowCoreThreadTimeOut(true);
		this.scheduler = Schedulers.fromExecutor(this.pool, true);
	}

	/**
	 * Returns a new lane: its callbacks run one at a time, in the order given.
	 * @param name what the lane serves, for its warnings (a server's name)
	 * @return the lane
	 */
	public Executor lane(String name) {
		return newLane(name);
	}

	/**
	 * Returns a new lane, with the operations of a server's lane.
	 * @param name what the lane serves, for its warnings (a server's name)
	 * @return the lane
	 */
	public Lane newLane(String name) {
		return new Lane(name, this.scheduler.createWorker());
	}

	/**
	 * Lets the callbacks already given run for a moment, then stops the threads.
	 */
	@Override
	public void close() {
		this.pool.shutdown();
		try {
			this.pool.awaitTermination(CLOSE_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
		this.pool.shutdownNow();
	}

	// Whether a count is 1, 10, 100…: when a repeated warning is logged again.
	private static boolean isPowerOfTen(long n) {
		long power = 1;
		while (power < n) {
			power *= 10;
		}
		return power == n;
	}

	/**
	 * A lane: its callbacks run one at a time, in the order given, and at most a bounded
	 * number and size of them wait.
	 */
	public static final class Lane implements Executor {

		private final String name;

		private final Scheduler.Worker worker;

		private final AtomicInteger waiting = new AtomicInteger();

		private final AtomicLong waitingBytes = new AtomicLong();

		private final AtomicLong dropped = new AtomicLong();

		Lane(String name, Scheduler.Worker worker) {
			this.name = name;
			this.worker = worker;
		}

		@Override
		public void execute(Runnable callback) {
			execute(callback, 0);
		}

		/**
		 * Gives the lane a callback that holds a notification of the given size.
		 * @param callback the callback
		 * @param bytes the estimated bytes of what it holds
		 */
		public void execute(Runnable callback, long bytes) {
			execute(callback, bytes, true);
		}

		/**
		 * Gives the lane a callback that no bound drops: the last one of a lane, which
		 * releases it, whatever waits before it.
		 * @param callback the callback
		 */
		public void executeLast(Runnable callback) {
			execute(callback, 0, false);
		}

		private void execute(Runnable callback, long bytes, boolean bounded) {
			if (this.waiting.incrementAndGet() > MAX_WAITING && bounded) {
				this.waiting.decrementAndGet();
				drop("more than " + MAX_WAITING + " wait for a callback that is still running");
				return;
			}
			long held = this.waitingBytes.addAndGet(bytes);
			if (held > MAX_WAITING_BYTES && held != bytes && bounded) {
				this.waitingBytes.addAndGet(-bytes);
				this.waiting.decrementAndGet();
				drop("more than " + MAX_WAITING_BYTES + " bytes of notifications wait for a callback that is still"
						+ " running");
				return;
			}
			try {
				this.worker.schedule(() -> {
					this.waiting.decrementAndGet();
					this.waitingBytes.addAndGet(-bytes);
					try {
						callback.run();
					}
					catch (RuntimeException ex) {
						logger.warn("MCP server '" + this.name + "': a listener failed", ex);
					}
				});
			}
			catch (RuntimeException ex) {
				this.waiting.decrementAndGet();
				this.waitingBytes.addAndGet(-bytes);
				drop("the application is shutting down");
			}
		}

		/**
		 * Returns whether no callback waits: a callback that asks this from the lane
		 * itself is the last one given.
		 * @return whether the lane is idle
		 */
		public boolean idle() {
			return this.waiting.get() == 0;
		}

		/**
		 * Releases the lane's worker.
		 */
		public void dispose() {
			this.worker.dispose();
		}

		private void drop(String why) {
			long count = this.dropped.incrementAndGet();
			if (isPowerOfTen(count)) {
				logger.warn("MCP server '" + this.name + "': dropped " + count + " listener notification(s) so far: "
						+ why);
			}
		}

	}

}
