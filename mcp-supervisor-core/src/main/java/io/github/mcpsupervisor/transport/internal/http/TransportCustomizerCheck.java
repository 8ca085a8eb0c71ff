package io.github.mcpsupervisor.transport.internal.http;

import java.net.Authenticator;
import java.net.CookieHandler;
import java.net.ProxySelector;
import java.net.URI;
import java.net.http.HttpClient;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BiConsumer;

import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLParameters;

import io.modelcontextprotocol.client.transport.HttpClientStreamableHttpTransport;
import org.jspecify.annotations.Nullable;

/**
 * Refuses, at startup, the settings of the HTTP client that the application's customizers
 * of the transport builder ({@code McpClientCustomizer<HttpClientStreamableHttpTransport
 * .Builder>}) make: the servers share JDK clients by their {@code http} settings, so that
 * a customizer's own client builder, its {@code customizeClient} settings and its connect
 * timeout could only be dropped. The customizers are applied once, with the server's
 * name, to a builder of the server's transport that records them.
 *
 * @since 0.1.0
 */
public final class TransportCustomizerCheck {

	private static final String CUSTOMIZER = "McpClientCustomizer<HttpClientStreamableHttpTransport.Builder>";

	private static volatile @Nullable Duration defaultConnectTimeout;

	private TransportCustomizerCheck() {
	}

	/**
	 * Checks what the customizers set on the HTTP client of a server.
	 * @param server the server's name
	 * @param url the server's URL, or {@code null} when it has none (refused elsewhere)
	 * @param customizer what the application adds to the server's transport
	 * @throws IllegalStateException if a customizer sets a setting of the HTTP client
	 */
	public static void check(String server, @Nullable URI url, HttpTransportCustomizer customizer) {
		if (url == null || customizer.transportCustomizers().isEmpty()) {
			return;
		}
		RecordingClientBuilder recorder = new RecordingClientBuilder();
		HttpClientStreamableHttpTransport.Builder builder = builder(url).clientBuilder(recorder);
		try {
			for (BiConsumer<String, HttpClientStreamableHttpTransport.Builder> each : customizer
				.transportCustomizers()) {
				each.accept(server, builder);
			}
		}
		catch (RuntimeException ex) {
			// a customizer that fails fails each connection attempt, as a configuration
			// error naming its failure
			return;
		}
		Map<String, String> refused = new LinkedHashMap<>(recorder.settings(server));
		AtomicReference<HttpClient.Builder> current = new AtomicReference<>();
		builder.customizeClient(current::set);
		if (current.get() != recorder) {
			refused.put("clientBuilder", "mcp.servers." + server + ".http.*");
		}
		else if (!defaultConnectTimeout().equals(recorder.connectTimeoutAtBuild(builder))) {
			refused.put("connectTimeout", "mcp.servers." + server + ".http.connect-timeout");
		}
		if (!refused.isEmpty()) {
			StringBuilder message = new StringBuilder("MCP server '" + server + "': an " + CUSTOMIZER
					+ " sets the HTTP client's " + String.join(", ", refused.keySet())
					+ ", which the supervisor cannot apply (the streamable-http servers share HTTP clients by"
					+ " their settings); remove it from the customizer and set instead:");
			refused.forEach((setting,
					instead) -> message.append(" ").append(setting).append(" -> ").append(instead).append(";"));
			message.setLength(message.length() - 1);
			throw new IllegalStateException(message.toString());
		}
	}

	private static HttpClientStreamableHttpTransport.Builder builder(URI url) {
		return HttpClientStreamableHttpTransport.builder(url.getScheme() + "://" + url.getRawAuthority())
			.endpoint(url.toString());
	}

	// what the SDK's builder hands its client builder when nothing set a timeout
	private static Duration defaultConnectTimeout() {
		Duration current = defaultConnectTimeout;
		if (current == null) {
			RecordingClientBuilder recorder = new RecordingClientBuilder();
			current = recorder
				.connectTimeoutAtBuild(builder(URI.create("http://127.0.0.1/mcp")).clientBuilder(recorder));
			defaultConnectTimeout = current;
		}
		return current;
	}

	/**
	 * Records the settings made on it; at {@code build()} it records the connect timeout
	 * the transport builder sets and stops the building there.
	 */
	private static final class RecordingClientBuilder implements HttpClient.Builder {

		private final Map<String, String> settings = new LinkedHashMap<>();

		private boolean building;

		private @Nullable Duration connectTimeout;

		Map<String, String> settings(String server) {
			Map<String, String> named = new LinkedHashMap<>();
			this.settings.forEach((setting, instead) -> named.put(setting, instead.replace("{server}", server)));
			return named;
		}

		@Nullable Duration connectTimeoutAtBuild(HttpClientStreamableHttpTransport.Builder builder) {
			this.building = true;
			try {
				builder.build();
			}
			catch (Built ex) {
				// stopped before the transport was created
			}
			return this.connectTimeout;
		}

		private HttpClient.Builder set(String setting, String instead) {
			this.settings.put(setting, instead);
			return this;
		}

		@Override
		public HttpClient.Builder cookieHandler(CookieHandler cookieHandler) {
			return set("cookieHandler", "nothing (not supported)");
		}

		@Override
		public HttpClient.Builder connectTimeout(Duration duration) {
			if (this.building) {
				this.connectTimeout = duration;
				return this;
			}
			return set("connectTimeout", "mcp.servers.{server}.http.connect-timeout");
		}

		@Override
		public HttpClient.Builder sslContext(SSLContext sslContext) {
			return set("sslContext", "mcp.servers.{server}.http.ssl.bundle (spring.ssl.bundle.*)");
		}

		@Override
		public HttpClient.Builder sslParameters(SSLParameters sslParameters) {
			return set("sslParameters", "mcp.servers.{server}.http.ssl.bundle (spring.ssl.bundle.*.options)");
		}

		@Override
		public HttpClient.Builder executor(Executor executor) {
			return set("executor", "nothing (the servers share the executor of their clients' callbacks)");
		}

		@Override
		public HttpClient.Builder followRedirects(HttpClient.Redirect policy) {
			return set("followRedirects",
					"nothing (redirects are never followed: a server's credentials go to its URL only)");
		}

		@Override
		public HttpClient.Builder version(HttpClient.Version version) {
			return set("version", "mcp.servers.{server}.http.version");
		}

		@Override
		public HttpClient.Builder priority(int priority) {
			return set("priority", "nothing (not supported)");
		}

		@Override
		public HttpClient.Builder proxy(ProxySelector proxySelector) {
			return set("proxy", "mcp.servers.{server}.http.proxy.host and port");
		}

		@Override
		public HttpClient.Builder authenticator(Authenticator authenticator) {
			return set("authenticator",
					"mcp.servers.{server}.headers or oauth (proxy authentication is not supported)");
		}

		@Override
		public HttpClient build() {
			throw new Built();
		}

	}

	private static final class Built extends RuntimeException {

		Built() {
			super(null, null, false, false);
		}

	}

}
