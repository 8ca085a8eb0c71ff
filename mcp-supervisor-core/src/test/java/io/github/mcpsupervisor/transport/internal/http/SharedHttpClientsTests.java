package io.github.mcpsupervisor.transport.internal.http;

import java.net.InetSocketAddress;
import java.net.Proxy;
import java.net.URI;
import java.net.http.HttpClient;
import java.time.Duration;

import javax.net.ssl.SSLContext;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

/**
 * Tests for {@link SharedHttpClients}: the settings of a server become its JDK client's,
 * and servers with equal settings share one client.
 */
class SharedHttpClientsTests {

	private static final HttpClientSettings DEFAULTS = HttpClientSettings.DEFAULTS;

	private final SharedHttpClients clients = new SharedHttpClients(HttpTls.Resolver.NONE);

	@AfterEach
	void close() {
		this.clients.close();
	}

	@Test
	void serversWithEqualSettingsShareOneClient() {
		SharedHttpClient first = this.clients.client("a", DEFAULTS);
		SharedHttpClient second = this.clients.client("b",
				new HttpClientSettings(Duration.ofSeconds(10), HttpClient.Version.HTTP_1_1, null, null));
		assertThat(second).isSameAs(first);
		assertThat(this.clients.size()).isOne();
	}

	@Test
	void serversWithOtherSettingsHaveClientsOfTheirOwn() {
		SharedHttpClient plain = this.clients.client("a", DEFAULTS);
		SharedHttpClient slow = this.clients.client("b",
				new HttpClientSettings(Duration.ofSeconds(30), HttpClient.Version.HTTP_1_1, null, null));
		SharedHttpClient proxied = this.clients.client("c", new HttpClientSettings(Duration.ofSeconds(10),
				HttpClient.Version.HTTP_1_1, InetSocketAddress.createUnresolved("proxy.example", 3128), null));
		assertThat(plain).isNotSameAs(slow).isNotSameAs(proxied);
		assertThat(this.clients.size()).isEqualTo(3);
	}

	@Test
	void theDefaultSettingsAreHttp11ATenSecondConnectTimeoutNoRedirectsAndTheJvmsProxySelector() {
		HttpClient client = this.clients.client("a", DEFAULTS).httpClient();
		assertThat(client.version()).isEqualTo(HttpClient.Version.HTTP_1_1);
		assertThat(client.connectTimeout()).contains(Duration.ofSeconds(10));
		assertThat(client.followRedirects()).isEqualTo(HttpClient.Redirect.NEVER);
		assertThat(client.proxy()).isEmpty();
		assertThat(client.executor()).isPresent();
	}

	@Test
	void theSettingsBecomeTheClients() throws Exception {
		HttpClient client = this.clients
			.client("a",
					new HttpClientSettings(Duration.ofMillis(1500), HttpClient.Version.HTTP_2,
							InetSocketAddress.createUnresolved("proxy.example", 3128), null))
			.httpClient();
		assertThat(client.version()).isEqualTo(HttpClient.Version.HTTP_2);
		assertThat(client.connectTimeout()).contains(Duration.ofMillis(1500));
		assertThat(client.proxy()).hasValueSatisfying(
				(selector) -> assertThat(selector.select(URI.create("https://mcp.example/mcp"))).containsExactly(
						new Proxy(Proxy.Type.HTTP, InetSocketAddress.createUnresolved("proxy.example", 3128))));
		assertThat(client.sslContext()).isSameAs(SSLContext.getDefault());
	}

	@Test
	void closedClientsAreRefused() {
		SharedHttpClient client = this.clients.client("a", DEFAULTS);
		this.clients.close();
		assertThatIllegalStateException().isThrownBy(client::httpClient);
		assertThatIllegalStateException().isThrownBy(() -> this.clients.client("a", DEFAULTS));
	}

}
