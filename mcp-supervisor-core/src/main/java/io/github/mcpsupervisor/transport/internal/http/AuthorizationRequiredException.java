package io.github.mcpsupervisor.transport.internal.http;

/**
 * No token can be had for a server without a person (an authorization to give) or a
 * change of configuration (a client the authorization server refuses). Its message says
 * which and never quotes a credential.
 *
 * @since 0.1.0
 */
public class AuthorizationRequiredException extends RuntimeException {

	private static final long serialVersionUID = 1L;

	public AuthorizationRequiredException(String message) {
		super(message);
	}

	public AuthorizationRequiredException(String message, Throwable cause) {
		super(message, cause);
	}

}
