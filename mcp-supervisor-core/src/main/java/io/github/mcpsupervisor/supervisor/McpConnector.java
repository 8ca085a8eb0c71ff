package io.github.mcpsupervisor.supervisor;

/**
 * Creates the connection of each generation of one server.
 *
 * @since 0.1.0
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

	/**
	 * Masks the secrets of the server's configuration (arguments, URL, headers,
	 * credential-like environment variables) wherever a text of the server quotes them,
	 * before the text is logged.
	 * @param text a text of the server (an error message, a tool name)
	 * @return the text with the secrets masked; by default the text itself
	 */
	default String redact(String text) {
		return text;
	}

	/**
	 * Registers what to run once the server's authorization exists again (a person
	 * completed it after an attempt failed with
	 * {@link McpConnectException.Kind#AUTHORIZATION AUTHORIZATION}); called once, before
	 * the first attempt.
	 * @param authorized what to run, on any thread
	 */
	default void whenAuthorized(Runnable authorized) {
	}

	/**
	 * Releases what the connector holds for its server (its use of a shared HTTP client,
	 * its registration with the server's authorization) once its supervisor has stopped
	 * for good: the server was removed or replaced. No generation is created after.
	 */
	default void close() {
	}

}
