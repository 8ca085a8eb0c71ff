package io.github.mcpsupervisor.transport.internal.http.authorization;

import java.net.URI;
import java.util.Locale;

/**
 * The canonical URI of an MCP server as the resource of its tokens (RFC 8707), as the MCP
 * authorization specification writes it: scheme and host in lower case, no fragment, no
 * trailing slash; port, path and query as given. User information is left out: it is the
 * server's credentials, and the resource goes to the authorization server.
 *
 */
final class ResourceIndicator {

	private ResourceIndicator() {
	}

	/**
	 * Returns the canonical URI of a server's URL.
	 * @param server the server's URL (absolute, http or https)
	 * @return its canonical URI
	 */
	static String of(URI server) {
		String scheme = server.getScheme();
		if (scheme == null || server.getRawAuthority() == null
				|| !(scheme.equalsIgnoreCase("http") || scheme.equalsIgnoreCase("https"))) {
			throw new IllegalArgumentException("not an absolute http(s) URL: " + server);
		}
		String host = (server.getHost() != null) ? server.getHost().toLowerCase(Locale.ROOT) : "";
		String port = (server.getPort() != -1) ? ":" + server.getPort() : "";
		String path = (server.getRawPath() != null) ? server.getRawPath() : "";
		while (path.endsWith("/")) {
			path = path.substring(0, path.length() - 1);
		}
		String query = (server.getRawQuery() != null) ? "?" + server.getRawQuery() : "";
		return scheme.toLowerCase(Locale.ROOT) + "://" + host + port + path + query;
	}

}
