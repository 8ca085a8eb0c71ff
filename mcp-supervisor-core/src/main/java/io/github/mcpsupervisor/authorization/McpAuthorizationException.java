package io.github.mcpsupervisor.authorization;

/**
 * An authorization response that cannot be completed: an unknown or expired state, an
 * issuer that is not the authorization server's, an error answered instead of a code, or
 * a code the authorization server refused. Its message names the cause and never quotes a
 * code or a token.
 *
 * @since 0.1.0
 */
public class McpAuthorizationException extends RuntimeException {

	private static final long serialVersionUID = 1L;

	public McpAuthorizationException(String message) {
		super(message);
	}

	public McpAuthorizationException(String message, Throwable cause) {
		super(message, cause);
	}

}
