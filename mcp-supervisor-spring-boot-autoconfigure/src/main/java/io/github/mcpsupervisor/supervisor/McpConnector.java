package io.github.mcpsupervisor.supervisor;

/**
 * Creates the connection of each generation of one server.
 */
@FunctionalInterface
public interface McpConnector {

	/**
	 * Creates the connection of a new generation without opening it (cheap, no process
	 * yet).
	 * @param generation the generation number, increasing from 1
	 * @param toolsChanged called when the server announces that its tool list changed
	 * @return a connection, not yet opened
	 */
	McpConnection create(int generation, Runnable toolsChanged);

}
