package io.github.mcpsupervisor.transport.internal.http.authorization;

import java.net.URI;
import java.net.http.HttpRequest;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

import io.github.mcpsupervisor.authorization.McpAuthorizationStore;
import io.github.mcpsupervisor.authorization.McpAuthorizationStore.DynamicClient;
import io.github.mcpsupervisor.internal.ServerText;
import io.github.mcpsupervisor.transport.internal.http.authorization.BoundedExchange.Answer;
import io.github.mcpsupervisor.transport.internal.http.authorization.MetadataDiscovery.AuthorizationServer;
import io.github.mcpsupervisor.transport.internal.http.authorization.MetadataDiscovery.ProtectedResource;
import org.jspecify.annotations.Nullable;

import org.springframework.security.oauth2.client.registration.ClientRegistration;
import org.springframework.security.oauth2.core.AuthorizationGrantType;
import org.springframework.security.oauth2.core.ClientAuthenticationMethod;

/**
 * Finds the client registration of a server that names its authorization server itself,
 * as the MCP authorization specification has a client do it after a {@code 401}: its
 * protected resource metadata, its first authorization server's metadata, and a client
 * there (in this order) pre-registered by the application, its Client ID Metadata
 * Document where the authorization server takes one, or one registered dynamically (RFC
 * 7591). The scopes are the application's, else the challenge's, else those the server
 * supports. The registration is for the authorization code grant with PKCE S256 (an
 * authorization server that does not offer it is refused), or, for a service, for the
 * client credentials grant with the client the authorization server gave (an
 * authorization server that lists its grants without that one is refused).
 * <p>
 * A client registered dynamically is kept in the {@link McpAuthorizationStore}, by server
 * and issuer, and used again by the next discovery, of this JVM or a replica, while its
 * redirect URI is the configured one.
 */
final class ClientDiscovery {

	private final MetadataDiscovery metadata;

	private final BoundedExchange exchange;

	private final DiscoverySettings settings;

	private final String server;

	private final McpAuthorizationStore store;

	ClientDiscovery(BoundedExchange exchange, DiscoverySettings settings, String server, McpAuthorizationStore store) {
		this.metadata = new MetadataDiscovery(exchange);
		this.exchange = exchange;
		this.settings = settings;
		this.server = server;
		this.store = store;
	}

	/**
	 * Finds the registration of a server.
	 * @param server the registration's id
	 * @param url the server's URL
	 * @param challenge the challenge of its {@code 401}, if any
	 * @return the registration, with the authorization server's metadata in its provider
	 * details
	 * @throws AuthorizationDiscoveryException if the server's authorization cannot be
	 * used
	 */
	Discovered discover(String server, URI url, @Nullable BearerChallenge challenge) {
		ProtectedResource resource = this.metadata.protectedResource(url, challenge);
		AuthorizationServer authorizationServer = this.metadata.authorizationServer(issuer(resource));
		if (this.settings.clientCredentials()) {
			return clientCredentials(server, resource, authorizationServer, challenge);
		}
		if (!authorizationServer.supportsAuthorizationCodeWithPkce()) {
			throw new AuthorizationDiscoveryException("the authorization server " + authorizationServer.issuer()
					+ " does not offer the authorization code grant with PKCE S256 (code_challenge_methods_supported)");
		}
		List<String> scopes = !this.settings.scopes().isEmpty() ? this.settings.scopes() : ScopeSelection
			.initial(challenge, resource.scopesSupported(), authorizationServer.scopesSupported(), true);
		Client client = client(authorizationServer);
		Map<String, Object> metadata = new LinkedHashMap<>();
		metadata.put("issuer", authorizationServer.issuer());
		metadata.put("authorization_response_iss_parameter_supported",
				authorizationServer.issInAuthorizationResponse());
		metadata.put("scopes_supported", authorizationServer.scopesSupported());
		ClientRegistration registration = ClientRegistration.withRegistrationId(server)
			.clientId(client.id())
			.clientSecret(client.secret())
			.clientAuthenticationMethod(client.authentication())
			.authorizationGrantType(AuthorizationGrantType.AUTHORIZATION_CODE)
			.redirectUri(String.valueOf(this.settings.redirectUri()))
			.scope(scopes)
			.authorizationUri(String.valueOf(authorizationServer.authorizationEndpoint()))
			.tokenUri(authorizationServer.tokenEndpoint().toString())
			.issuerUri(authorizationServer.issuer())
			.providerConfigurationMetadata(metadata)
			.build();
		return new Discovered(registration, resource.resource(), client.how());
	}

