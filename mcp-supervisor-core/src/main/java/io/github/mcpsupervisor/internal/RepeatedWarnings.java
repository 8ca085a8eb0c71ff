package io.github.mcpsupervisor.internal;

/**
 * Decides when a warning that repeats is logged again: at its 1st, 10th, 100th…
 * occurrence.
 *
 * @since 0.1.0
 */
public final class RepeatedWarnings {

	private RepeatedWarnings() {
	}

	/**
	 * Whether a count is 1, 10, 100…: when a repeated warning is logged again.
	 * @param n how many times the warning occurred, from 1
	 * @return whether to log it this time
	 */
	public static boolean isLogged(long n) {
		long power = 1;
		while (power < n) {
			power *= 10;
		}
		return power == n;
	}

}
