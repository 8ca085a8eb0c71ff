package io.github.mcpsupervisor.transport.internal.http.authorization;

import org.jspecify.annotations.Nullable;

/**
 * Thrown when what a protected server's authorization needs cannot be found, or what is
 * found cannot be trusted; the message says which document and why. An {@link #isOutage()
 * outage} (a server that did not answer in time, could not be reached, or answered that
 * it cannot serve now) is worth trying again later; anything else is the configuration's
 * or the servers' to change.
 */
class AuthorizationDiscoveryException extends RuntimeException {

	private final boolean outage;

	AuthorizationDiscoveryException(String message) {
		this(message, null, false);
	}

	AuthorizationDiscoveryException(String message, Throwable cause) {
		this(message, cause, false);
	}

	private AuthorizationDiscoveryException(String message, @Nullable Throwable cause, boolean outage) {
		super(message, cause);
		this.outage = outage;
	}

	/**
	 * Returns the exception of a server that cannot answer now.
	 * @param message what was asked, of whom, and what happened
	 * @param cause the failure, if any
	 * @return the exception
	 */
	static AuthorizationDiscoveryException outage(String message, @Nullable Throwable cause) {
		return new AuthorizationDiscoveryException(message, cause, true);
	}

	/**
	 * Returns whether the server asked cannot answer now: a timeout, a connection that
	 * failed, an HTTP 5xx or 429.
	 * @return whether trying again later may succeed
	 */
	boolean isOutage() {
		return this.outage;
	}

	/**
	 * Returns whether an HTTP status says that the server cannot serve now.
	 * @param status the status
	 * @return whether it is an outage's (5xx, 429)
	 */
	static boolean isOutage(int status) {
		return status >= 500 || status == 429;
	}

}
