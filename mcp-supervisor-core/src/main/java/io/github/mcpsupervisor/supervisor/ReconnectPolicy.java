package io.github.mcpsupervisor.supervisor;

import java.time.Duration;

import org.springframework.util.Assert;
import org.springframework.util.backoff.BackOff;
import org.springframework.util.backoff.ExponentialBackOff;

/**
 * How a supervisor reconnects: exponential backoff between attempts (doubling from
 * {@code initialDelay} up to {@code maxDelay}, jittered by a fraction), at most
 * {@code maxAttempts} attempts per outage, and a stability window of {@code maxDelay}
 * after which a connected generation resets the budget. A server that spends its budget
 * is given up (FAILED); with a {@link Cooldown cooldown} it tries again with a fresh
 * budget once the cooldown is over.
 *
 * @param enabled whether a lost server is reconnected automatically
 * @param initialDelay delay before the first reconnect attempt
 * @param maxDelay upper bound of the delay, and the stability window
 * @param maxAttempts attempts per outage before giving up
 * @param jitter fraction (0 to 1) of each delay by which it is randomly shifted
 * @param cooldown how long a server given up after a spent budget waits before it tries
 * again
 * @since 0.1.0
 */
public record ReconnectPolicy(boolean enabled, Duration initialDelay, Duration maxDelay, int maxAttempts, double jitter,
		Cooldown cooldown) {

	/** The multiplier of the exponential backoff: each delay doubles the previous one. */
	public static final double MULTIPLIER = 2.0;

	public ReconnectPolicy {
		Assert.isTrue(!initialDelay.isNegative() && !initialDelay.isZero(), "initialDelay must be positive");
		Assert.isTrue(initialDelay.compareTo(maxDelay) <= 0, "initialDelay must not exceed maxDelay");
		Assert.isTrue(maxAttempts >= 1, "maxAttempts must be at least 1");
		Assert.isTrue(jitter >= 0 && jitter <= 1, "jitter must be between 0 and 1");
		Assert.notNull(cooldown, "cooldown must not be null");
		Assert.isTrue(!cooldown.initial().isNegative() && !cooldown.initial().isZero(),
				"cooldown initial must be positive");
		Assert.isTrue(cooldown.initial().compareTo(cooldown.max()) <= 0,
				"cooldown initial must not exceed cooldown max");
	}

	/**
	 * Returns the reconnect defaults: enabled, 500 ms doubling to 30 s, 10 attempts, 50%
	 * jitter (the least bunching of a fleet that lost one shared server, see the
	 * benchmark's fleet herd), no cooldown.
	 * @return the default policy
	 */
	public static ReconnectPolicy defaults() {
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
	 * Returns how long a generation must stay up before its outage budget is reset.
	 * @return the stability window, equal to {@link #maxDelay()}
	 */
	public Duration stabilityWindow() {
		return this.maxDelay;
	}

	/**
	 * Creates the backoff that spaces the attempts of one outage. Spring's jitter is
	 * given in milliseconds of the initial delay and scales with each interval, so the
	 * fraction applies to every delay.
	 * @return a new backoff
	 */
	BackOff backOff() {
		ExponentialBackOff backOff = new ExponentialBackOff(this.initialDelay.toMillis(), MULTIPLIER);
		backOff.setMaxInterval(this.maxDelay.toMillis());
		backOff.setJitter(Math.round(this.jitter * this.initialDelay.toMillis()));
		return backOff;
	}

	/**
	 * Builds a {@link ReconnectPolicy}, each value not given being the default.
	 */
	public static final class Builder {

		private boolean enabled = true;

		private Duration initialDelay = Duration.ofMillis(500);

		private Duration maxDelay = Duration.ofSeconds(30);

		private int maxAttempts = 10;

		private double jitter = 0.5;

		private Cooldown cooldown = Cooldown.disabled();

		private Builder() {
		}

		/**
		 * Sets whether a lost server is reconnected automatically.
		 * @param enabled whether to reconnect
		 * @return this builder
		 */
		public Builder enabled(boolean enabled) {
			this.enabled = enabled;
			return this;
		}

		/**
		 * Sets the delay before the first reconnect attempt of an outage.
		 * @param initialDelay the delay
		 * @return this builder
		 */
		public Builder initialDelay(Duration initialDelay) {
			this.initialDelay = initialDelay;
			return this;
		}

		/**
		 * Sets the upper bound of the delay, which is also the stability window.
		 * @param maxDelay the bound
		 * @return this builder
		 */
		public Builder maxDelay(Duration maxDelay) {
			this.maxDelay = maxDelay;
			return this;
		}

		/**
		 * Sets the attempts per outage before the server is given up.
		 * @param maxAttempts the attempts
		 * @return this builder
		 */
		public Builder maxAttempts(int maxAttempts) {
			this.maxAttempts = maxAttempts;
			return this;
		}

		/**
		 * Sets the fraction (0 to 1) of each delay by which it is randomly shifted.
		 * @param jitter the fraction
		 * @return this builder
		 */
		public Builder jitter(double jitter) {
			this.jitter = jitter;
			return this;
		}

		/**
		 * Sets how long a server given up after a spent budget waits before it tries
		 * again.
		 * @param cooldown the cooldown
		 * @return this builder
		 */
		public Builder cooldown(Cooldown cooldown) {
			this.cooldown = cooldown;
			return this;
		}

		/**
		 * Builds the policy.
		 * @return the policy
		 * @throws IllegalArgumentException if a value is out of its range
		 */
		public ReconnectPolicy build() {
			return new ReconnectPolicy(this.enabled, this.initialDelay, this.maxDelay, this.maxAttempts, this.jitter,
					this.cooldown);
		}

	}

	/**
	 * How long a server that spent its outage budget stays FAILED before it tries again
	 * on its own with a fresh budget: {@code initial} after the first give-up, doubling
	 * with each give-up in a row up to {@code max}. The sequence starts over only as the
	 * budget does (the stability window of a connected generation, or a reset). A server
	 * given up for any other reason (a configuration error, a tree not confirmed gone)
	 * stays FAILED until it is reset.
	 *
	 * @param enabled whether a server given up after a spent budget tries again after the
	 * cooldown
	 * @param initial the cooldown after the first give-up in a row
	 * @param max the upper bound of the cooldown
	 * @since 0.1.0
	 */
	public record Cooldown(boolean enabled, Duration initial, Duration max) {

		/**
		 * Returns the cooldown a server has unless it enables one: none, with the
		 * defaults (5 minutes doubling to 30) that enabling it gives.
		 * @return the disabled cooldown
		 */
		public static Cooldown disabled() {
			return new Cooldown(false, Duration.ofMinutes(5), Duration.ofMinutes(30));
		}

		/**
		 * Returns an enabled cooldown.
		 * @param initial the cooldown after the first give-up in a row
		 * @param max the upper bound of the cooldown
		 * @return the cooldown
		 */
		public static Cooldown of(Duration initial, Duration max) {
			return new Cooldown(true, initial, max);
		}

		/**
		 * Returns the cooldown after a number of give-ups in a row.
		 * @param giveUps the give-ups in a row, this one included (at least 1)
		 * @return {@code initial * 2^(giveUps - 1)}, at most {@code max}
		 */
		Duration after(int giveUps) {
			Duration next = this.initial;
			for (int i = 1; i < giveUps && next.compareTo(this.max) < 0; i++) {
				next = next.multipliedBy(2);
			}
			return (next.compareTo(this.max) < 0) ? next : this.max;
		}

	}

}
