package io.github.mcpsupervisor.tool;

/**
 * How the tools of a server are named for the model.
 *
 * @since 0.1.0
 */
public enum McpToolNaming {

	/**
	 * {@code <server>_<tool>}: characters outside {@code [A-Za-z0-9_-]} become {@code _},
	 * and a name longer than 64 characters or taken already is cut and suffixed with a
	 * hash. These names never collide.
	 */
	PREFIXED,

	/**
	 * The names Spring AI's MCP client gives: those of the application's
	 * {@code McpToolNamePrefixGenerator} bean when it has one, otherwise the tool's own
	 * name with the characters Spring AI drops removed and {@code -} turned into
	 * {@code _}. A name another tool has already, or one that is not 1 to 64 letters,
	 * digits, {@code _} or {@code -}, is refused.
	 */
	SPRING_AI

}
