package io.github.mcpsupervisor.supervisor;

import org.jspecify.annotations.Nullable;

/**
 * A tool call could not reach its server: the server is not up, its connection was lost
 * during the call, or it no longer offers the tool. The message names the server, its
 * state and what happens next.
 *
 * @since 0.1.0
 */
public class McpServerUnavailableException extends RuntimeException {

	private static final long serialVersionUID = 1L;

	private final String server;

	private final McpServerState state;

	public McpServerUnavailableException(String server, McpServerState state, String message,
			@Nullable Throwable cause) {
		super(message, cause);
		this.server = server;
		this.state = state;
	}

	public String getServer() {
		return this.server;
	}

	public McpServerState getState() {
		return this.state;
	}

}
