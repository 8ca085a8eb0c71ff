package io.github.mcpsupervisor.supervisor;

import java.time.Duration;

import io.github.mcpsupervisor.supervisor.SupervisorScheduler.Cancellable;
import org.jspecify.annotations.Nullable;

/**
 * The timer of a server's next attempt after its backoff delay: at most one is pending, a
 * cancelled or superseded one is inert, and the record shows when it is due. Scheduled
 * and cancelled under the supervisor's lock; it fires in a step of its own.
 */
final class RetryTimer {

	private final SupervisorScheduler scheduler;

	private final SupervisorLock lock;

	private final ServerRecord record;

	/** Identifies the pending timer: a cancelled or superseded one is inert. */
	private int token;

	private @Nullable Cancellable pending;

	RetryTimer(SupervisorScheduler scheduler, SupervisorLock lock, ServerRecord record) {
		this.scheduler = scheduler;
		this.lock = lock;
		this.record = record;
	}

	/**
	 * Schedules the next attempt, replacing none: the caller cancels first.
	 * @param delay the backoff delay
	 * @param due what runs when it is due, under the lock
	 */
	void schedule(Duration delay, Runnable due) {
		int scheduled = ++this.token;
		this.record.attemptDue(this.record.now().plus(delay));
		this.pending = this.scheduler.schedule(delay, () -> this.lock.step(() -> {
			if (scheduled == this.token && this.pending != null) {
				this.pending = null;
				due.run();
			}
		}));
	}

	/**
	 * Cancels the pending timer, if any: no attempt is due.
	 */
	void cancel() {
		this.token++;
		if (this.pending != null) {
			this.pending.cancel();
			this.pending = null;
		}
		this.record.noAttemptDue();
	}

}
