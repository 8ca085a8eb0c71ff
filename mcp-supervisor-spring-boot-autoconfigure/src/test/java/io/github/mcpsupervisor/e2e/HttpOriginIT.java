package io.github.mcpsupervisor.e2e;

import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import io.github.mcpsupervisor.autoconfigure.McpSupervisorAutoConfiguration;
import io.github.mcpsupervisor.client.internal.McpClientFactory;
import io.github.mcpsupervisor.client.internal.McpServerSession;
import io.github.mcpsupervisor.supervisor.CallPolicy;
import io.github.mcpsupervisor.supervisor.HealthCheckPolicy;
import io.github.mcpsupervisor.supervisor.McpServerState;
import io.github.mcpsupervisor.supervisor.McpServerStatus;
import io.github.mcpsupervisor.supervisor.McpServerSupervisor;
import io.github.mcpsupervisor.supervisor.ReconnectPolicy;
import io.github.mcpsupervisor.supervisor.ThreadPoolSupervisorScheduler;
import io.github.mcpsupervisor.transport.StreamableHttpServerDefinition;
import io.github.mcpsupervisor.transport.internal.http.HttpAuthorization;
import io.github.mcpsupervisor.transport.internal.http.HttpTransportCustomizer;
import io.github.mcpsupervisor.transport.internal.http.SharedHttpClient;
import io.github.mcpsupervisor.transport.internal.http.StreamableHttpConnector;
import io.modelcontextprotocol.client.transport.customizer.McpAsyncHttpClientRequestCustomizer;
import io.modelcontextprotocol.spec.McpSchema.CallToolRequest;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.core.NestedExceptionUtils;
import org.springframework.core.env.MapPropertySource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A Streamable HTTP server's requests, with its headers and the keys of its URL, reach
 * the host of its URL and no other: whatever its path, whatever a request customizer
 * does, whatever a redirect says. A URL whose path would read as another host does not
 * start the application.
 */
class HttpOriginIT {

	private static final String TOKEN = "Bearer TOKEN-4711";

	private final ThreadPoolSupervisorScheduler scheduler = new ThreadPoolSupervisorScheduler();

	private final List<AutoCloseable> closeables = new ArrayList<>();

	private final LoopbackMcpHttpServer configured;

	private final LoopbackMcpHttpServer other;

	HttpOriginIT() throws Exception {
		this.configured = new LoopbackMcpHttpServer();
		this.other = new LoopbackMcpHttpServer();
	}

	@AfterEach
	void stop() throws Exception {
		for (AutoCloseable closeable : this.closeables) {
			closeable.close();
		}
		this.scheduler.close();
		this.configured.close();
		this.other.close();
	}

	@Test
	void aPathThatStartsWithTwoSlashesStaysAtTheHostOfTheUrl() throws Exception {
		URI url = URI.create(this.configured.origin() + "//" + hostAndPort(this.other) + "/mcp?api_key=KEY-0815");
		McpServerSupervisor supervisor = start(url, HttpTransportCustomizer.NONE);
		assertThat(supervisor.state()).isEqualTo(McpServerState.UP);
		supervisor.callTool(CallToolRequest.builder("echo").arguments(Map.of("message", "here")).build());
		assertThat(this.other.received()).as("requests that reached the host written in the path").isEmpty();
		assertThat(this.configured.received()).isNotEmpty().allSatisfy((request) -> {
			assertThat(request.target()).isEqualTo("//" + hostAndPort(this.other) + "/mcp?api_key=KEY-0815");
			assertThat(request.authorization()).isEqualTo(TOKEN);
		});
	}

	@Test
	void dotSegmentsAndEncodedSlashesStayAtTheHostOfTheUrl() throws Exception {
		URI url = URI.create(this.configured.origin() + "/a/..//" + hostAndPort(this.other) + "/%2F%2Fmcp?x=%2F%2F");
		McpServerSupervisor supervisor = start(url, HttpTransportCustomizer.NONE);
		assertThat(supervisor.state()).isEqualTo(McpServerState.UP);
		assertThat(this.other.received()).as("requests that reached the host written in the path").isEmpty();
		assertThat(this.configured.received()).isNotEmpty()
			.allSatisfy((request) -> assertThat(request.target())
				.isEqualTo("/a/..//" + hostAndPort(this.other) + "/%2F%2Fmcp?x=%2F%2F"));
	}

