package io.github.mcpsupervisor.benchmark;

import java.time.Duration;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;

import io.github.mcpsupervisor.supervisor.SupervisorListener;

/**
 * The backoff delays a supervisor applied, as it tells them
 * ({@link SupervisorListener#retryScheduled}), and when each was waited: a recovery's
 * time less the delays it waited is what reconnecting cost next to a cold start. A delay
 * is waited from the moment it is told, which follows its scheduling by the release of
 * the supervisor's lock.
 */
final class AppliedDelays implements SupervisorListener {

	private final Queue<long[]> waits = new ConcurrentLinkedQueue<>();

	@Override
	public void retryScheduled(String server, int attempt, Duration delay) {
		long from = System.nanoTime();
		this.waits.add(new long[] { from, from + delay.toNanos() });
	}

	/**
	 * Returns how long the told delays waited between two moments: each delay's part in
	 * that interval, summed over the attempts.
	 * @param fromNanos the interval's start ({@link System#nanoTime()})
	 * @param toNanos its end
	 * @return the delays waited within it, in milliseconds
	 */
	double millisWithin(long fromNanos, long toNanos) {
		long nanos = 0;
		for (long[] wait : this.waits) {
			long start = Math.max(wait[0], fromNanos);
			long end = Math.min(wait[1], toNanos);
			nanos += Math.max(0, end - start);
		}
		return BenchmarkServers.millis(nanos);
	}

}