	/**
	 * Returns the issuer of the authorization server a server names now.
	 * @param url the server's URL
	 * @param challenge the challenge of its {@code 401}, if any
	 * @return the issuer its tokens are to come from
	 * @throws AuthorizationDiscoveryException if its metadata cannot be used
	 */
	String issuer(URI url, @Nullable BearerChallenge challenge) {
		return issuer(this.metadata.protectedResource(url, challenge));
	}

	// The configured issuer among those the server names, else the first it names: a
	// client the application was given is never shown to another server.
	private String issuer(ProtectedResource resource) {
		String configured = this.settings.issuer();
		if (configured == null) {
			if (this.settings.clientId() != null) {
				throw new AuthorizationDiscoveryException("a client-id is set without the issuer it belongs to:"
						+ " its secret would go to whichever authorization server the MCP server names");
			}
			return resource.authorizationServers().get(0);
		}
		if (!resource.authorizationServers().contains(configured)) {
			throw new AuthorizationDiscoveryException("the server names the authorization servers "
					+ resource.authorizationServers().stream().map((named) -> ServerText.bounded(named, 256)).toList()
					+ ", not the configured issuer " + configured);
		}
		return configured;
	}

	// A service's client, which the authorization server gave the application.
	private Discovered clientCredentials(String server, ProtectedResource resource,
			AuthorizationServer authorizationServer, @Nullable BearerChallenge challenge) {
		String clientId = this.settings.clientId();
		String secret = this.settings.clientSecret();
		if (clientId == null || secret == null) {
			throw new AuthorizationDiscoveryException("client credentials need the client-id and client-secret that "
					+ authorizationServer.issuer() + " gave this application");
		}
		if (!authorizationServer.grantTypes().isEmpty()
				&& !authorizationServer.grantTypes().contains("client_credentials")) {
			throw new AuthorizationDiscoveryException("the authorization server " + authorizationServer.issuer()
					+ " does not offer the client_credentials grant (grant_types_supported)");
		}
		List<String> scopes = !this.settings.scopes().isEmpty() ? this.settings.scopes() : ScopeSelection
			.initial(challenge, resource.scopesSupported(), authorizationServer.scopesSupported(), false);
		ClientRegistration registration = ClientRegistration.withRegistrationId(server)
			.clientId(clientId)
			.clientSecret(secret)
			.clientAuthenticationMethod(authentication(authorizationServer, true))
			.authorizationGrantType(AuthorizationGrantType.CLIENT_CREDENTIALS)
			.scope(scopes)
			.tokenUri(authorizationServer.tokenEndpoint().toString())
			.issuerUri(authorizationServer.issuer())
			.build();
		return new Discovered(registration, resource.resource(), "pre-registered");
	}

	private Client client(AuthorizationServer authorizationServer) {
		String clientId = this.settings.clientId();
		if (clientId != null) {
			String secret = this.settings.clientSecret();
			return new Client(clientId, secret, authentication(authorizationServer, secret != null), "pre-registered");
		}
		URI document = this.settings.clientMetadataDocument();
		if (document != null && authorizationServer.clientIdMetadataDocuments()) {
			return new Client(document.toString(), null, ClientAuthenticationMethod.NONE,
					"its Client ID Metadata Document");
		}
		URI redirectUri = Objects.requireNonNull(this.settings.redirectUri());
		DynamicClient kept = this.store.dynamicClient(this.server, authorizationServer.issuer()).orElse(null);
		if (kept != null && kept.redirectUri().equals(redirectUri)) {
			return client(kept, "dynamic client registration, kept");
		}
		if (kept != null) {
			this.store.forget(this.server, authorizationServer.issuer());
		}
		URI endpoint = authorizationServer.registrationEndpoint();
		if (endpoint == null) {
			throw new AuthorizationDiscoveryException("the authorization server " + authorizationServer.issuer()
					+ " offers neither dynamic client registration nor"
					+ ((document != null) ? " Client ID Metadata Documents" : " a client for this application")
					+ ": set the client-id it gave this application");
		}
		Client registered = register(endpoint, authorizationServer);
		// a replica that registered at the same time: the first kept serves all
		DynamicClient first = this.store.keepIfAbsent(new DynamicClient(this.server, authorizationServer.issuer(),
				redirectUri, registered.id(), registered.secret(), registered.authentication().getValue()));
		// a replica's client of another redirect URI (a rolling change) serves it only
		return first.redirectUri().equals(redirectUri) ? client(first, registered.how()) : registered;
	}

	private static Client client(DynamicClient kept, String how) {
		return new Client(kept.clientId(), kept.clientSecret(),
				new ClientAuthenticationMethod(kept.authenticationMethod()), how);
	}

