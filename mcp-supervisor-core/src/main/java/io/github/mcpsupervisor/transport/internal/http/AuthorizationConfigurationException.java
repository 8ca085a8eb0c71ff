package io.github.mcpsupervisor.transport.internal.http;

/**
 * The authorization cannot work as configured: the authorization server refuses the
 * application's client (its secret, its grant, its scopes), or the server's metadata or
 * its authorization server's cannot be used. Only a change of configuration (or of those
 * servers) helps, so the server is given up until reset. Its message names the cause,
 * never a credential.
 *
 * @since 0.1.0
 */
public class AuthorizationConfigurationException extends RuntimeException {

	private static final long serialVersionUID = 1L;

	public AuthorizationConfigurationException(String message, Throwable cause) {
		super(message, cause);
	}

}
