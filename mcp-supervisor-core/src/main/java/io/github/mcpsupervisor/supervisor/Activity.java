package io.github.mcpsupervisor.supervisor;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.concurrent.atomic.AtomicInteger;

import org.jspecify.annotations.Nullable;

/**
 * The calls of a server that stops while unused: how many are in flight, and when the
 * last one ended. A call counts from before it asks for a generation until it returns, so
 * that the step that stops an idle server (under the supervisor's lock) and the step in
 * which a call takes the live generation (under the lock too) see each other: either the
 * stop sees the call in flight, or the call sees the server stopping and wakes it.
 */
final class Activity {

	/** The activity of a server that never stops while unused: nothing is counted. */
	static final Activity NONE = new Activity(null, Clock.fixed(Instant.EPOCH, ZoneOffset.UTC));

	private final @Nullable Duration idleTimeout;

	private final Clock clock;

	private final AtomicInteger inFlight = new AtomicInteger();

	// when the last call ended, or the live generation came up, in the clock's millis
	private volatile long lastActive;

	Activity(@Nullable Duration idleTimeout, Clock clock) {
		this.idleTimeout = idleTimeout;
		this.clock = clock;
	}

	/**
	 * Returns whether calls are counted: the server stops while unused.
	 * @return whether it counts
	 */
	boolean counts() {
		return this != NONE;
	}

	/**
	 * Returns how long the server may stay unused before it is stopped.
	 * @return the idle time, or {@code null} when it is only stopped after a start that
	 * listed its tools
	 */
	@Nullable Duration idleTimeout() {
		return this.idleTimeout;
	}

	void started() {
		if (this != NONE) {
			this.inFlight.incrementAndGet();
		}
	}

	// the time is written before the count falls, so that a stop that sees no call in
	// flight sees when the last one ended
	void ended() {
		if (this != NONE) {
			this.lastActive = this.clock.millis();
			this.inFlight.decrementAndGet();
		}
	}

	/**
	 * Counts the server as used now: its generation just came up.
	 */
	void awake() {
		this.lastActive = this.clock.millis();
	}

	boolean inFlight() {
		return this.inFlight.get() > 0;
	}

	/**
	 * Returns how long until the server has been unused for its idle time.
	 * @param idleTime the idle time
	 * @return the time left, zero when it is idle now
	 */
	Duration idleIn(Duration idleTime) {
		if (inFlight()) {
			return idleTime;
		}
		long left = this.lastActive + idleTime.toMillis() - this.clock.millis();
		return (left > 0) ? Duration.ofMillis(left) : Duration.ZERO;
	}

}
