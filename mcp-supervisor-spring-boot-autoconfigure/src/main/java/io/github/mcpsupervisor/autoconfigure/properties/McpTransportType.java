package io.github.mcpsupervisor.autoconfigure.properties;

/**
 * How a supervised server is reached.
 *
 * @since 0.1.0
 */
public enum McpTransportType {

	/** A child process speaking MCP over its stdin and stdout. */
	STDIO,

	/** A remote server speaking MCP over Streamable HTTP. */
	STREAMABLE_HTTP

}
