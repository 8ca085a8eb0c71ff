package io.github.mcpsupervisor.transport.internal.http;

import java.net.InetSocketAddress;
import java.net.http.HttpClient;
import java.time.Duration;

import org.jspecify.annotations.Nullable;

/**
 * The settings of a JDK {@link HttpClient} that Streamable HTTP servers share: servers
 * whose settings are equal share one client, with its connection pool and its selector
 * thread.
 *
 * @param connectTimeout the timeout of establishing each connection
 * @param version the HTTP version of the requests
 * @param proxy the HTTP proxy (an unresolved address), or {@code null} for the JVM's
 * default proxy selector
 * @param sslBundle the name of the SSL bundle of the TLS connections, or {@code null} for
 * the JVM's default trust store
 * @since 0.1.0
 */
public record HttpClientSettings(Duration connectTimeout, HttpClient.Version version, @Nullable InetSocketAddress proxy,
		@Nullable String sslBundle) {

	/** The settings of a server that sets none. */
	public static final HttpClientSettings DEFAULTS = new HttpClientSettings(Duration.ofSeconds(10),
			HttpClient.Version.HTTP_1_1, null, null);

	/**
	 * Returns the settings of a server's configuration.
	 * @param connectTimeout the connect timeout
	 * @param version the HTTP version
	 * @param proxyHost the proxy's host (an IPv6 address may be in brackets), or
	 * {@code null} for none
	 * @param proxyPort the proxy's port, or {@code null} for none
	 * @param sslBundle the name of the SSL bundle, or {@code null} for none
	 * @return the settings
	 */
	public static HttpClientSettings of(Duration connectTimeout, HttpClient.Version version, @Nullable String proxyHost,
			@Nullable Integer proxyPort, @Nullable String sslBundle) {
		InetSocketAddress proxy = (proxyHost != null && proxyPort != null)
				? InetSocketAddress.createUnresolved(unbracketed(proxyHost), proxyPort) : null;
		return new HttpClientSettings(connectTimeout, version, proxy, sslBundle);
	}

	private static String unbracketed(String host) {
		return (host.startsWith("[") && host.endsWith("]")) ? host.substring(1, host.length() - 1) : host;
	}

}
