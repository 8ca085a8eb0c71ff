package io.github.mcpsupervisor.actuate;

import java.util.Locale;

/**
 * What an operator can do to a server through the {@code mcp} endpoint.
 *
 * @since 0.1.0
 */
public enum McpServerAction {

	/**
	 * Clear the outage budget and connect now; on an UP server, only clear the budget.
	 */
	RESET,

	/**
	 * End the live generation, even when it is up, and connect a new one with a fresh
	 * budget.
	 */
	RESTART;

	/**
	 * Returns the action as it appears in the endpoint's paths and answers.
	 * @return {@code reset} or {@code restart}
	 */
	public String id() {
		return name().toLowerCase(Locale.ROOT);
	}

}