	// RFC 7591: a public client unless the server insists on a secret
	private Client register(URI endpoint, AuthorizationServer authorizationServer) {
		Map<String, Object> request = new LinkedHashMap<>();
		request.put("client_name", this.settings.clientName());
		URI redirectUri = Objects.requireNonNull(this.settings.redirectUri());
		// SEP-837: a redirect to this machine is a native application's, any other a web
		// one's
		request.put("application_type", MetadataDiscovery.isLoopback(redirectUri) ? "native" : "web");
		request.put("redirect_uris", List.of(redirectUri.toString()));
		request.put("grant_types", List.of("authorization_code", "refresh_token"));
		request.put("response_types", List.of("code"));
		request.put("token_endpoint_auth_method", "none");
		if (!this.settings.scopes().isEmpty()) {
			request.put("scope", String.join(" ", this.settings.scopes()));
		}
		Answer answer = this.exchange.send(HttpRequest.newBuilder(endpoint)
			.timeout(this.exchange.timeout())
			.header("Content-Type", "application/json")
			.header("Accept", "application/json")
			.POST(HttpRequest.BodyPublishers.ofString(this.exchange.json(request)))
			.build(), "dynamic client registration");
		Map<String, Object> registered = this.exchange.object(answer);
		if (answer.status() != 200 && answer.status() != 201) {
			Object error = (registered != null) ? registered.get("error") : null;
			String message = "the dynamic client registration at " + endpoint + " answered HTTP " + answer.status()
					+ ((error instanceof String code) ? " (" + ServerText.bounded(code, 64) + ")" : "");
			throw AuthorizationDiscoveryException.isOutage(answer.status())
					? AuthorizationDiscoveryException.outage(message, null)
					: new AuthorizationDiscoveryException(message);
		}
		if (registered == null || !(registered.get("client_id") instanceof String clientId) || clientId.isEmpty()) {
			throw new AuthorizationDiscoveryException(
					"the dynamic client registration at " + endpoint + " answered no client_id");
		}
		String secret = (registered.get("client_secret") instanceof String value && !value.isEmpty()) ? value : null;
		// the method the server registered, which may not be the one asked for
		Object method = registered.get("token_endpoint_auth_method");
		List<String> methods = authorizationServer.tokenEndpointAuthMethods();
		boolean secretUnused = method == null && methods.contains("none") && !methods.contains("client_secret_basic")
				&& !methods.contains("client_secret_post");
		if ("none".equals(method) || (method == null && secret == null) || secretUnused) {
			return new Client(clientId, null, ClientAuthenticationMethod.NONE, "dynamic client registration");
		}
		if (secret == null) {
			throw new AuthorizationDiscoveryException(
					"the dynamic client registration at " + endpoint + " registered token_endpoint_auth_method "
							+ ServerText.bounded(String.valueOf(method), 64) + " without a client_secret");
		}
		ClientAuthenticationMethod authentication = ("client_secret_post".equals(method))
				? ClientAuthenticationMethod.CLIENT_SECRET_POST : ("client_secret_basic".equals(method))
						? ClientAuthenticationMethod.CLIENT_SECRET_BASIC : authentication(authorizationServer, true);
		return new Client(clientId, secret, authentication, "dynamic client registration");
	}

	// client_secret_basic where the server takes it (its default), else
	// client_secret_post
	private static ClientAuthenticationMethod authentication(AuthorizationServer authorizationServer,
			boolean hasSecret) {
		if (!hasSecret) {
			return ClientAuthenticationMethod.NONE;
		}
		List<String> methods = authorizationServer.tokenEndpointAuthMethods();
		if (methods.isEmpty() || methods.contains("client_secret_basic")) {
			return ClientAuthenticationMethod.CLIENT_SECRET_BASIC;
		}
		if (methods.contains("client_secret_post")) {
			return ClientAuthenticationMethod.CLIENT_SECRET_POST;
		}
		throw new AuthorizationDiscoveryException("the authorization server " + authorizationServer.issuer()
				+ " takes none of client_secret_basic, client_secret_post for a client with a secret: " + methods);
	}

	/**
	 * A registration found.
	 *
	 * @param registration the registration
	 * @param resource the resource of its tokens, as the server's metadata publishes it
	 * @param how how its client came to be, for the log
	 */
	record Discovered(ClientRegistration registration, String resource, String how) {

	}

	private record Client(String id, @Nullable String secret, ClientAuthenticationMethod authentication, String how) {

		@Override
		public String toString() {
			return "Client[id=" + this.id + ", how=" + this.how + "]";
		}

	}

}
