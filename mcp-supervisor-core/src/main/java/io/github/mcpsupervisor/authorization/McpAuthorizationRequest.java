package io.github.mcpsupervisor.authorization;

import java.net.URI;
import java.time.Instant;
import java.util.List;

import org.jspecify.annotations.Nullable;

/**
 * An authorization that a person must give before a server's requests can carry a token:
 * the authorization code flow's request, to be opened in that person's browser. The
 * application's redirect endpoint hands the answer to
 * {@link McpServerAuthorizations#complete}.
 *
 * @param server the name of the server
 * @param registration the id of the client registration it is for
 * @param authorizationUri the authorization server's URL to send the person to (with the
 * request's state and PKCE challenge; it holds no secret)
 * @param scopes the scopes asked for
 * @param expiresAt when the request stops being accepted; a new one is made after it
 * @param user the principal name of the user who must answer it, for a server that acts
 * for each user; null for the server's own
 * @since 0.1.0
 */
public record McpAuthorizationRequest(String server, String registration, URI authorizationUri, List<String> scopes,
		Instant expiresAt, @Nullable String user) {

	public McpAuthorizationRequest {
		scopes = List.copyOf(scopes);
	}

	/**
	 * Creates the request of the server's own authorization.
	 * @param server the name of the server
	 * @param registration the id of the client registration it is for
	 * @param authorizationUri the authorization server's URL to send the person to
	 * @param scopes the scopes asked for
	 * @param expiresAt when the request stops being accepted
	 */
	public McpAuthorizationRequest(String server, String registration, URI authorizationUri, List<String> scopes,
			Instant expiresAt) {
		this(server, registration, authorizationUri, scopes, expiresAt, null);
	}

}
