package io.github.mcpsupervisor.supervisor;

import java.time.Duration;

/**
 * The liveness probe of a live generation: a ping every {@code interval}, answered within
 * {@code timeout}; {@code failureThreshold} unanswered pings in a row end the generation
 * (its process tree is killed) and the normal reconnect follows.
 *
 * @param interval the time between the end of a probe and the next ({@code 0} disables
 * the probe)
 * @param timeout how long a ping may take; also the probe of a call that timed out
 * @param failureThreshold unanswered pings in a row that end the generation
 * @since 0.1.0
 */
public record HealthCheckPolicy(Duration interval, Duration timeout, int failureThreshold) {

	/**
	 * Returns the defaults: every 30 s, 5 s timeout, 2 failures.
	 * @return the default policy
	 */
	public static HealthCheckPolicy defaults() {
		return new HealthCheckPolicy(Duration.ofSeconds(30), Duration.ofSeconds(5), 2);
	}

	/**
	 * Returns a policy without periodic probe; a call that times out is still probed with
	 * the given timeout.
	 * @param timeout the timeout of that probe
	 * @return the policy
	 */
	public static HealthCheckPolicy disabled(Duration timeout) {
		return new HealthCheckPolicy(Duration.ZERO, timeout, 1);
	}

	public boolean isEnabled() {
		return !this.interval.isZero() && !this.interval.isNegative();
	}

}
