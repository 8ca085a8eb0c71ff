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

	/**
	 * Builds a {@link CallPolicy}, each value not given being the default.
	 */
	public static final class Builder {

		private Duration waitForRecovery = Duration.ofSeconds(5);

		private Retry retry = Retry.SAFE;

		private boolean trustAnnotations = true;

		private Set<String> retryTools = Set.of();

		private Builder() {
		}

		/**
		 * Sets how long a call waits for a starting or reconnecting server.
		 * @param waitForRecovery the wait ({@code 0}: fail at once)
		 * @return this builder
		 */
		public Builder waitForRecovery(Duration waitForRecovery) {
			this.waitForRecovery = waitForRecovery;
			return this;
		}

		/**
		 * Sets which calls are retried once on the next generation.
		 * @param retry which calls
		 * @return this builder
		 */
		public Builder retry(Retry retry) {
			this.retry = retry;
			return this;
		}

		/**
		 * Sets whether the tools' annotations make them safe to retry.
		 * @param trustAnnotations whether to trust them
		 * @return this builder
		 */
		public Builder trustAnnotations(boolean trustAnnotations) {
			this.trustAnnotations = trustAnnotations;
			return this;
		}

		/**
		 * Sets the tools that are safe to retry whatever their annotations say.
		 * @param retryTools the tools, by their name on the server
		 * @return this builder
		 */
		public Builder retryTools(Set<String> retryTools) {
			this.retryTools = retryTools;
			return this;
		}

		/**
		 * Builds the policy.
		 * @return the policy
		 */
		public CallPolicy build() {
			return new CallPolicy(this.waitForRecovery, this.retry, this.trustAnnotations, this.retryTools);
		}

	}

}
