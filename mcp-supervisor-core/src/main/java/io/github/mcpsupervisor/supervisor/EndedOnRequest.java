package io.github.mcpsupervisor.supervisor;

/**
 * Why a live generation was ended on request rather than lost: what the calls in flight
 * on it are told, instead of a crash.
 */
enum EndedOnRequest {

	/** {@link McpServerSupervisor#restart()}: a new generation follows. */
	RESTARTED("was restarted on request"),

	/** {@link McpServerSupervisor#stop()}. */
	STOPPED("was stopped"),

	/** {@link McpSupervisors#replace}: another server has its name now. */
	REPLACED("was replaced"),

	/** {@link McpSupervisors#remove(String)}: nothing reconnects. */
	REMOVED("was removed"),

	/** Stopped while unused: the next call starts it. */
	IDLE("was stopped while unused");

	private final String description;

	EndedOnRequest(String description) {
		this.description = description;
	}

	/**
	 * Returns what happened to the server, as a message says it.
	 * @return e.g. "was removed"
	 */
	String description() {
		return this.description;
	}

	/**
	 * Returns whether the server was stopped: no generation of it follows.
	 * @return whether it was stopped, replaced or removed
	 */
	boolean stopsTheServer() {
		return this != RESTARTED && this != IDLE;
	}

}
