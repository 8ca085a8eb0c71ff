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

	private final boolean sent;

	public McpServerUnavailableException(String server, McpServerState state, String message,
			@Nullable Throwable cause) {
		this(server, state, message, cause, true);
	}

	/**
	 * Creates the exception of a call that may or may not have been sent.
	 * @param server the server's name
	 * @param state the server's state
	 * @param message what the caller is told
	 * @param cause the cause, if any
	 * @param sent whether the call may have been sent to the server: {@code false} when
	 * the server was found down and nothing was sent
	 */
	public McpServerUnavailableException(String server, McpServerState state, String message, @Nullable Throwable cause,
			boolean sent) {
		super(message, cause);
		this.server = server;
		this.state = state;
		this.sent = sent;
	}

	public String getServer() {
		return this.server;
	}

	public McpServerState getState() {
		return this.state;
	}

	/**
	 * Returns whether the call may have been sent to the server (and may have run).
	 * @return {@code false} when the server was found down and nothing was sent
	 */
	public boolean wasSent() {
		return this.sent;
	}

}
