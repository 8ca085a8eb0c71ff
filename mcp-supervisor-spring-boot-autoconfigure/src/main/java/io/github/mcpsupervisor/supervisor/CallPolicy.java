package io.github.mcpsupervisor.supervisor;

import java.time.Duration;
import java.util.Set;

import io.modelcontextprotocol.spec.McpSchema.Tool;
import io.modelcontextprotocol.spec.McpSchema.ToolAnnotations;

/**
 * How tool calls behave around outages: how long a call waits for a recovering server,
 * and which calls are retried once on the next generation when their generation dies
 * under them (at-least-once: a retried call may have run on the dead generation too).
 *
 * @param waitForRecovery how long a call waits for a starting or reconnecting server
 * ({@code 0}: fail at once)
 * @param retry which calls are retried
 * @param trustAnnotations whether the tools' {@code readOnlyHint}/{@code idempotentHint}
 * annotations make them safe to retry
 * @param retryTools tools (by their name on the server) that are safe to retry whatever
 * their annotations say
 * @since 0.1.0
 */
public record CallPolicy(Duration waitForRecovery, Retry retry, boolean trustAnnotations, Set<String> retryTools) {

	public CallPolicy {
		retryTools = Set.copyOf(retryTools);
	}

	/**
	 * Returns the defaults: wait 5 s, retry safe tools, trust the annotations.
	 * @return the default policy
	 */
	public static CallPolicy defaults() {
		return new CallPolicy(Duration.ofSeconds(5), Retry.SAFE, true, Set.of());
	}

	/**
	 * Returns whether a call of the tool may be retried once on the next generation.
	 * @param tool the tool
	 * @return whether it is retry-eligible
	 */
	public boolean isRetryEligible(Tool tool) {
		return switch (this.retry) {
			case NEVER -> false;
			case ALWAYS -> true;
			case SAFE -> this.retryTools.contains(tool.name()) || (this.trustAnnotations && isSafe(tool.annotations()));
		};
	}

	private static boolean isSafe(ToolAnnotations annotations) {
		return annotations != null && (Boolean.TRUE.equals(annotations.readOnlyHint())
				|| Boolean.TRUE.equals(annotations.idempotentHint()));
	}

	/**
	 * Which calls are retried once when their generation dies under them.
	 */
	public enum Retry {

		/** None. */
		NEVER,

		/**
		 * Read-only or idempotent tools (per trusted annotations) and the listed tools.
		 */
		SAFE,

		/** All. */
		ALWAYS

	}

}