	@Test
	void aRequestCustomizerThatChangesTheUrlToAnotherHostIsRefused() throws Exception {
		URI elsewhere = this.other.url(null);
		HttpTransportCustomizer customizer = new HttpTransportCustomizer(List.of(McpAsyncHttpClientRequestCustomizer
			.fromSync((request, method, uri, body, context) -> request.uri(elsewhere))), List.of());
		McpServerSupervisor supervisor = start(this.configured.url(null), customizer);
		McpServerStatus status = supervisor.status();
		assertThat(status.state()).isEqualTo(McpServerState.FAILED);
		assertThat(status.lastError()).contains("refused to send a request to " + this.other.origin())
			.contains("not the origin of the server's URL (" + this.configured.origin() + ")");
		assertThat(this.other.received()).as("requests that reached the customizer's host").isEmpty();
	}

	@Test
	void aRedirectToAnotherHostIsNotFollowed() throws Exception {
		this.configured.redirectTo(this.other.url(null));
		McpServerSupervisor supervisor = start(this.configured.url(null), HttpTransportCustomizer.NONE);
		assertThat(supervisor.state()).isNotEqualTo(McpServerState.UP);
		assertThat(this.configured.received()).isNotEmpty();
		assertThat(this.other.received()).as("requests that followed the redirect").isEmpty();
	}

	@Test
	void runWithAUrlWhosePathStartsWithTwoSlashesShouldFailAndSayWhy() {
		String url = this.configured.origin() + "//" + hostAndPort(this.other) + "/mcp";
		contextRunner(Map.of("mcp.servers.remote.url", url)).run((context) -> {
			assertThat(context).hasFailed();
			assertThat(NestedExceptionUtils.getMostSpecificCause(context.getStartupFailure()))
				.hasMessageContaining("must not have a path that starts with //");
		});
		assertThat(this.other.received()).isEmpty();
		assertThat(this.configured.received()).isEmpty();
	}

	private ApplicationContextRunner contextRunner(Map<String, Object> server) {
		Map<String, Object> properties = new LinkedHashMap<>(server);
		properties.put("mcp.servers.remote.transport", "streamable-http");
		properties.put("mcp.servers.remote.reconnect.enabled", "false");
		return new ApplicationContextRunner()
			.withConfiguration(AutoConfigurations.of(McpSupervisorAutoConfiguration.class))
			.withInitializer((context) -> context.getEnvironment()
				.getPropertySources()
				.addFirst(new MapPropertySource("test", properties)));
	}

	private McpServerSupervisor start(URI url, HttpTransportCustomizer customizer) throws Exception {
		StreamableHttpServerDefinition definition = new StreamableHttpServerDefinition("remote", url,
				Map.of("Authorization", TOKEN), Duration.ofSeconds(10), Duration.ofSeconds(10));
		SharedHttpClient httpClient = new SharedHttpClient();
		StreamableHttpConnector connector = new StreamableHttpConnector(definition, McpClientFactory.standard(),
				new McpServerSession("remote", List.of()), customizer, HttpAuthorization.NONE, httpClient);
		McpServerSupervisor supervisor = McpServerSupervisor.builder("remote", connector, this.scheduler)
			.reconnect(ReconnectPolicy.builder()
				.enabled(false)
				.initialDelay(Duration.ofMillis(50))
				.maxDelay(Duration.ofSeconds(2))
				.maxAttempts(1)
				.jitter(0)
				.build())
			.calls(CallPolicy.builder().waitForRecovery(Duration.ZERO).retry(CallPolicy.Retry.NEVER).build())
			.healthCheck(HealthCheckPolicy.disabled(Duration.ofSeconds(2)))
			.build();
		this.closeables.add(httpClient);
		this.closeables.add(connector);
		this.closeables.add(() -> supervisor.stop().get(30, TimeUnit.SECONDS));
		supervisor.start().handle((status, failure) -> status).get(30, TimeUnit.SECONDS);
		return supervisor;
	}

	private static String hostAndPort(LoopbackMcpHttpServer server) {
		return server.origin().substring("http://".length());
	}

}
