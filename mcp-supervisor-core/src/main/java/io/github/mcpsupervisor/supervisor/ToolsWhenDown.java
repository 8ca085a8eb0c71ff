package io.github.mcpsupervisor.supervisor;

/**
 * What becomes of a server's tools while it is down (reconnecting, disconnected, waiting
 * for an authorization, or failed).
 *
 * @since 0.1.0
 */
public enum ToolsWhenDown {

	/**
	 * The tools are withdrawn when the server fails and stay listed unchanged while it
	 * reconnects, is disconnected or waits for an authorization; a call that finds the
	 * server down fails with an exception.
	 */
	WITHDRAW,

	/**
	 * The last tools the server listed stay listed, with their names and schemas, in
	 * every down state including failed; their description says that the server is
	 * unavailable, since when and in which state, and a call that finds the server down
	 * returns that notice as its result instead of failing.
	 */
	KEEP

}
