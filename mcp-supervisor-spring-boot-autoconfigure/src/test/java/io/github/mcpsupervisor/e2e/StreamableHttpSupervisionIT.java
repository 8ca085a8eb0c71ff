package io.github.mcpsupervisor.e2e;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

import com.sun.net.httpserver.HttpServer;
import io.github.mcpsupervisor.actuate.McpEndpoint;
import io.github.mcpsupervisor.actuate.McpEndpoint.McpServerConfigurationDescriptor;
import io.github.mcpsupervisor.actuate.McpEndpoint.McpServerDescriptor;
import io.github.mcpsupervisor.autoconfigure.McpSupervisorAutoConfiguration;
import io.github.mcpsupervisor.autoconfigure.endpoint.McpEndpointAutoConfiguration;
import io.github.mcpsupervisor.autoconfigure.health.McpHealthContributorAutoConfiguration;
import io.github.mcpsupervisor.demo.ServerCommands;
import io.github.mcpsupervisor.supervisor.CallPolicy;
import io.github.mcpsupervisor.supervisor.HealthCheckPolicy;
import io.github.mcpsupervisor.supervisor.McpServerState;
import io.github.mcpsupervisor.supervisor.McpServerStateChange;
import io.github.mcpsupervisor.supervisor.McpServerSupervisor;
import io.github.mcpsupervisor.supervisor.McpServerUnavailableException;
import io.github.mcpsupervisor.supervisor.McpSupervisors;
import io.github.mcpsupervisor.supervisor.ReconnectPolicy;
import io.github.mcpsupervisor.supervisor.SupervisorListener;
import io.github.mcpsupervisor.supervisor.ThreadPoolSupervisorScheduler;
import io.github.mcpsupervisor.transport.StreamableHttpServerDefinition;
import io.github.mcpsupervisor.transport.internal.http.StreamableHttpConnector;
import io.modelcontextprotocol.client.transport.HttpClientStreamableHttpTransport;
import io.modelcontextprotocol.client.transport.customizer.McpSyncHttpClientRequestCustomizer;
import io.modelcontextprotocol.spec.McpSchema.CallToolRequest;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import org.springframework.ai.mcp.customizer.McpClientCustomizer;
import org.springframework.boot.actuate.autoconfigure.endpoint.EndpointAutoConfiguration;
import org.springframework.boot.actuate.autoconfigure.endpoint.web.WebEndpointAutoConfiguration;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.health.actuate.endpoint.HealthEndpoint;
import org.springframework.boot.health.autoconfigure.actuate.endpoint.HealthEndpointAutoConfiguration;
import org.springframework.boot.health.autoconfigure.contributor.HealthContributorAutoConfiguration;
import org.springframework.boot.health.autoconfigure.registry.HealthContributorRegistryAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.entry;
import static org.awaitility.Awaitility.await;

/**
 * Streamable HTTP servers under the same supervisor: npm's server-everything in its
 * Streamable HTTP mode on a free loopback port, stopped and started again.
 */
class StreamableHttpSupervisionIT {

	private static final Log logger = LogFactory.getLog(StreamableHttpSupervisionIT.class);

	private static final ReconnectPolicy RECONNECT = ReconnectPolicy.builder()
		.initialDelay(Duration.ofMillis(100))
		.maxDelay(Duration.ofSeconds(2))
		.maxAttempts(10)
		.jitter(0.1)
		.build();

	private final ThreadPoolSupervisorScheduler scheduler = new ThreadPoolSupervisorScheduler();

	private final int port = freePort();

	private final List<McpServerStateChange> changes = new CopyOnWriteArrayList<>();

	private Process server;

	private McpServerSupervisor supervisor;

	private StreamableHttpConnector connector;

	@AfterEach
	void stop() throws Exception {
		if (this.supervisor != null) {
			this.supervisor.stop().get(30, TimeUnit.SECONDS);
		}
		if (this.connector != null) {
			this.connector.close();
		}
		this.scheduler.close();
		stopServer();
		await().atMost(TestServers.PATIENCE).until(() -> ProcessHandle.current().descendants().findAny().isEmpty());
	}

