package io.github.mcpsupervisor.supervisor;

/**
 * Why a supervisor starts a new generation after an established one.
 *
 * @since 0.1.0
 */
public enum RestartCause {

	/** The server process ended on its own. */
	CRASH,

	/** The server stopped answering its liveness probe. */
	LIVENESS,

	/** An operator reset the server. */
	RESET,

	/** An operator restarted the server. */
	RESTART

}
