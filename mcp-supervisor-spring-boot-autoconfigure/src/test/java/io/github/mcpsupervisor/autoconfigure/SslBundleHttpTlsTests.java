package io.github.mcpsupervisor.autoconfigure;

import java.net.http.HttpClient;
import java.time.Duration;

import javax.net.ssl.SSLContext;

import io.github.mcpsupervisor.transport.internal.http.HttpClientSettings;
import io.github.mcpsupervisor.transport.internal.http.SharedHttpClients;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import org.springframework.boot.ssl.DefaultSslBundleRegistry;
import org.springframework.boot.ssl.SslBundle;
import org.springframework.boot.ssl.SslOptions;
import org.springframework.boot.ssl.pem.PemSslStoreBundle;
import org.springframework.boot.ssl.pem.PemSslStoreDetails;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

/**
 * Tests for {@link SslBundleHttpTls}: the SSL bundle a server's settings name becomes its
 * HTTP client's TLS, and a bundle that is not there is refused naming the server and the
 * bundle.
 */
class SslBundleHttpTlsTests {

	private final DefaultSslBundleRegistry bundles = new DefaultSslBundleRegistry();

	private final SharedHttpClients clients = new SharedHttpClients(new SslBundleHttpTls(this.bundles));

	@AfterEach
	void close() {
		this.clients.close();
	}

	@Test
	void anSslBundleGivesItsContextAndOptions() throws Exception {
		this.bundles.registerBundle("loopback",
				SslBundle.of(
						new PemSslStoreBundle(null,
								PemSslStoreDetails.forCertificate("classpath:tls/loopback-cert.pem")),
						null, SslOptions.of(new String[] { "TLS_AES_128_GCM_SHA256" }, new String[] { "TLSv1.3" })));
		HttpClient client = this.clients
			.client("a", new HttpClientSettings(Duration.ofSeconds(10), HttpClient.Version.HTTP_1_1, null, "loopback"))
			.httpClient();
		assertThat(client.sslContext()).isNotSameAs(SSLContext.getDefault());
		assertThat(client.sslParameters().getProtocols()).containsExactly("TLSv1.3");
		assertThat(client.sslParameters().getCipherSuites()).containsExactly("TLS_AES_128_GCM_SHA256");
	}

	@Test
	void anSslBundleThatIsNotDefinedIsRefusedNamingTheServerAndTheBundle() {
		assertThatIllegalStateException()
			.isThrownBy(() -> this.clients.client("secure",
					new HttpClientSettings(Duration.ofSeconds(10), HttpClient.Version.HTTP_1_1, null, "corp-ca")))
			.withMessage("MCP server 'secure' names SSL bundle 'corp-ca' (mcp.servers.secure.http.ssl.bundle or"
					+ " mcp.defaults.http.ssl.bundle), but no SSL bundle of that name is defined: define it with"
					+ " spring.ssl.bundle.pem.corp-ca.* or spring.ssl.bundle.jks.corp-ca.*");
	}

	@Test
	void withoutSslBundlesABundleIsRefused() {
		try (SharedHttpClients without = new SharedHttpClients(new SslBundleHttpTls(null))) {
			assertThatIllegalStateException()
				.isThrownBy(() -> without.client("secure",
						new HttpClientSettings(Duration.ofSeconds(10), HttpClient.Version.HTTP_1_1, null, "corp-ca")))
				.withMessageContaining("the application has no SSL bundles");
		}
	}

}
