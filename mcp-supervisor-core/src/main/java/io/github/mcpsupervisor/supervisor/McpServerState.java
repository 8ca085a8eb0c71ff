package io.github.mcpsupervisor.supervisor;

/**
 * The states of a supervised MCP server.
 *
 * @since 0.1.0
 */
public enum McpServerState {

	/** The first connection attempt is in progress. */
	STARTING,

	/** A generation is connected and serves tool calls. */
	UP,

	/**
	 * The connection was lost or an attempt failed; the next attempt is pending or
	 * running.
	 */
	RECONNECTING,

	/**
	 * The connection was lost and reconnect is disabled: tools stay registered and fail
	 * until reset.
	 */
	DISCONNECTED,

	/**
	 * The server refuses the application without an authorization that only a person (or
	 * an operator's change of configuration) can give: no attempt is made until a token
	 * exists, which brings it back on its own, or a reset. Tools stay registered and fail
	 * fast.
	 */
	NEEDS_AUTHORIZATION,

	/**
	 * Attempts are exhausted or the server is misconfigured: tools are withdrawn until
	 * reset, or stay listed as unavailable when the server keeps its tools while down
	 * ({@link ToolsWhenDown#KEEP}).
	 */
	FAILED,

	/** Not started, or stopped with the application. */
	STOPPED,

	/**
	 * Not running because it is not in use: started on first use, or stopped when idle.
	 * Its tools stay listed, and the next call starts it, waiting as calls wait during a
	 * recovery. Idle is not an outage: the outage budget is untouched and no standby is
	 * kept.
	 */
	IDLE

}
