package io.github.mcpsupervisor.supervisor;

/**
 * The state of a server's warm standby: the spare generation that is kept started and
 * initialized while the serving generation is up, and becomes the serving one at once
 * when it ends.
 *
 * @since 0.1.0
 */
public enum McpStandbyState {

	/** No spare is kept now: the server is not up (a spare follows once it is). */
	WAITING,

	/** The spare is being started and initialized. */
	STARTING,

	/** The spare is initialized, its tools listed: it serves as soon as it is needed. */
	READY,

	/** The last spare failed or ended: the next one waits for its backoff delay. */
	BACKING_OFF,

	/**
	 * The spares failed the whole budget, or for a cause no retry helps: none is kept
	 * until the server is reset or restarted. The serving generation is untouched.
	 */
	FAILED

}
