package io.github.mcpsupervisor.supervisor;

import java.time.Clock;
import java.time.Duration;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

/**
 * The production {@link SupervisorScheduler}: one daemon timer thread that only hands
 * tasks over, and an elastic pool of daemon workers for blocking work, each ending after
 * a few idle seconds (many servers connecting at once need as many workers, but only
 * while they connect). Daemon threads never keep the JVM alive.
 *
 * @since 0.1.0
 */
public final class ThreadPoolSupervisorScheduler implements SupervisorScheduler, AutoCloseable {

	/** How long an idle worker is kept for the next task. */
	static final Duration WORKER_KEEP_ALIVE = Duration.ofSeconds(5);

	private static final Log logger = LogFactory.getLog(ThreadPoolSupervisorScheduler.class);

	private final ScheduledThreadPoolExecutor timer;

	private final ExecutorService workers;

	private final Clock clock;

	public ThreadPoolSupervisorScheduler() {
		this(Clock.systemUTC());
	}

	public ThreadPoolSupervisorScheduler(Clock clock) {
		this.clock = clock;
		this.timer = new ScheduledThreadPoolExecutor(1, daemonThreads("mcp-supervisor-timer"));
		this.timer.setRemoveOnCancelPolicy(true);
		this.workers = new ThreadPoolExecutor(0, Integer.MAX_VALUE, WORKER_KEEP_ALIVE.toNanos(), TimeUnit.NANOSECONDS,
				new SynchronousQueue<>(), daemonThreads("mcp-supervisor-worker"));
	}

	@Override
	public Cancellable schedule(Duration delay, Runnable task) {
		ScheduledFuture<?> future = this.timer.schedule(() -> this.workers.execute(logged(task)), delay.toNanos(),
				TimeUnit.NANOSECONDS);
		return () -> future.cancel(false);
	}

	@Override
	public void execute(Runnable task) {
		this.workers.execute(logged(task));
	}

	// A task that fails is logged where operators look, not printed to stderr by the
	// thread's default handler.
	private static Runnable logged(Runnable task) {
		return () -> {
			try {
				task.run();
			}
			catch (RuntimeException ex) {
				logger.error("An MCP supervisor task failed", ex);
			}
		};
	}

	@Override
	public Clock clock() {
		return this.clock;
	}

	@Override
	public void close() {
		this.timer.shutdownNow();
		this.workers.shutdown();
	}

	private static ThreadFactory daemonThreads(String prefix) {
		AtomicInteger counter = new AtomicInteger();
		return (runnable) -> {
			Thread thread = new Thread(runnable, prefix + "-" + counter.incrementAndGet());
			thread.setDaemon(true);
			return thread;
		};
	}

}
