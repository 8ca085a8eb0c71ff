package io.github.mcpsupervisor.transport.internal.http.authorization;

/**
 * Thrown when what a protected server's authorization needs cannot be found, or what is
 * found cannot be trusted; the message says which document and why.
 */
class AuthorizationDiscoveryException extends RuntimeException {

	AuthorizationDiscoveryException(String message) {
		super(message);
	}

	AuthorizationDiscoveryException(String message, Throwable cause) {
		super(message, cause);
	}

}
