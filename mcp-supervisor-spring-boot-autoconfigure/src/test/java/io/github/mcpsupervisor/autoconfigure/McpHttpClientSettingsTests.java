package io.github.mcpsupervisor.autoconfigure;

import java.net.InetSocketAddress;
import java.net.http.HttpClient;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;

import io.github.mcpsupervisor.autoconfigure.properties.McpHttpVersion;
import io.github.mcpsupervisor.autoconfigure.properties.McpSupervisorProperties;
import io.github.mcpsupervisor.autoconfigure.properties.internal.McpServerSettings;
import io.github.mcpsupervisor.autoconfigure.properties.internal.McpServerSettingsResolver;
import io.github.mcpsupervisor.transport.internal.http.HttpClientSettings;
import io.github.mcpsupervisor.transport.internal.http.SharedHttpClients;
import io.modelcontextprotocol.client.transport.HttpClientStreamableHttpTransport;
import org.junit.jupiter.api.Test;

import org.springframework.ai.mcp.customizer.McpClientCustomizer;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.ssl.SslAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The HTTP client settings of the streamable-http servers: {@code mcp.defaults.http.*}
 * and {@code mcp.servers.<name>.http.*}, their SSL bundles, and the customizer settings
 * they replace.
 */
class McpHttpClientSettingsTests {

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(McpSupervisorAutoConfiguration.class, SslAutoConfiguration.class))
		.withPropertyValues("spring.ssl.bundle.pem.corp.truststore.certificate=classpath:tls/loopback-cert.pem");

	@Test
	void runWhenNothingIsSetShouldAServerHaveTheDefaultSettings() {
		this.contextRunner.withPropertyValues(server("a")).run((context) -> {
			McpServerSettings server = servers(context.getBean(McpSupervisorProperties.class)).get("a");
			assertThat(server.http())
				.isEqualTo(new McpSupervisorProperties.Http(Duration.ofSeconds(10), McpHttpVersion.HTTP_1_1,
						new McpSupervisorProperties.Ssl(null), new McpSupervisorProperties.Proxy(null, null)));
			assertThat(DefaultMcpConnectorFactory.httpClientSettings(server)).isEqualTo(HttpClientSettings.DEFAULTS);
		});
	}

	@Test
	void runWhenDefaultsSetHttpShouldServersInheritThemAndOverrideThemOneByOne() {
		this.contextRunner
			.withPropertyValues(concat(server("a"), server("b"), "mcp.defaults.http.connect-timeout=3s",
					"mcp.defaults.http.version=http-2", "mcp.defaults.http.ssl.bundle=corp",
					"mcp.defaults.http.proxy.host=proxy.example", "mcp.defaults.http.proxy.port=3128",
					"mcp.servers.b.http.connect-timeout=500ms", "mcp.servers.b.http.version=http-1-1",
					"mcp.servers.b.http.proxy.host=[::1]", "mcp.servers.b.http.proxy.port=8080"))
			.run((context) -> {
				Map<String, McpServerSettings> servers = servers(context.getBean(McpSupervisorProperties.class));
				assertThat(DefaultMcpConnectorFactory.httpClientSettings(servers.get("a")))
					.isEqualTo(new HttpClientSettings(Duration.ofSeconds(3), HttpClient.Version.HTTP_2,
							InetSocketAddress.createUnresolved("proxy.example", 3128), "corp"));
				assertThat(DefaultMcpConnectorFactory.httpClientSettings(servers.get("b")))
					.isEqualTo(new HttpClientSettings(Duration.ofMillis(500), HttpClient.Version.HTTP_1_1,
							InetSocketAddress.createUnresolved("::1", 8080), "corp"));
			});
	}

	@Test
	void runWhenServersHaveEqualSettingsShouldTheyShareOneClient() {
		this.contextRunner
			.withPropertyValues(concat(server("a"), server("b"), server("c"), server("d"),
					"mcp.servers.c.http.ssl.bundle=corp", "mcp.servers.d.http.connect-timeout=10s"))
			.run((context) -> {
				assertThat(context).hasNotFailed();
				// a, b and d have the default settings (d sets the default timeout)
				assertThat(context.getBean(SharedHttpClients.class).size()).isEqualTo(2);
			});
	}

	@Test
	void runWhenAServerNamesAnUnknownSslBundleShouldFailNamingTheServerAndTheBundle() {
		this.contextRunner.withPropertyValues(concat(server("secure"), "mcp.servers.secure.http.ssl.bundle=missing"))
			.run((context) -> assertThat(context).hasFailed()
				.getFailure()
				.hasStackTraceContaining(
						"MCP server 'secure' names SSL bundle 'missing' (mcp.servers.secure.http.ssl.bundle or"
								+ " mcp.defaults.http.ssl.bundle), but no SSL bundle of that name is defined: define it"
								+ " with spring.ssl.bundle.pem.missing.* or spring.ssl.bundle.jks.missing.*"));
	}

	@Test
	void runWhenAProxyHasAHostAndNoPortShouldFail() {
		this.contextRunner.withPropertyValues(concat(server("a"), "mcp.servers.a.http.proxy.host=proxy.example"))
			.run((context) -> assertThat(context).hasFailed()
				.getFailure()
				.hasStackTraceContaining("host and port must be set together"));
	}

	@Test
	void runWhenAProxyHostIsAUrlShouldFail() {
		this.contextRunner
			.withPropertyValues(concat(server("a"), "mcp.defaults.http.proxy.host=http://proxy.example:3128",
					"mcp.defaults.http.proxy.port=3128"))
			.run((context) -> assertThat(context).hasFailed()
				.getFailure()
				.hasStackTraceContaining("must be a host name or an IP address, without a scheme or a port"));
	}

	@Test
	void runWhenAVersionIsUnknownShouldFail() {
		this.contextRunner.withPropertyValues(concat(server("a"), "mcp.servers.a.http.version=http-3"))
			.run((context) -> assertThat(context).hasFailed()
				.getFailure()
				.hasStackTraceContaining("mcp.servers.a.http.version"));
	}

	@Test
	void runWhenATransportCustomizerSetsTheSslContextShouldFailTheStartRatherThanDropIt() {
		this.contextRunner.withUserConfiguration(SslContextCustomizer.class)
			.withPropertyValues(concat(server("a"), "mcp.servers.a.protocol=2025-11-25"))
			.run((context) -> assertThat(context).hasFailed()
				.getFailure()
				.rootCause()
				.hasMessageContaining("MCP server 'a': an"
						+ " McpClientCustomizer<HttpClientStreamableHttpTransport.Builder> sets the HTTP client's"
						+ " sslContext")
				.hasMessageContaining("mcp.servers.a.http.ssl.bundle"));
	}

	private static Map<String, McpServerSettings> servers(McpSupervisorProperties properties) {
		return McpServerSettingsResolver.resolve(properties)
			.stream()
			.collect(Collectors.toMap(McpServerSettings::name, Function.identity()));
	}

	private static String[] server(String name) {
		return new String[] { "mcp.servers." + name + ".transport=streamable-http",
				"mcp.servers." + name + ".url=http://127.0.0.1:1/mcp",
				"mcp.servers." + name + ".reconnect.enabled=false", "mcp.servers." + name + ".protocol=2025-11-25" };
	}

	private static String[] concat(Object... parts) {
		return List.of(parts)
			.stream()
			.flatMap((part) -> (part instanceof String[] many) ? List.of(many).stream()
					: List.of((String) part).stream())
			.toArray(String[]::new);
	}

	@Configuration(proxyBeanMethods = false)
	static class SslContextCustomizer {

		@Bean
		McpClientCustomizer<HttpClientStreamableHttpTransport.Builder> sslContext() {
			return (name, builder) -> builder.customizeClient((client) -> {
				try {
					client.sslContext(javax.net.ssl.SSLContext.getDefault());
				}
				catch (java.security.NoSuchAlgorithmException ex) {
					throw new IllegalStateException(ex);
				}
			});
		}

	}

}
