package io.github.mcpsupervisor.authorization;

import java.util.Optional;

import org.jspecify.annotations.Nullable;

/**
 * The OAuth authorization of one server, as far as a person takes part in it.
 *
 * @since 0.1.0
 */
public interface McpServerAuthorization {

	/**
	 * Returns the authorization a person must give, if one is awaited.
	 * @return the request, until it is completed or expires
	 */
	Optional<McpAuthorizationRequest> pending();

	/**
	 * Returns whether a state is the one of this server's awaited request.
	 * @param state the {@code state} of an authorization response
	 * @return whether the response is this server's
	 */
	boolean awaits(String state);

	/**
	 * Completes the awaited request with the authorization server's answer: checks its
	 * issuer (RFC 9207), exchanges its code with the PKCE verifier and keeps the tokens;
	 * the server then connects on its own.
	 * @param state the answer's {@code state}
	 * @param code the answer's {@code code}
	 * @param issuer the answer's {@code iss}, if any
	 * @throws McpAuthorizationException if the answer cannot be used
	 */
	void complete(String state, String code, @Nullable String issuer);

}
