package io.github.mcpsupervisor.transport.internal.http.authorization;

import java.net.InetAddress;
import java.net.URI;
import java.net.UnknownHostException;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.regex.Pattern;

import io.github.mcpsupervisor.internal.ServerText;
import io.github.mcpsupervisor.transport.internal.http.authorization.BoundedExchange.Answer;
import io.modelcontextprotocol.json.McpJsonMapper;
import org.jspecify.annotations.Nullable;

/**
 * Finds what a protected MCP server's authorization needs, as the MCP authorization
 * specification has a client find it: the server's protected resource metadata (RFC 9728)
 * at the URL its challenge names, or else at the well-known URLs, its {@code resource}
 * checked to be the server's (the same origin, a path the server's is under); then the
 * first of its authorization servers' metadata (RFC 8414 or OpenID Connect Discovery)
 * found at the well-known URLs, its {@code issuer} checked to be the one asked for,
 * exactly. A URL answering 4xx gives way to the next; any other failure ends the
 * discovery. Nothing is sent but the GET requests: no credentials. Every answer is read
 * up to {@link #MAX_BYTES}.
 */
final class MetadataDiscovery {

	private static final Pattern IPV4_LITERAL = Pattern.compile("\\d{1,3}(\\.\\d{1,3}){3}");

	/** The most bytes of a metadata document read. */
	static final int MAX_BYTES = BoundedExchange.MAX_BYTES;

	private final BoundedExchange exchange;

	MetadataDiscovery(HttpClient http, McpJsonMapper jsonMapper, Duration timeout) {
		this(new BoundedExchange(http, jsonMapper, timeout));
	}

	MetadataDiscovery(BoundedExchange exchange) {
		this.exchange = exchange;
	}

	/**
	 * Finds the protected resource metadata of a server.
	 * @param server the server's URL
	 * @param challenge the challenge of its {@code 401}, if any
	 * @return the metadata
	 * @throws AuthorizationDiscoveryException if none is found or it is not the server's
	 */
	ProtectedResource protectedResource(URI server, @Nullable BearerChallenge challenge) {
		URI named = (challenge != null && challenge.resourceMetadata() != null)
				? trusted(challenge.resourceMetadata(), server) : null;
		// a URL the challenge names is the one to use; one that is not usable is as none
		List<URI> locations = (named != null) ? List.of(named) : MetadataLocations.protectedResource(server);
		Found found = first(locations, "protected resource metadata");
		Map<String, Object> document = found.document();
		String resource = string(document, "resource");
		if (resource == null || !isResourceOf(resource, server)) {
			throw new AuthorizationDiscoveryException("the protected resource metadata at " + found.location()
					+ " is for resource '" + quoted(resource) + "', not for " + ResourceIndicator.of(server));
		}
		List<String> servers = strings(document, "authorization_servers");
		if (servers.isEmpty()) {
			throw new AuthorizationDiscoveryException(
					"the protected resource metadata at " + found.location() + " names no authorization server");
		}
		return new ProtectedResource(resource, servers, strings(document, "scopes_supported"));
	}

	/**
	 * Finds the metadata of an authorization server.
	 * @param issuer its issuer identifier, as the protected resource metadata names it
	 * @return the metadata
	 * @throws AuthorizationDiscoveryException if none is found or it is another issuer's
	 */
	AuthorizationServer authorizationServer(String issuer) {
		Found found = first(MetadataLocations.authorizationServer(secure(issuer, "the issuer")),
				"authorization server metadata");
		Map<String, Object> document = found.document();
		String named = string(document, "issuer");
		if (!issuer.equals(named)) {
			throw new AuthorizationDiscoveryException("the authorization server metadata at " + found.location()
					+ " is for issuer '" + quoted(named) + "', not '" + quoted(issuer) + "': it is not used");
		}
		URI authorization = uri(document, "authorization_endpoint");
		URI token = uri(document, "token_endpoint");
		if (token == null) {
			throw new AuthorizationDiscoveryException(
					"the authorization server metadata at " + found.location() + " has no token_endpoint");
		}
		return new AuthorizationServer(issuer, authorization, token, uri(document, "registration_endpoint"),
				strings(document, "code_challenge_methods_supported"),
				strings(document, "token_endpoint_auth_methods_supported"), strings(document, "grant_types_supported"),
				strings(document, "scopes_supported"),
				Boolean.TRUE.equals(document.get("client_id_metadata_document_supported")),
				Boolean.TRUE.equals(document.get("authorization_response_iss_parameter_supported")));
	}

