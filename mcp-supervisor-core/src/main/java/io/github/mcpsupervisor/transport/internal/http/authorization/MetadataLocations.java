package io.github.mcpsupervisor.transport.internal.http.authorization;

import java.net.URI;
import java.util.List;

/**
 * Where a client looks up the metadata of a protected MCP server and of its authorization
 * server, in the order the MCP authorization specification gives: the well-known URIs of
 * RFC 9728 (path inserted after the host, then at the root) for the protected resource;
 * those of RFC 8414 and OpenID Connect Discovery for the authorization server (path
 * inserted for both, then appended for OpenID Connect).
 *
 */
final class MetadataLocations {

	private static final String PROTECTED_RESOURCE = "/.well-known/oauth-protected-resource";

	private static final String AUTHORIZATION_SERVER = "/.well-known/oauth-authorization-server";

	private static final String OPENID = "/.well-known/openid-configuration";

	private MetadataLocations() {
	}

	/**
	 * Returns the URLs of the protected resource metadata of a server that named none in
	 * its challenge, in the order they are tried.
	 * @param server the server's URL (absolute, http or https)
	 * @return the path-aware URL (the query kept, RFC 9728 section 3.1), then the root
	 * one; the root one only when the URL has neither path nor query
	 */
	static List<URI> protectedResource(URI server) {
		String path = path(server);
		String query = (server.getRawQuery() != null) ? "?" + server.getRawQuery() : "";
		URI root = at(server, PROTECTED_RESOURCE);
		return (path.isEmpty() && query.isEmpty()) ? List.of(root)
				: List.of(at(server, PROTECTED_RESOURCE + path + query), root);
	}

	/**
	 * Returns the URLs of the metadata of an authorization server, in the order they are
	 * tried.
	 * @param issuer the authorization server's issuer identifier
	 * @return for an issuer with a path: RFC 8414 with the path inserted, OpenID Connect
	 * with the path inserted, OpenID Connect with the path appended; without a path: RFC
	 * 8414, then OpenID Connect
	 */
	static List<URI> authorizationServer(URI issuer) {
		String path = path(issuer);
		if (path.isEmpty()) {
			return List.of(at(issuer, AUTHORIZATION_SERVER), at(issuer, OPENID));
		}
		return List.of(at(issuer, AUTHORIZATION_SERVER + path), at(issuer, OPENID + path), at(issuer, path + OPENID));
	}

	// The path without its trailing slash, as written (percent-encoding kept).
	private static String path(URI uri) {
		String path = (uri.getRawPath() != null) ? uri.getRawPath() : "";
		while (path.endsWith("/")) {
			path = path.substring(0, path.length() - 1);
		}
		return path;
	}

	private static URI at(URI base, String path) {
		String scheme = base.getScheme();
		if (scheme == null || base.getHost() == null
				|| !(scheme.equalsIgnoreCase("http") || scheme.equalsIgnoreCase("https"))) {
			throw new IllegalArgumentException("not an absolute http(s) URL: " + base);
		}
		return URI.create(base.getScheme() + "://" + base.getRawAuthority() + path);
	}

}
