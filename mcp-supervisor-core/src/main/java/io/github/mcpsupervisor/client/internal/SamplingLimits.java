package io.github.mcpsupervisor.client.internal;

/**
 * The bounds of the sampling requests ({@code sampling/createMessage}) of one server,
 * whatever handler answers them: a request over a bound is answered with an error naming
 * it, and one asking for more tokens than the cap is lowered to it.
 *
 * @param maxConcurrent the requests that may be in flight at once
 * @param maxPerMinute the requests admitted per minute, as a bucket of that many that
 * refills evenly over the minute
 * @param maxTokens the most tokens a request may ask for; more is lowered to it
 * @since 0.1.0
 */
public record SamplingLimits(int maxConcurrent, int maxPerMinute, int maxTokens) {

	/**
	 * The bounds of a server that is given none: 2 at once, 10 a minute, 4,096 tokens.
	 */
	public static final SamplingLimits DEFAULT = new SamplingLimits(2, 10, 4096);

	/**
	 * Checks the bounds.
	 * @param maxConcurrent the requests that may be in flight at once
	 * @param maxPerMinute the requests admitted per minute
	 * @param maxTokens the most tokens a request may ask for
	 */
	public SamplingLimits {
		if (maxConcurrent < 1 || maxPerMinute < 1 || maxTokens < 1) {
			throw new IllegalArgumentException("sampling limits must be positive: max-concurrent=" + maxConcurrent
					+ ", max-per-minute=" + maxPerMinute + ", max-tokens=" + maxTokens);
		}
	}

}
