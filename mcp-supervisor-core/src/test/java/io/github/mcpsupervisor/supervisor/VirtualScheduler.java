package io.github.mcpsupervisor.supervisor;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.PriorityQueue;

/**
 * A {@link SupervisorScheduler} on virtual time: tasks run on the test thread, in time
 * order, when the test advances the clock.
 */
public final class VirtualScheduler implements SupervisorScheduler {

	private final PriorityQueue<Task> queue = new PriorityQueue<>();

	private Instant now = Instant.parse("2026-01-01T00:00:00Z");

	private long sequence;

	@Override
	public synchronized Cancellable schedule(Duration delay, Runnable task) {
		Task scheduled = new Task(this.now.plus(delay), this.sequence++, task, true);
		this.queue.add(scheduled);
		return () -> scheduled.cancelled = true;
	}

	@Override
	public synchronized void execute(Runnable task) {
		this.queue.add(new Task(this.now, this.sequence++, task, false));
	}

	@Override
	public Clock clock() {
		return new Clock() {

			@Override
			public ZoneId getZone() {
				return ZoneOffset.UTC;
			}

			@Override
			public Clock withZone(ZoneId zone) {
				return this;
			}

			@Override
			public Instant instant() {
				return VirtualScheduler.this.now();
			}

		};
	}

	synchronized Instant now() {
		return this.now;
	}

	/**
	 * Returns how many tasks wait for their time, cancelled ones left out.
	 * @return the number of tasks
	 */
	public synchronized long scheduledTasks() {
		return this.queue.stream().filter((task) -> !task.cancelled).count();
	}

	/** Runs every task that is due now, including those they add for now. */
	public void runReady() {
		advance(Duration.ZERO);
	}

	/** Moves the clock forward, running due tasks in time order. */
	public void advance(Duration duration) {
		Instant target;
		synchronized (this) {
			target = this.now.plus(duration);
		}
		Task next;
		// Tasks run outside the scheduler's lock: a task may wait for a lock that a
		// caller thread holds while it schedules.
		while ((next = pollDue(target)) != null) {
			if (!next.cancelled) {
				next.task.run();
			}
		}
		synchronized (this) {
			// a task that advanced the clock itself is not taken back in time
			if (target.isAfter(this.now)) {
				this.now = target;
			}
		}
	}

	private synchronized Task pollDue(Instant target) {
		Task next = this.queue.peek();
		if (next == null || next.at.isAfter(target)) {
			return null;
		}
		this.queue.poll();
		this.now = next.at;
		return next;
	}

	/** Runs until no task is left or the horizon is reached. */
	void runFor(Duration horizon) {
		advance(horizon);
	}

	/** Returns the number of timers that are still armed. */
	synchronized long pendingTimers() {
		return this.queue.stream().filter((task) -> task.timer && !task.cancelled).count();
	}

	/** Returns the time of the next armed task, if any. */
	synchronized Duration untilNextTask() {
		return this.queue.stream()
			.filter((task) -> !task.cancelled)
			.map((task) -> Duration.between(this.now, task.at))
			.min(Duration::compareTo)
			.orElseThrow();
	}

	private static final class Task implements Comparable<Task> {

		final Instant at;

		final long sequence;

		final Runnable task;

		final boolean timer;

		volatile boolean cancelled;

		Task(Instant at, long sequence, Runnable task, boolean timer) {
			this.at = at;
			this.sequence = sequence;
			this.task = task;
			this.timer = timer;
		}

		@Override
		public int compareTo(Task other) {
			int byTime = this.at.compareTo(other.at);
			return (byTime != 0) ? byTime : Long.compare(this.sequence, other.sequence);
		}

	}

}
