package io.github.mcpsupervisor.supervisor;

import java.time.Duration;
import java.util.Objects;

import io.github.mcpsupervisor.supervisor.SupervisorScheduler.Cancellable;
import org.jspecify.annotations.Nullable;

/**
 * Watches the live generation of a server that runs only while it is used, and tells its
 * state machine when to stop it: once it has had no call in flight for its idle time, or,
 * for a generation started only to list the tools of a server that starts on first use,
 * at once if no call came meanwhile. A server on which the application holds a
 * subscription is not stopped. One check is scheduled at a time, and none is left once
 * the generation is no longer up. Every method runs under the supervisor's lock.
 */
final class IdleWatch {

	private final SupervisorScheduler scheduler;

	private final SupervisorLock lock;

	private final Activity activity;

	private final McpConnector connector;

	private @Nullable Owner owner;

	private @Nullable Cancellable check;

	IdleWatch(SupervisorScheduler scheduler, SupervisorLock lock, Activity activity, McpConnector connector) {
		this.scheduler = scheduler;
		this.lock = lock;
		this.activity = activity;
		this.connector = connector;
	}

	/**
	 * Binds the state machine the watch reports to, once it is built.
	 * @param owner the state machine
	 */
	void reportTo(Owner owner) {
		this.owner = owner;
	}

	/**
	 * Starts watching a generation that came up.
	 * @param listingOnly whether it was started only to list the server's tools
	 */
	void watch(boolean listingOnly) {
		if (!this.activity.counts()) {
			return;
		}
		this.activity.awake();
		Duration idleTimeout = this.activity.idleTimeout();
		if (listingOnly) {
			schedule(Duration.ZERO, true);
		}
		else if (idleTimeout != null) {
			schedule(idleTimeout, false);
		}
	}

	/** Stops watching: the generation is no longer up. */
	void cancel() {
		Cancellable pending = this.check;
		this.check = null;
		if (pending != null) {
			pending.cancel();
		}
	}

	private void schedule(Duration delay, boolean listingOnly) {
		cancel();
		this.check = this.scheduler.schedule(delay, () -> this.lock.step(() -> due(listingOnly)));
	}

	private void due(boolean listingOnly) {
		this.check = null;
		Owner state = this.owner;
		if (state == null || !state.isUp()) {
			return; // the next generation that comes up is watched again
		}
		Duration idleTimeout = this.activity.idleTimeout();
		Duration left;
		if (listingOnly) {
			if (this.activity.inFlight()) {
				// in use as soon as it came up: it serves, and stops only when idle
				state.inUse();
				if (idleTimeout != null) {
					schedule(idleTimeout, false);
				}
				return;
			}
			left = Duration.ZERO;
		}
		else {
			left = this.activity.idleIn(Objects.requireNonNull(idleTimeout));
		}
		if (!left.isZero() || this.connector.keepsAwake()) {
			if (idleTimeout != null) {
				schedule(left.isZero() ? idleTimeout : left, false);
			}
			return;
		}
		state.idle(listingOnly ? "its tools listed"
				: "no call for " + Objects.requireNonNull(idleTimeout).toMillis() + " ms");
	}

	/**
	 * What the watch tells the state machine.
	 */
	interface Owner {

		/**
		 * Returns whether a generation is up: the only phase a check acts in.
		 * @return whether the server is up
		 */
		boolean isUp();

		/**
		 * Stops the live generation: it is unused.
		 * @param cause why, for the log
		 */
		void idle(String cause);

		/**
		 * A generation started only to list the tools is in use: it serves as any other.
		 */
		void inUse();

	}

}
