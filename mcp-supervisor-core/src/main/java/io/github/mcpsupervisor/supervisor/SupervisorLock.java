package io.github.mcpsupervisor.supervisor;

import java.util.function.Supplier;

/**
 * The lock of one supervisor's state and its outbox: a step runs under the lock, and the
 * side effects it queued (notifications, log lines, woken callers) run right after it,
 * outside the lock and in the order they were queued. Steps never nest, so nothing a
 * listener does can deadlock the state machine.
 */
final class SupervisorLock {

	private final Object monitor = new Object();

	private final Outbox outbox;

	SupervisorLock(String server) {
		this.outbox = new Outbox(server);
	}

	/**
	 * Runs a step under the lock, then delivers the side effects it queued.
	 * @param <T> the step's result type
	 * @param step the step
	 * @return the step's result
	 */
	<T> T step(Supplier<T> step) {
		T result = underLock(step);
		this.outbox.flush();
		return result;
	}

	/**
	 * Runs a step under the lock, then delivers the side effects it queued.
	 * @param step the step
	 */
	void step(Runnable step) {
		step(() -> {
			step.run();
			return null;
		});
	}

	/**
	 * Reads under the lock without delivering anything: for snapshots that listeners may
	 * take while they are being notified. A read changes nothing; what changes state is a
	 * {@link #step(Supplier) step}.
	 * @param <T> the result type
	 * @param read what to read
	 * @return what was read
	 */
	<T> T read(Supplier<T> read) {
		return underLock(read);
	}

	private <T> T underLock(Supplier<T> read) {
		if (Thread.holdsLock(this.monitor)) {
			throw new IllegalStateException("supervisor steps never nest");
		}
		synchronized (this.monitor) {
			return read.get();
		}
	}

	/**
	 * Queues a side effect of the running step, to run after it outside the lock.
	 * @param effect the side effect
	 */
	void later(Runnable effect) {
		this.outbox.add(effect);
	}

}
