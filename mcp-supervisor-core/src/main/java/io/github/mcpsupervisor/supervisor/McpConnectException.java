package io.github.mcpsupervisor.supervisor;

import org.jspecify.annotations.Nullable;

/**
 * A connection attempt failed.
 *
 * @since 0.1.0
 */
public class McpConnectException extends Exception {

	private static final long serialVersionUID = 1L;

	private final Kind kind;

	private final transient @Nullable ExitStatus exit;

	public McpConnectException(Kind kind, String message, @Nullable ExitStatus exit, @Nullable Throwable cause) {
		super(message, cause);
		this.kind = kind;
		this.exit = exit;
	}

	public Kind getKind() {
		return this.kind;
	}

	public @Nullable ExitStatus getExit() {
		return this.exit;
	}

	/**
	 * What the failure means for the next attempt.
	 */
	public enum Kind {

		/** Worth retrying with backoff. */
		TRANSIENT,

		/**
		 * The server cannot start as configured (missing or non-executable command, bad
		 * working directory, exit 126/127): retrying would only storm.
		 */
		CONFIGURATION,

		/**
		 * The process tree could not be confirmed gone: a new attempt could run two
		 * servers.
		 */
		NOT_CONFIRMED_DEAD,

		/**
		 * The server needs an authorization that no attempt can obtain on its own (a
		 * person must authorize, or the authorization server refuses the client): nothing
		 * is retried until the authorization exists.
		 */
		AUTHORIZATION

	}

}
