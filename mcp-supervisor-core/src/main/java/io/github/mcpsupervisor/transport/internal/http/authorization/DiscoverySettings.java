package io.github.mcpsupervisor.transport.internal.http.authorization;

import java.net.URI;
import java.util.List;

import org.jspecify.annotations.Nullable;

/**
 * What the application tells of its client at the authorization server that a server
 * names.
 *
 * @param clientCredentials whether the client obtains its tokens with client credentials
 * (a service) instead of a person's authorization code
 * @param redirectUri where the authorization server sends a person back (the
 * application's redirect endpoint); {@code null} for client credentials
 * @param clientId the id of a client that authorization server gave the application, if
 * any
 * @param clientSecret its secret, if it has one
 * @param clientMetadataDocument the URL of the application's Client ID Metadata Document,
 * if it serves one
 * @param clientName the name of a client registered dynamically
 * @param scopes the scopes to ask for, empty to let the server's metadata say
 * @param issuer the one authorization server the client is for, if the application names
 * it: required with a client id, whose secret no other server may see
 * @since 0.1.0
 */
public record DiscoverySettings(boolean clientCredentials, @Nullable URI redirectUri, @Nullable String clientId,
		@Nullable String clientSecret, @Nullable URI clientMetadataDocument, String clientName, List<String> scopes,
		@Nullable String issuer) {

	@Override
	public String toString() {
		return "DiscoverySettings[clientCredentials=" + this.clientCredentials + ", redirectUri=" + this.redirectUri
				+ ", clientId=" + this.clientId + ", clientSecret=" + ((this.clientSecret != null) ? "******" : null)
				+ ", clientMetadataDocument=" + this.clientMetadataDocument + ", clientName=" + this.clientName
				+ ", scopes=" + this.scopes + ", issuer=" + this.issuer + "]";
	}

}
