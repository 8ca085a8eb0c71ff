package io.github.mcpsupervisor.transport.internal.http;

import java.net.InetSocketAddress;
import java.net.ProxySelector;
import java.net.URI;
import java.net.http.HttpClient;
import java.time.Duration;
import java.util.List;
import java.util.function.BiConsumer;

import javax.net.ssl.SSLContext;

import io.modelcontextprotocol.client.transport.HttpClientStreamableHttpTransport;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThatIllegalStateException;
import static org.assertj.core.api.Assertions.assertThatNoException;

/**
 * Tests for {@link TransportCustomizerCheck}: what a customizer of the transport builder
 * sets on the HTTP client is refused, never dropped.
 */
class TransportCustomizerCheckTests {

	private static final URI URL = URI.create("https://mcp.example/mcp");

	@Test
	void settingsOfCustomizeClientAreRefusedNamingThePropertiesToSetInstead() {
		assertThatIllegalStateException()
			.isThrownBy(() -> check((server, builder) -> builder.customizeClient((client) -> {
				try {
					client.sslContext(SSLContext.getDefault())
						.proxy(ProxySelector.of(InetSocketAddress.createUnresolved("proxy", 3128)));
				}
				catch (Exception ex) {
					throw new IllegalStateException(ex);
				}
			})))
			.withMessageStartingWith("MCP server 'remote': an"
					+ " McpClientCustomizer<HttpClientStreamableHttpTransport.Builder> sets the HTTP client's"
					+ " sslContext, proxy, which the supervisor cannot apply")
			.withMessageContaining("sslContext -> mcp.servers.remote.http.ssl.bundle (spring.ssl.bundle.*)")
			.withMessageContaining("proxy -> mcp.servers.remote.http.proxy.host and port");
	}

	@Test
	void aClientBuilderOfItsOwnIsRefused() {
		assertThatIllegalStateException()
			.isThrownBy(() -> check((server, builder) -> builder
				.clientBuilder(HttpClient.newBuilder().version(HttpClient.Version.HTTP_2))))
			.withMessageContaining("sets the HTTP client's clientBuilder")
			.withMessageContaining("clientBuilder -> mcp.servers.remote.http.*");
	}

	@Test
	void aConnectTimeoutOfTheTransportBuilderIsRefused() {
		assertThatIllegalStateException()
			.isThrownBy(() -> check((server, builder) -> builder.connectTimeout(Duration.ofSeconds(3))))
			.withMessageContaining("sets the HTTP client's connectTimeout")
			.withMessageContaining("connectTimeout -> mcp.servers.remote.http.connect-timeout");
	}

	@Test
	void redirectsAndAnAuthenticatorAreRefusedAsUnsupported() {
		assertThatIllegalStateException()
			.isThrownBy(() -> check((server, builder) -> builder
				.customizeClient((client) -> client.followRedirects(HttpClient.Redirect.ALWAYS).authenticator(null))))
			.withMessageContaining("followRedirects -> nothing (redirects are never followed")
			.withMessageContaining("authenticator -> mcp.servers.remote.headers or oauth");
	}

	@Test
	void customizersThatLeaveTheClientAlonePass() {
		assertThatNoException().isThrownBy(() -> check((server, builder) -> builder.resumableStreams(true)
			.supportedProtocolVersions(List.of("2025-11-25"))
			.openConnectionOnStartup(false)));
	}

	@Test
	void aCustomizerThatFailsIsLeftToTheConnectionAttempts() {
		assertThatNoException().isThrownBy(() -> check((server, builder) -> {
			throw new IllegalArgumentException("no tenant");
		}));
	}

	private static void check(BiConsumer<String, HttpClientStreamableHttpTransport.Builder> customizer) {
		TransportCustomizerCheck.check("remote", URL, new HttpTransportCustomizer(List.of(), List.of(customizer)));
	}

}
