package io.github.mcpsupervisor.client.internal;

/**
 * The bounds of the elicitation requests ({@code elicitation/create}, form and URL) of
 * one server, whatever handler answers them: a request over a bound is answered with an
 * error naming it before any handler sees it, so that a server cannot put an endless
 * series of questions to the application's users.
 *
 * @param maxConcurrent the requests that may be in flight at once
 * @param maxPerMinute the requests admitted per minute, as a bucket of that many that
 * refills evenly over the minute
 * @since 0.1.0
 */
public record ElicitationLimits(int maxConcurrent, int maxPerMinute) {

	/**
	 * The bounds of a server that is given none: 2 at once, 10 a minute.
	 */
	public static final ElicitationLimits DEFAULT = new ElicitationLimits(2, 10);

	/**
	 * Checks the bounds.
	 * @param maxConcurrent the requests that may be in flight at once
	 * @param maxPerMinute the requests admitted per minute
	 */
	public ElicitationLimits {
		if (maxConcurrent < 1 || maxPerMinute < 1) {
			throw new IllegalArgumentException("elicitation limits must be positive: max-concurrent=" + maxConcurrent
					+ ", max-per-minute=" + maxPerMinute);
		}
	}

}
