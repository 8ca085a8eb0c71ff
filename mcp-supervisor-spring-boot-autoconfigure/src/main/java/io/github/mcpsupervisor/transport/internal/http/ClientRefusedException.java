package io.github.mcpsupervisor.transport.internal.http;

/**
 * The authorization server refuses the application's client (its secret, its grant, its
 * scopes): only a change of configuration helps, so the server is given up until reset.
 * Its message names the client and the error code, never a credential.
 *
 * @since 0.1.0
 */
public class ClientRefusedException extends RuntimeException {

	private static final long serialVersionUID = 1L;

	public ClientRefusedException(String message, Throwable cause) {
		super(message, cause);
	}

}
