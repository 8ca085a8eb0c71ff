package io.github.mcpsupervisor.supervisor;

import java.time.Duration;

import org.jspecify.annotations.Nullable;

import org.springframework.util.backoff.BackOffExecution;

/**
 * Counts the attempts of one outage and yields the delay before each. Only a reset
 * (sustained uptime or an operator's reset) starts a new count.
 */
final class OutageBudget {

	private final ReconnectPolicy policy;

	private BackOffExecution backOff;

	private int used;

	OutageBudget(ReconnectPolicy policy) {
		this.policy = policy;
		this.backOff = policy.backOff().start();
	}

	void reset() {
		this.backOff = this.policy.backOff().start();
		this.used = 0;
	}

	int used() {
		return this.used;
	}

	int max() {
		return this.policy.maxAttempts();
	}

	/**
	 * Takes an attempt to run at once (the first attempt at start, or after a reset). Its
	 * backoff slot is skipped so that the delay before attempt n stays
	 * {@code initialDelay * 2^(n-1)} whatever started the outage.
	 * @return whether an attempt was left
	 */
	boolean takeImmediate() {
		if (this.used >= max()) {
			return false;
		}
		this.backOff.nextBackOff();
		this.used++;
		return true;
	}

	/**
	 * Takes the next attempt of this outage.
	 * @return the delay before it, or {@code null} when the budget is exhausted
	 */
	@Nullable Duration takeNext() {
		if (this.used >= max()) {
			return null;
		}
		long delay = this.backOff.nextBackOff();
		if (delay == BackOffExecution.STOP) {
			return null;
		}
		this.used++;
		return Duration.ofMillis(delay);
	}

}