	// The same origin, and the resource's path the server's or one it is under.
	private static boolean isResourceOf(String resource, URI server) {
		URI named;
		try {
			named = URI.create(resource);
		}
		catch (IllegalArgumentException ex) {
			return false;
		}
		if (named.getScheme() == null || named.getHost() == null || named.getRawFragment() != null
				|| named.getRawUserInfo() != null || !Objects.equals(named.getRawQuery(), server.getRawQuery())) {
			return false;
		}
		URI own = URI.create(ResourceIndicator.of(server));
		if (!named.getScheme().equalsIgnoreCase(own.getScheme()) || !named.getHost().equalsIgnoreCase(own.getHost())
				|| port(named) != port(own)) {
			return false;
		}
		String path = trimmed(named.getRawPath());
		String ownPath = trimmed(own.getRawPath());
		return ownPath.equals(path) || ownPath.startsWith(path + "/");
	}

	private static int port(URI uri) {
		if (uri.getPort() != -1) {
			return uri.getPort();
		}
		return "https".equals(uri.getScheme().toLowerCase(Locale.ROOT)) ? 443 : 80;
	}

	private static String trimmed(@Nullable String path) {
		String trimmed = (path != null) ? path : "";
		while (trimmed.endsWith("/")) {
			trimmed = trimmed.substring(0, trimmed.length() - 1);
		}
		return trimmed;
	}

	private Found first(List<URI> locations, String what) {
		List<String> tried = new ArrayList<>();
		for (URI location : locations) {
			Answer answer = fetch(location, what);
			if (AuthorizationDiscoveryException.isOutage(answer.status())) {
				throw AuthorizationDiscoveryException
					.outage("the " + what + " at " + location + " answered HTTP " + answer.status(), null);
			}
			if (answer.status() >= 400 && answer.status() < 500) {
				tried.add(location + " (HTTP " + answer.status() + ")");
				continue;
			}
			if (answer.status() != 200) {
				throw new AuthorizationDiscoveryException(
						"the " + what + " at " + location + " answered HTTP " + answer.status());
			}
			if (answer.body().length > MAX_BYTES) {
				throw new AuthorizationDiscoveryException(
						"the " + what + " at " + location + " is larger than " + MAX_BYTES + " bytes");
			}
			Map<String, Object> document = this.exchange.object(answer);
			if (document == null) {
				throw new AuthorizationDiscoveryException("the " + what + " at " + location + " is not a JSON object");
			}
			return new Found(location, document);
		}
		throw new AuthorizationDiscoveryException("no " + what + " found: " + String.join(", ", tried));
	}

	private Answer fetch(URI location, String what) {
		return this.exchange.send(HttpRequest.newBuilder(location)
			.timeout(this.exchange.timeout())
			.header("Accept", "application/json")
			.GET()
			.build(), what);
	}

	// An authorization server's URL: https, or http on a loopback address only (RFC 8414
	// asks for https; a server on this machine, as in tests, may do without).
	private static URI secure(String url, String what) {
		URI uri = parsed(url);
		if (uri == null || !(uri.getScheme().equalsIgnoreCase("https") || isLoopback(uri))) {
			throw new AuthorizationDiscoveryException(
					what + " is not an https URL (or http on a loopback address): '" + quoted(url) + "'");
		}
		return uri;
	}

	// The metadata URL a server's challenge names: as secure as the server's own URL.
	private static @Nullable URI trusted(String url, URI server) {
		URI uri = parsed(url);
		if (uri == null) {
			return null;
		}
		boolean secure = uri.getScheme().equalsIgnoreCase("https") || isLoopback(uri)
				|| "http".equalsIgnoreCase(server.getScheme());
		return secure ? uri : null;
	}

