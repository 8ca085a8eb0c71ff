package io.github.mcpsupervisor.transport.internal.stdio;

import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import reactor.core.scheduler.Scheduler;
import reactor.core.scheduler.Schedulers;

/**
 * The threads that write to the stdin of the JVM's stdio servers: one elastic pool of
 * daemon threads shared by every server, each server's messages written in order by a
 * worker of its own. A thread exists only while a write runs (and a few seconds after),
 * so an idle server holds no writer thread, and a server that stops reading its stdin
 * blocks its own writes only.
 */
final class StdinWriters {

	/** How long an idle writer thread is kept for the next write. */
	static final long KEEP_ALIVE_SECONDS = 5;

	private static final Scheduler SCHEDULER = Schedulers.fromExecutor(pool(), true);

	private StdinWriters() {
	}

	/**
	 * Returns a new worker that runs the tasks given to it one at a time, in order, on
	 * the shared threads. Disposing it drops the tasks not yet started.
	 * @return the worker of one transport
	 */
	static Scheduler.Worker newWriter() {
		return SCHEDULER.createWorker();
	}

	private static ThreadPoolExecutor pool() {
		AtomicInteger count = new AtomicInteger();
		return new ThreadPoolExecutor(0, Integer.MAX_VALUE, KEEP_ALIVE_SECONDS, TimeUnit.SECONDS,
				new SynchronousQueue<>(), (task) -> {
					Thread thread = new Thread(task, "mcp-stdin-writer-" + count.incrementAndGet());
					thread.setDaemon(true);
					return thread;
				});
	}

}