	@Test
	void aServerThatStopsAndStartsAgainIsReconnectedWithANewSessionAndTheSameTools() throws Exception {
		startServer();
		start(definition(Map.of()),
				CallPolicy.builder().waitForRecovery(Duration.ofSeconds(20)).retry(CallPolicy.Retry.SAFE).build());
		List<String> tools = this.supervisor.tools().names();
		assertThat(tools).contains("echo", "get-sum");
		stopServer();
		CompletableFuture<CallToolResult> call = CompletableFuture
			.supplyAsync(() -> call("echo", Map.of("message", "across the restart")));
		// lastError moves on to each failed reconnect attempt; the loss itself is the
		// transition
		McpServerStateChange loss = await().atMost(TestServers.PATIENCE)
			.until(() -> this.changes.stream().filter((change) -> change.from() == McpServerState.UP).findFirst(),
					Optional::isPresent)
			.orElseThrow();
		assertThat(loss.to()).isEqualTo(McpServerState.RECONNECTING);
		assertThat(loss.cause()).contains("transport failure");
		long restartedAt = System.nanoTime();
		startServer();
		assertThat(TestServers.text(call.get(60, TimeUnit.SECONDS))).contains("across the restart");
		logger.info("HTTP server back: a waiting call succeeded "
				+ TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - restartedAt)
				+ " ms after the server started again");
		assertThat(this.supervisor.state()).isEqualTo(McpServerState.UP);
		assertThat(this.supervisor.status().generation()).isGreaterThanOrEqualTo(2);
		assertThat(this.supervisor.tools().names()).isEqualTo(tools);
	}

	@Test
	void aCallDuringTheOutageThatIsNotRetryEligibleFailsFast() throws Exception {
		startServer();
		start(definition(Map.of()),
				CallPolicy.builder().waitForRecovery(Duration.ZERO).retry(CallPolicy.Retry.NEVER).build());
		stopServer();
		long started = System.nanoTime();
		assertThatExceptionOfType(McpServerUnavailableException.class)
			.isThrownBy(() -> call("echo", Map.of("message", "x")))
			// lost under the call, or already seen lost by the SDK's own stream: fast
			// either way
			.withMessageMatching("MCP server 'remote' (crashed during the call .*connection lost.*It was not "
					+ "retried.*|is reconnecting .*: tool 'echo' is unavailable)");
		assertThat(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started)).isLessThan(5000);
		await().atMost(TestServers.PATIENCE).until(() -> this.supervisor.state() == McpServerState.RECONNECTING);
	}

	@Test
	void aCallInFlightWhenTheServerDiesFailsWithoutWaitingForItsTimeout() throws Exception {
		startServer();
		try (CountingProxy proxy = new CountingProxy(this.port)) {
			proxy.watch("notifications/progress");
			start(new StreamableHttpServerDefinition("remote", URI.create("http://127.0.0.1:" + proxy.port() + "/mcp"),
					Map.of(), Duration.ofSeconds(60), Duration.ofSeconds(10)),
					CallPolicy.builder().waitForRecovery(Duration.ZERO).retry(CallPolicy.Retry.NEVER).build());
			CompletableFuture<CallToolResult> call = CompletableFuture
				.supplyAsync(() -> this.supervisor.callTool(CallToolRequest.builder("trigger-long-running-operation")
					.arguments(Map.of("duration", 50, "steps", 50))
					.meta(Map.of("progressToken", "in-flight"))
					.build()));
			// the server's progress on the call's response stream: the call is on it
			await().atMost(TestServers.PATIENCE).until(() -> proxy.forwarded("notifications/progress"));
			long killed = System.nanoTime();
			stopServer();
			// the response stream breaks off with the server: the call fails at once,
			// not after its 60 s timeout
			assertThat(call).failsWithin(Duration.ofSeconds(30))
				.withThrowableThat()
				.havingCause()
				.isInstanceOf(McpServerUnavailableException.class)
				.withMessageContaining("crashed during the call");
			logger.info("HTTP server killed under a call: it failed "
					+ TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - killed) + " ms later");
		}
	}

	@Test
	void aServerRestartedUnnoticedLosesTheGenerationAndAnUnsafeCallFailsFast() throws Exception {
		startServer();
		start(definition(Map.of()),
				CallPolicy.builder().waitForRecovery(Duration.ZERO).retry(CallPolicy.Retry.NEVER).build());
		// a new process on the same port, before any call or probe saw the old one die:
		// it answers the old session id with 404
		stopServer();
		startServer();
		assertThatExceptionOfType(McpServerUnavailableException.class)
			.isThrownBy(() -> call("echo", Map.of("message", "x")))
			.withMessageContaining("It was not retried");
		McpServerStateChange loss = await().atMost(TestServers.PATIENCE)
			.until(() -> this.changes.stream().filter((change) -> change.from() == McpServerState.UP).findFirst(),
					Optional::isPresent)
			.orElseThrow();
		assertThat(loss.cause()).contains("session not found");
		await().atMost(TestServers.PATIENCE).until(() -> this.supervisor.state() == McpServerState.UP);
		assertThat(this.supervisor.status().generation()).isEqualTo(2);
		assertThat(TestServers.text(call("echo", Map.of("message", "after the restart"))))
			.contains("after the restart");
	}

	@Test
	void aServerRestartedUnnoticedGetsARetryEligibleCallOnTheNextGeneration() throws Exception {
		startServer();
		start(definition(Map.of()),
				CallPolicy.builder().waitForRecovery(Duration.ofSeconds(20)).retry(CallPolicy.Retry.ALWAYS).build());
		stopServer();
		startServer();
		assertThat(TestServers.text(call("echo", Map.of("message", "retried")))).contains("retried");
		assertThat(this.supervisor.status().generation()).isEqualTo(2);
	}

	@Test
	void aServerThatNeverStartsIsRetriedWithinTheBudgetThenFails() {
		this.supervisor = supervisor(definition(Map.of()),
				ReconnectPolicy.builder()
					.initialDelay(Duration.ofMillis(50))
					.maxDelay(Duration.ofMillis(200))
					.maxAttempts(3)
					.jitter(0)
					.build(),
				CallPolicy.defaults());
		this.supervisor.start();
		await().atMost(TestServers.PATIENCE).until(() -> this.supervisor.state() == McpServerState.FAILED);
		assertThat(this.supervisor.status().generation()).isEqualTo(3);
		assertThat(this.supervisor.status().lastError()).isEqualTo("gave up after 3 attempts");
	}

	@Test
	void anHttp401IsAConfigurationErrorThatFailsAtOnce() throws IOException {
		HttpServer unauthorized = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), this.port),
				0);
		unauthorized.createContext("/", (exchange) -> {
			exchange.sendResponseHeaders(401, -1);
			exchange.close();
		});
		unauthorized.start();
		try {
			this.supervisor = supervisor(definition(Map.of("Authorization", "Bearer wrong")), RECONNECT,
					CallPolicy.defaults());
			this.supervisor.start().join();
			assertThat(this.supervisor.state()).isEqualTo(McpServerState.FAILED);
			assertThat(this.supervisor.status().generation()).isOne();
			assertThat(this.supervisor.status().lastError()).contains("HTTP 401").contains("configuration error");
		}
		finally {
			unauthorized.stop(0);
		}
	}

	@Test
	void healthAndTheEndpointShowAnHttpServerLikeAnyOtherWithItsHeadersMasked() throws Exception {
		startServer();
		new ApplicationContextRunner()
			.withConfiguration(AutoConfigurations.of(McpSupervisorAutoConfiguration.class,
					McpHealthContributorAutoConfiguration.class, McpEndpointAutoConfiguration.class,
					HealthContributorAutoConfiguration.class, HealthContributorRegistryAutoConfiguration.class,
					HealthEndpointAutoConfiguration.class, EndpointAutoConfiguration.class,
					WebEndpointAutoConfiguration.class))
			.withPropertyValues("mcp.servers.remote.transport=streamable-http", "mcp.servers.remote.url=" + url(),
					"mcp.servers.remote.headers.Authorization=Bearer s3cr3t", "mcp.servers.remote.required=true",
					"management.endpoints.web.exposure.include=health,mcp")
			.run((context) -> {
				assertThat(context.getBean(HealthEndpoint.class).healthForPath("mcp").getStatus().getCode())
					.isEqualTo("UP");
				McpServerDescriptor remote = context.getBean(McpEndpoint.class).server("remote");
				assertThat(remote.details().state()).isEqualTo(McpServerState.UP);
				McpServerConfigurationDescriptor configuration = remote.configuration();
				assertThat(configuration).isNotNull();
				assertThat(configuration.transport()).isEqualTo("streamable-http");
				assertThat(configuration.url()).isEqualTo(url().toString());
				assertThat(configuration.headers()).containsExactly(entry("Authorization", "******"));
				assertThat(configuration.env()).isNull();
				assertThat(remote.toString()).doesNotContain("s3cr3t");
			});
	}

	@Test
	void springAisRequestAndTransportCustomizerBeansApplyToEveryGeneration() throws Exception {
		startServer();
		new ApplicationContextRunner().withConfiguration(AutoConfigurations.of(McpSupervisorAutoConfiguration.class))
			.withUserConfiguration(HttpCustomizers.class)
			.withPropertyValues("mcp.servers.remote.transport=streamable-http", "mcp.servers.remote.url=" + url(),
					"mcp.servers.remote.reconnect.initial-delay=100ms")
			.run((context) -> {
				McpServerSupervisor remote = context.getBean(McpSupervisors.class).supervisor("remote");
				List<String> requests = context.getBean(HttpCustomizers.class).requests;
				List<String> transports = context.getBean(HttpCustomizers.class).transports;
				assertThat(remote.state()).isEqualTo(McpServerState.UP);
				assertThat(requests).contains("POST " + url());
				// once for the startup check of the client settings it may not set, once
				// for
				// the first generation
				assertThat(transports).containsExactly("remote", "remote");
				remote.restart();
				await().atMost(TestServers.PATIENCE)
					.until(() -> remote.state() == McpServerState.UP && remote.status().generation() == 2);
				assertThat(transports).containsExactly("remote", "remote", "remote");
			});
	}

	@Test
	void aTransportCustomizerThatThrowsIsAConfigurationErrorThatFailsAtOnce() throws Exception {
		startServer();
		new ApplicationContextRunner().withConfiguration(AutoConfigurations.of(McpSupervisorAutoConfiguration.class))
			.withUserConfiguration(BrokenTransportCustomizer.class)
			.withPropertyValues("mcp.servers.remote.transport=streamable-http", "mcp.servers.remote.url=" + url())
			.run((context) -> {
				McpServerSupervisor remote = context.getBean(McpSupervisors.class).supervisor("remote");
				await().atMost(TestServers.PATIENCE).until(() -> remote.state() == McpServerState.FAILED);
				assertThat(remote.status().lastError())
					.isEqualTo("configuration error: building the MCP client failed: transport customizer bug");
				assertThat(remote.status().generation()).isOne();
			});
	}

	private StreamableHttpServerDefinition definition(Map<String, String> headers) {
		return new StreamableHttpServerDefinition("remote", url(), headers, Duration.ofSeconds(10),
				Duration.ofSeconds(10));
	}

	private URI url() {
		return URI.create("http://127.0.0.1:" + this.port + "/mcp");
	}

	private void start(StreamableHttpServerDefinition definition, CallPolicy callPolicy) {
		this.supervisor = supervisor(definition, RECONNECT, callPolicy);
		assertThat(this.supervisor.start().join().state()).isEqualTo(McpServerState.UP);
	}

	private McpServerSupervisor supervisor(StreamableHttpServerDefinition definition, ReconnectPolicy reconnect,
			CallPolicy callPolicy) {
		this.connector = new StreamableHttpConnector(definition);
		return McpServerSupervisor.builder(definition.name(), this.connector, this.scheduler)
			.reconnect(reconnect)
			.calls(callPolicy)
			.healthCheck(HealthCheckPolicy.disabled(Duration.ofSeconds(2)))
			.listener(new SupervisorListener() {

				@Override
				public void stateChanged(McpServerStateChange change) {
					StreamableHttpSupervisionIT.this.changes.add(change);
				}

			})
			.build();
	}

	private void startServer() throws IOException {
		this.server = ServerCommands.everythingOverHttp(TestServers.npmDirectory(), this.port).start();
		await().atMost(TestServers.PATIENCE).until(this::listening);
	}

	private void stopServer() {
		if (this.server != null) {
			this.server.descendants().forEach(ProcessHandle::destroyForcibly);
			this.server.destroyForcibly();
			await().atMost(TestServers.PATIENCE).until(() -> !this.server.isAlive() && !listening());
			this.server = null;
		}
	}

	private boolean listening() {
		return ServerCommands.isListening(this.port);
	}

	private CallToolResult call(String tool, Map<String, Object> arguments) {
		return this.supervisor.callTool(CallToolRequest.builder(tool).arguments(arguments).build());
	}

	private static int freePort() {
		try (ServerSocket socket = new ServerSocket(0, 0, InetAddress.getLoopbackAddress())) {
			return socket.getLocalPort();
		}
		catch (IOException ex) {
			throw new IllegalStateException(ex);
		}
	}

	/**
	 * Spring AI's HTTP customizer beans, as an application has them.
	 */
	@Configuration(proxyBeanMethods = false)
	static class HttpCustomizers {

		final List<String> requests = new CopyOnWriteArrayList<>();

		final List<String> transports = new CopyOnWriteArrayList<>();

		@Bean
		McpSyncHttpClientRequestCustomizer recordingRequestCustomizer() {
			return (request, method, uri, body, context) -> this.requests.add(method + " " + uri);
		}

		@Bean
		McpClientCustomizer<HttpClientStreamableHttpTransport.Builder> recordingTransportCustomizer() {
			return (name, builder) -> this.transports.add(name);
		}

	}

	/**
	 * A transport customizer with a bug.
	 */
	@Configuration(proxyBeanMethods = false)
	static class BrokenTransportCustomizer {

		@Bean
		McpClientCustomizer<HttpClientStreamableHttpTransport.Builder> brokenTransportCustomizer() {
			return (name, builder) -> {
				throw new IllegalStateException("transport customizer bug");
			};
		}

	}

}