	private static @Nullable URI parsed(String url) {
		try {
			URI uri = URI.create(url);
			if (uri.getScheme() != null && uri.getHost() != null
					&& (uri.getScheme().equalsIgnoreCase("https") || uri.getScheme().equalsIgnoreCase("http"))) {
				return uri;
			}
		}
		catch (IllegalArgumentException ex) {
			// not a URL
		}
		return null;
	}

	// Whether a URL names this machine: localhost, or an IP address literal of the
	// loopback range (127.0.0.0/8, ::1). A name that only starts like one
	// (127.example.com) is any host's; a host-less URL names none.
	static boolean isLoopback(URI uri) {
		String host = (uri.getHost() != null) ? uri.getHost().toLowerCase(Locale.ROOT) : "";
		if (host.equals("localhost")) {
			return true;
		}
		boolean ipv6 = host.startsWith("[") && host.endsWith("]");
		if (!ipv6 && !IPV4_LITERAL.matcher(host).matches()) {
			return false;
		}
		try {
			// a literal: parsed, never looked up
			return InetAddress.getByName(ipv6 ? host.substring(1, host.length() - 1) : host).isLoopbackAddress();
		}
		catch (UnknownHostException ex) {
			return false;
		}
	}

	private static @Nullable String string(Map<String, Object> document, String name) {
		return (document.get(name) instanceof String value) ? value : null;
	}

	private static @Nullable URI uri(Map<String, Object> document, String name) {
		String value = string(document, name);
		return (value != null) ? secure(value, name) : null;
	}

	private static List<String> strings(Map<String, Object> document, String name) {
		if (!(document.get(name) instanceof List<?> values)) {
			return List.of();
		}
		return values.stream().filter(String.class::isInstance).map(String.class::cast).toList();
	}

	private static String quoted(@Nullable String text) {
		return ServerText.bounded(String.valueOf(text), ServerText.MAX_LENGTH);
	}

	private record Found(URI location, Map<String, Object> document) {

	}

	/**
	 * What a server's protected resource metadata says.
	 *
	 * @param resource the resource its tokens are for
	 * @param authorizationServers the issuers of its authorization servers, in order
	 * @param scopesSupported the scopes it supports, empty when it names none
	 */
	record ProtectedResource(String resource, List<String> authorizationServers, List<String> scopesSupported) {

	}

	/**
	 * What an authorization server's metadata says.
	 *
	 * @param issuer its issuer identifier
	 * @param authorizationEndpoint where a person authorizes, or {@code null}
	 * @param tokenEndpoint where tokens are obtained
	 * @param registrationEndpoint where clients register themselves, or {@code null}
	 * @param codeChallengeMethods the PKCE methods it supports
	 * @param tokenEndpointAuthMethods how clients may authenticate to the token endpoint
	 * @param grantTypes the grant types it supports, empty when it names none
	 * @param scopesSupported the scopes it supports, empty when it names none
	 * @param clientIdMetadataDocuments whether it takes Client ID Metadata Documents
	 * @param issInAuthorizationResponse whether it sends {@code iss} in its authorization
	 * responses (RFC 9207)
	 */
	record AuthorizationServer(String issuer, @Nullable URI authorizationEndpoint, URI tokenEndpoint,
			@Nullable URI registrationEndpoint, List<String> codeChallengeMethods,
			List<String> tokenEndpointAuthMethods, List<String> grantTypes, List<String> scopesSupported,
			boolean clientIdMetadataDocuments, boolean issInAuthorizationResponse) {

		/**
		 * Returns whether a person can authorize here with PKCE as the specification
		 * requires: an authorization endpoint and {@code S256} among the methods it names
		 * (a server that names none is not taken to support it).
		 * @return whether the authorization code grant can be used
		 */
		boolean supportsAuthorizationCodeWithPkce() {
			return this.authorizationEndpoint != null && this.codeChallengeMethods.contains("S256");
		}

	}

}
