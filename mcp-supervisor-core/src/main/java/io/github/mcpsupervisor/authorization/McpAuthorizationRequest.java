package io.github.mcpsupervisor.authorization;

import java.net.URI;
import java.time.Instant;
import java.util.List;

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
 * @since 0.1.0
 */
public record McpAuthorizationRequest(String server, String registration, URI authorizationUri, List<String> scopes,
		Instant expiresAt) {

	public McpAuthorizationRequest {
		scopes = List.copyOf(scopes);
	}

}
