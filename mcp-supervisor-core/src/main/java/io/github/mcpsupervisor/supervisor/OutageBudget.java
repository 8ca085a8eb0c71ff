package io.github.mcpsupervisor.supervisor;

import java.time.Duration;

import org.jspecify.annotations.Nullable;

import org.springframework.util.backoff.BackOffExecution;

/**
 * Counts the attempts of one outage and yields the delay before each, and counts the
 * budgets spent in a row for the cooldown that follows each. Only a reset (sustained
 * uptime or an operator's reset) starts a new count of both; a cooldown's end refills the
 * attempts only.
 */
final class OutageBudget {

	private final ReconnectPolicy policy;

	private BackOffExecution backOff;

	private int used;

	/** The budgets spent in a row: each one's cooldown doubles the previous one. */
	private int spent;

	OutageBudget(ReconnectPolicy policy) {
		this.policy = policy;
		this.backOff = policy.backOff().start();
	}

	void reset() {
		refill();
		this.spent = 0;
	}

	/**
	 * Gives a fresh count of attempts, as after a cooldown, and keeps the count of
	 * budgets spent in a row.
	 */
	void refill() {
		this.backOff = this.policy.backOff().start();
		this.used = 0;
	}

	/**
	 * Counts a spent budget and returns the cooldown before the next one.
	 * @return the cooldown, or {@code null} when the policy has none
	 */
	@Nullable Duration takeCooldown() {
		ReconnectPolicy.Cooldown cooldown = this.policy.cooldown();
		if (!cooldown.enabled()) {
			return null;
		}
		this.spent++;
		return cooldown.after(this.spent);
	}

	/**
	 * Returns the cooldown that follows the last budget spent.
	 * @return the cooldown, {@code null} when none was spent since the last reset or the
	 * policy has no cooldown
	 */
	@Nullable Duration cooldown() {
		ReconnectPolicy.Cooldown cooldown = this.policy.cooldown();
		return (cooldown.enabled() && this.spent > 0) ? cooldown.after(this.spent) : null;
	}

	/**
	 * Returns the budgets spent in a row since the last reset.
	 * @return the count, the cooldown under way included
	 */
	int spent() {
		return this.spent;
	}

	int used() {
		return this.used;
	}

	int max() {
		return this.policy.maxAttempts();
	}

	/**
	 * Returns whether an attempt is left: the next {@link #takeImmediate()} or
	 * {@link #takeNext()} takes one (the policy's backoff never stops before the budget
	 * is spent).
	 * @return whether an attempt is left
	 */
	boolean hasLeft() {
		return this.used < max();
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
