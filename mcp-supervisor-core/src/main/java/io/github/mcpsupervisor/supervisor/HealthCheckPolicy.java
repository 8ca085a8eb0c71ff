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
		return builder().build();
	}

	/**
	 * Returns a builder that starts from the {@link #defaults() defaults}.
	 * @return a new builder
	 */
	public static Builder builder() {
		return new Builder();
	}

	/**
	 * Returns a policy without periodic probe; a call that times out is still probed with
	 * the given timeout.
	 * @param timeout the timeout of that probe
	 * @return the policy
	 */
	public static HealthCheckPolicy disabled(Duration timeout) {
		return builder().interval(Duration.ZERO).timeout(timeout).failureThreshold(1).build();
	}

	/**
	 * Returns whether the periodic probe runs.
	 * @return whether the interval is positive
	 */
	public boolean isEnabled() {
		return !this.interval.isZero() && !this.interval.isNegative();
	}

	/**
	 * Builds a {@link HealthCheckPolicy}, each value not given being the default.
	 */
	public static final class Builder {

		private Duration interval = Duration.ofSeconds(30);

		private Duration timeout = Duration.ofSeconds(5);

		private int failureThreshold = 2;

		private Builder() {
		}

		/**
		 * Sets the time between the end of a probe and the next.
		 * @param interval the interval ({@code 0} disables the probe)
		 * @return this builder
		 */
		public Builder interval(Duration interval) {
			this.interval = interval;
			return this;
		}

		/**
		 * Sets how long a ping may take.
		 * @param timeout the timeout
		 * @return this builder
		 */
		public Builder timeout(Duration timeout) {
			this.timeout = timeout;
			return this;
		}

		/**
		 * Sets the unanswered pings in a row that end the generation.
		 * @param failureThreshold the pings
		 * @return this builder
		 */
		public Builder failureThreshold(int failureThreshold) {
			this.failureThreshold = failureThreshold;
			return this;
		}

		/**
		 * Builds the policy.
		 * @return the policy
		 */
		public HealthCheckPolicy build() {
			return new HealthCheckPolicy(this.interval, this.timeout, this.failureThreshold);
		}

	}

}
