package io.github.mcpsupervisor.autoconfigure.properties;

import java.net.http.HttpClient;

/**
 * The HTTP version of a streamable-http server's requests.
 *
 * @since 0.1.0
 */
public enum McpHttpVersion {

	/** HTTP/1.1. */
	HTTP_1_1(HttpClient.Version.HTTP_1_1),

	/** HTTP/2 over TLS where the server offers it (ALPN), HTTP/1.1 otherwise. */
	HTTP_2(HttpClient.Version.HTTP_2);

	private final HttpClient.Version version;

	McpHttpVersion(HttpClient.Version version) {
		this.version = version;
	}

	/**
	 * Returns the version as the JDK's HTTP client names it.
	 * @return the version
	 */
	public HttpClient.Version version() {
		return this.version;
	}

}
