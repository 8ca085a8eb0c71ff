package io.github.mcpsupervisor.connector;

import io.github.mcpsupervisor.transport.internal.stdio.StartGate;

/**
 * The bound on how many stdio servers an application starts at once, which the connectors
 * of all its stdio servers share (give each the same instance): a start, from the spawn
 * of a generation's process until it is connected or has failed, takes a place; the
 * starts beyond the limit wait in line, in the order they came, and a start stopped while
 * it waits leaves the line without spawning anything. Restarts and warm standby spares
 * are starts too. The wait comes after a retry's backoff and before the spawn: it never
 * counts against the server's initialization timeout.
 *
 * @since 0.1.0
 */
public final class StdioStarts {

	/**
	 * How many stdio servers the auto-configuration starts at once unless
	 * {@code mcp.max-concurrent-starts} says otherwise.
	 */
	public static final int DEFAULT_LIMIT = 4;

	private final StartGate gate;

	private StdioStarts(StartGate gate) {
		this.gate = gate;
	}

	/**
	 * Returns a bound with places for a number of starts at once.
	 * @param limit how many stdio servers may start at once, at least 1
	 * @return the bound, to share among the connectors of all stdio servers
	 * @throws IllegalArgumentException if the limit is less than 1
	 */
	public static StdioStarts atMost(int limit) {
		return new StdioStarts(StartGate.atMost(limit));
	}

	/**
	 * Returns how many stdio servers may start at once.
	 * @return the limit
	 */
	public int limit() {
		return this.gate.limit();
	}

	StartGate gate() {
		return this.gate;
	}

	@Override
	public String toString() {
		return "StdioStarts[limit=" + limit() + "]";
	}

}
