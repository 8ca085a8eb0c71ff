package io.github.mcpsupervisor.supervisor;

import java.time.Clock;
import java.time.Duration;

/**
 * The supervisor's source of time and threads: timers for backoff and stability, and
 * workers for blocking work (spawning, initializing, terminating). Injected so that the
 * state machine runs on virtual time in tests.
 *
 * @since 0.1.0
 */
public interface SupervisorScheduler {

	/**
	 * Runs the task on a worker after the delay.
	 * @param delay the delay
	 * @param task the task
	 * @return a handle that cancels the task if it has not started
	 */
	Cancellable schedule(Duration delay, Runnable task);

	/**
	 * Runs the task on a worker thread, which may block.
	 * @param task the task
	 */
	void execute(Runnable task);

	/**
	 * Returns the clock that timestamps states and outages.
	 * @return the clock
	 */
	Clock clock();

	/**
	 * A scheduled task that can be cancelled.
	 */
	@FunctionalInterface
	interface Cancellable {

		void cancel();

	}

}
