package io.github.mcpsupervisor.e2e;

import java.util.Arrays;

import javax.net.ssl.SSLContext;

import io.github.mcpsupervisor.autoconfigure.McpSupervisorAutoConfiguration;
import io.github.mcpsupervisor.supervisor.McpServerState;
import io.github.mcpsupervisor.supervisor.McpSupervisors;
import io.github.mcpsupervisor.transport.internal.http.SharedHttpClients;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import org.springframework.ai.tool.ToolCallback;
import org.springframework.ai.tool.ToolCallbackProvider;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.ssl.SslAutoConfiguration;
import org.springframework.boot.ssl.SslBundle;
import org.springframework.boot.ssl.pem.PemSslStoreBundle;
import org.springframework.boot.ssl.pem.PemSslStoreDetails;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The HTTP client settings of streamable-http servers against a real https server on a
 * loopback port whose certificate (for 127.0.0.1) no JVM trusts: a server whose SSL
 * bundle (spring.ssl.bundle.pem.*) trusts it connects, one without is refused by TLS, and
 * one with a proxy reaches it through the proxy.
 */
class HttpClientSettingsIT {

	private LoopbackMcpHttpServer remote;

	private ConnectProxy proxy;

	@BeforeEach
	void start() throws Exception {
		SSLContext tls = SslBundle
			.of(new PemSslStoreBundle(PemSslStoreDetails.forCertificate("classpath:tls/loopback-cert.pem")
				.withPrivateKey("classpath:tls/loopback-key.pem"), null))
			.createSslContext();
		this.remote = new LoopbackMcpHttpServer(false, tls);
		this.proxy = new ConnectProxy();
	}

	@AfterEach
	void stop() throws Exception {
		this.remote.close();
		this.proxy.close();
	}

	@Test
	void aServerIsReachedWithItsSslBundleAndThroughItsProxyAndRefusedWithoutTheBundle() {
		String url = this.remote.url(null).toString();
		assertThat(url).startsWith("https://127.0.0.1:");
		new ApplicationContextRunner()
			.withConfiguration(AutoConfigurations.of(McpSupervisorAutoConfiguration.class, SslAutoConfiguration.class))
			.withPropertyValues("spring.ssl.bundle.pem.loopback.truststore.certificate=classpath:tls/loopback-cert.pem",
					"mcp.defaults.protocol=2025-11-25", "mcp.defaults.reconnect.initial-delay=10s",
					"mcp.servers.trusting.transport=streamable-http", "mcp.servers.trusting.url=" + url,
					"mcp.servers.trusting.http.ssl.bundle=loopback", "mcp.servers.untrusting.transport=streamable-http",
					"mcp.servers.untrusting.url=" + url, "mcp.servers.proxied.transport=streamable-http",
					"mcp.servers.proxied.url=" + url, "mcp.servers.proxied.http.ssl.bundle=loopback",
					"mcp.servers.proxied.http.proxy.host=127.0.0.1",
					"mcp.servers.proxied.http.proxy.port=" + this.proxy.port())
			.run((context) -> {
				McpSupervisors supervisors = context.getBean(McpSupervisors.class);
				await().atMost(TestServers.PATIENCE)
					.untilAsserted(() -> assertThat(supervisors.supervisor("untrusting").status().lastError())
						.contains("unable to find valid certification path"));
				assertThat(supervisors.supervisor("untrusting").state()).isNotEqualTo(McpServerState.UP);
				assertThat(supervisors.supervisor("trusting").state()).isEqualTo(McpServerState.UP);
				assertThat(supervisors.supervisor("proxied").state()).isEqualTo(McpServerState.UP);
				assertThat(echo(context.getBean(ToolCallbackProvider.class), "trusting_echo")).contains("over TLS");
				assertThat(echo(context.getBean(ToolCallbackProvider.class), "proxied_echo")).contains("over TLS");
				assertThat(this.proxy.requests()).isNotEmpty()
					.allMatch((request) -> request
						.equals("CONNECT 127.0.0.1:" + this.remote.url(null).getPort() + " HTTP/1.1"));
				// trusting and proxied differ by the proxy, untrusting by the bundle
				assertThat(context.getBean(SharedHttpClients.class).size()).isEqualTo(3);
			});
	}

	private static String echo(ToolCallbackProvider provider, String name) {
		ToolCallback echo = Arrays.stream(provider.getToolCallbacks())
			.filter((callback) -> callback.getToolDefinition().name().equals(name))
			.findFirst()
			.orElseThrow();
		return echo.call("{\"message\":\"over TLS\"}");
	}

}
