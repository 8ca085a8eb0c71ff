package io.github.mcpsupervisor.supervisor;

/**
 * Receives what a supervisor does, in order, outside its lock.
 */
public interface SupervisorListener {

	/** A listener that ignores everything. */
	SupervisorListener NONE = new SupervisorListener() {
	};

	/**
	 * The server's tool set was replaced (a new generation, a re-sync, a withdrawal).
	 * @param server the server's name
	 * @param tools the new tool set
	 */
	default void toolsChanged(String server, ToolSet tools) {
	}

	/**
	 * The server changed state.
	 * @param change the transition
	 */
	default void stateChanged(McpServerStateChange change) {
	}

}
