package io.github.mcpsupervisor.supervisor;

/**
 * Why a supervisor starts over with new generations after a server that had connected
 * since its start: once when a connected generation ends and the supervisor reconnects
 * it, and once when an operator's reset or restart brings back a server that the
 * supervisor had stopped reconnecting ({@link McpServerState#DISCONNECTED},
 * {@link McpServerState#FAILED}, {@link McpServerState#NEEDS_AUTHORIZATION}), or when the
 * cooldown of a server given up after a spent budget is over. A reset or restart while
 * the supervisor is reconnecting only hastens the restart already under way, and a server
 * that never connected is not restarted: its attempts are.
 *
 * @since 0.1.0
 */
public enum RestartCause {

	/** The connected generation's server process exited on its own. */
	CRASH,

	/**
	 * The connected generation's connection ended without a process exit: a Streamable
	 * HTTP server's transport failed, its session was lost or its requests were refused.
	 */
	CONNECTION_LOST,

	/** The connected generation stopped answering its liveness probe and was ended. */
	LIVENESS,

	/** An operator reset the server after the supervisor had stopped reconnecting it. */
	RESET,

	/**
	 * An operator restarted the server: its connected generation, or a server the
	 * supervisor had stopped reconnecting.
	 */
	RESTART,

	/**
	 * The cooldown of a server that had connected and was given up after a spent outage
	 * budget is over: it tries again with a fresh budget.
	 */
	COOLDOWN

}
