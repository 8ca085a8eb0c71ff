package io.github.mcpsupervisor.e2e;

import java.io.IOException;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import io.github.mcpsupervisor.autoconfigure.McpSupervisorAutoConfiguration;
import io.github.mcpsupervisor.client.McpServerClient;
import io.github.mcpsupervisor.client.McpServerClients;
import io.github.mcpsupervisor.demo.ServerCommands;
import io.github.mcpsupervisor.supervisor.CallPolicy;
import io.github.mcpsupervisor.supervisor.HealthCheckPolicy;
import io.github.mcpsupervisor.supervisor.McpConnector;
import io.github.mcpsupervisor.supervisor.McpServerState;
import io.github.mcpsupervisor.supervisor.McpServerStateChange;
import io.github.mcpsupervisor.supervisor.McpServerSupervisor;
import io.github.mcpsupervisor.supervisor.McpServerUnavailableException;
import io.github.mcpsupervisor.supervisor.McpSupervisors;
import io.github.mcpsupervisor.supervisor.ReconnectPolicy;
import io.github.mcpsupervisor.transport.StdioServerDefinition;
import io.github.mcpsupervisor.transport.StreamableHttpServerDefinition;
import io.github.mcpsupervisor.transport.internal.Revisions;
import io.github.mcpsupervisor.transport.internal.http.StreamableHttpConnector;
import io.github.mcpsupervisor.transport.internal.modern.NegotiatingConnector;
import io.github.mcpsupervisor.transport.internal.stdio.StdioConnector;
import io.modelcontextprotocol.spec.McpSchema.CallToolRequest;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import io.modelcontextprotocol.spec.McpSchema.CompleteRequest;
import io.modelcontextprotocol.spec.McpSchema.CompleteRequest.CompleteArgument;
import io.modelcontextprotocol.spec.McpSchema.Prompt;
import io.modelcontextprotocol.spec.McpSchema.PromptReference;
import io.modelcontextprotocol.spec.McpSchema.Resource;
import io.modelcontextprotocol.spec.McpSchema.ResourceReference;
import io.modelcontextprotocol.spec.McpSchema.TextContent;
import io.modelcontextprotocol.spec.McpSchema.TextResourceContents;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

/**
 * Outages of servers of MCP revision 2026-07-28 that no process exit tells of: a
 * stateless Streamable HTTP server (the TypeScript SDK v2 test server) behind a proxy
 * that answers HTTP 5xx or stops answering, and a stdio server frozen with
 * {@code SIGSTOP}, found by the liveness probe without ping; and {@link McpServerClient}
 * against the SDK's modern server over stateless HTTP.
 */
class ModernOutageIT {

	private static final ReconnectPolicy RECONNECT = ReconnectPolicy.builder()
		.initialDelay(Duration.ofMillis(100))
		.maxDelay(Duration.ofMillis(500))
		.maxAttempts(100)
		.jitter(0.1)
		.build();

	/** A probe every 300 ms that ends a generation after two unanswered in a row. */
	private static final HealthCheckPolicy PROBE = HealthCheckPolicy.builder()
		.interval(Duration.ofMillis(300))
		.timeout(Duration.ofSeconds(1))
		.failureThreshold(2)
		.build();

	private static final CallPolicy WAIT = CallPolicy.builder()
		.waitForRecovery(Duration.ofSeconds(30))
		.retry(CallPolicy.Retry.SAFE)
		.build();

	private static final CallPolicy NO_WAIT = CallPolicy.builder()
		.waitForRecovery(Duration.ZERO)
		.retry(CallPolicy.Retry.NEVER)
		.build();

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(McpSupervisorAutoConfiguration.class));

	private final StartedSupervisors started = new StartedSupervisors(RECONNECT);

	private final List<Process> servers = new ArrayList<>();

	@AfterEach
	void stop() throws Exception {
		this.started.close();
		for (Process server : this.servers) {
			server.destroyForcibly();
		}
		await().atMost(TestServers.PATIENCE).until(() -> ProcessHandle.current().descendants().findAny().isEmpty());
	}

	@Test
	void aStatelessHttpServerAnswering503IsAnOutageThatAWaitingCallOutlasts() throws Exception {
		SwitchableHttpProxy proxy = proxy(startTypeScriptHttpServer());
		McpServerSupervisor supervisor = start("remote", http(proxy), WAIT, PROBE);
		assertThat(supervisor.status().protocol()).isEqualTo(Revisions.V2026_07_28);
		List<String> tools = supervisor.tools().names();
		assertThat(tools).contains("echo", "get-sum");

		proxy.fail(503);
		McpServerStateChange loss = awaitLoss();
		assertThat(loss.to()).isEqualTo(McpServerState.RECONNECTING);
		assertThat(loss.cause()).contains("HTTP 503");
		// an outage keeps the tools of the last generation: a call waits for the next
		assertThat(supervisor.tools().names()).isEqualTo(tools);
		CompletableFuture<CallToolResult> call = CompletableFuture
			.supplyAsync(() -> call(supervisor, "echo", Map.of("message", "after the outage")));
		await().atMost(TestServers.PATIENCE).until(() -> proxy.failedRequests() >= 3);
		assertThat(call).isNotDone();
		assertThat(supervisor.state()).isEqualTo(McpServerState.RECONNECTING);

		proxy.pass();
		assertThat(TestServers.text(call.get(60, TimeUnit.SECONDS))).contains("after the outage");
		assertThat(supervisor.state()).isEqualTo(McpServerState.UP);
		assertThat(supervisor.status().generation()).isGreaterThanOrEqualTo(2);
		assertThat(supervisor.status().protocol()).isEqualTo(Revisions.V2026_07_28);
		assertThat(supervisor.tools().names()).isEqualTo(tools);
	}

	@Test
	void aCallThatMeetsAnHttp500FailsFastWhenThePolicySaysSoAndTheServerComesBackWithItsTools() throws Exception {
		SwitchableHttpProxy proxy = proxy(startTypeScriptHttpServer());
		McpServerSupervisor supervisor = start("remote", http(proxy), NO_WAIT,
				HealthCheckPolicy.disabled(Duration.ofSeconds(2)));
		List<String> tools = supervisor.tools().names();

		proxy.fail(500);
		long started = System.nanoTime();
		assertThatExceptionOfType(McpServerUnavailableException.class)
			.isThrownBy(() -> call(supervisor, "echo", Map.of("message", "x")))
			// lost under the call, or already seen lost by the subscriptions/listen
			// stream: fast either way
			.withMessageMatching("MCP server 'remote' (crashed during the call .*It was not retried.*"
					+ "|is reconnecting .*: tool 'echo' is unavailable)");
		assertThat(TestServers.millis(System.nanoTime() - started)).isLessThan(5000);
		assertThat(awaitLoss().cause()).contains("HTTP 500");
		await().atMost(TestServers.PATIENCE).until(() -> proxy.failedRequests() >= 3);
		assertThat(supervisor.state()).isEqualTo(McpServerState.RECONNECTING);

		proxy.pass();
		await().atMost(TestServers.PATIENCE).until(() -> supervisor.state() == McpServerState.UP);
		assertThat(supervisor.tools().names()).isEqualTo(tools);
		assertThat(TestServers.text(call(supervisor, "echo", Map.of("message", "back")))).contains("back");
	}

	@Test
	void aFrozenStdioServerIsRestartedOnANewProcessByTheDiscoverProbe() throws Exception {
		List<String> command = ServerCommands.modernStdio(TestServers.npmDirectory(), false);
		StdioServerDefinition definition = TestServers.definition("frozen", command.get(0),
				command.subList(1, command.size()), Map.of());
		McpServerSupervisor supervisor = start("frozen",
				new NegotiatingConnector("frozen",
						new StdioConnector(definition, this.started.scheduler()::execute, Revisions.V2026_07_28),
						new StdioConnector(definition, this.started.scheduler()::execute)),
				WAIT, PROBE);
		assertThat(supervisor.status().protocol()).isEqualTo(Revisions.V2026_07_28);
		long frozen = Long.parseLong(TestServers.text(call(supervisor, "pid", Map.of())));
		assertThat(supervisor.status().pid()).isEqualTo(frozen);
		signal("STOP", frozen);
		try {
			McpServerStateChange loss = awaitLoss();
			assertThat(loss.cause()).contains("liveness");
			await().atMost(TestServers.PATIENCE)
				.until(() -> supervisor.state() == McpServerState.UP && supervisor.status().generation() >= 2);
			long restarted = Long.parseLong(TestServers.text(call(supervisor, "pid", Map.of())));
			assertThat(restarted).isNotEqualTo(frozen).isEqualTo(supervisor.status().pid());
			assertThat(supervisor.status().protocol()).isEqualTo(Revisions.V2026_07_28);
			// the supervisor ended the frozen process: a stopped process cannot act on
			// SIGTERM, only SIGKILL ends it
			assertThat(TestServers.isRunning(frozen)).isFalse();
		}
		finally {
			if (TestServers.isRunning(frozen)) {
				signal("CONT", frozen);
				ProcessHandle.of(frozen).ifPresent(ProcessHandle::destroyForcibly);
			}
		}
	}

	@Test
	void aStatelessHttpServerThatStopsAnsweringIsReconnectedByTheDiscoverProbe() throws Exception {
		SwitchableHttpProxy proxy = proxy(startTypeScriptHttpServer());
		McpServerSupervisor supervisor = start("remote", http(proxy), WAIT, PROBE);
		List<String> tools = supervisor.tools().names();

		proxy.hang();
		McpServerStateChange loss = awaitLoss();
		assertThat(loss.to()).isEqualTo(McpServerState.RECONNECTING);
		assertThat(loss.cause()).contains("liveness");
		assertThat(proxy.unansweredRequests()).isGreaterThanOrEqualTo(2);

		proxy.pass();
		await().atMost(TestServers.PATIENCE).until(() -> supervisor.state() == McpServerState.UP);
		assertThat(supervisor.status().generation()).isGreaterThanOrEqualTo(2);
		assertThat(supervisor.tools().names()).isEqualTo(tools);
		assertThat(TestServers.text(call(supervisor, "echo", Map.of("message", "answering again"))))
			.contains("answering again");
	}

	@ParameterizedTest
	@ValueSource(strings = { "2026-07-28", "auto" })
	void theServerClientReadsListsCompletesAndSubscribesOverStatelessHttp(String protocol) throws Exception {
		ModernContentHttpMcpServer.Started server = ModernContentHttpMcpServer.start();
		this.servers.add(server.process());
		this.contextRunner.withUserConfiguration(ModernServerClientIT.Updates.class)
			.withPropertyValues("mcp.servers.content.transport=streamable-http",
					"mcp.servers.content.url=" + server.url(), "mcp.servers.content.protocol=" + protocol)
			.run((context) -> {
				McpServerSupervisor supervisor = context.getBean(McpSupervisors.class).supervisor("content");
				McpServerClient client = context.getBean(McpServerClients.class).client("content");
				assertThat(supervisor.state()).isEqualTo(McpServerState.UP);
				assertThat(supervisor.status().protocol()).isEqualTo(Revisions.V2026_07_28);
				assertThat(client.listResources()).extracting(Resource::uri)
					.containsExactly(ModernContentMcpServer.NOTE);
				assertThat(text(client.readResource(ModernContentMcpServer.NOTE).contents()))
					.matches("note v1 of pid \\d+");
				assertThat(text(client.readResource("memo://notes/Ada").contents())).isEqualTo("note named Ada");
				assertThat(client.listPrompts()).extracting(Prompt::name).containsExactly("greet");
				assertThat(((TextContent) client.getPrompt("greet", Map.of("name", "Ada")).messages().get(0).content())
					.text()).isEqualTo("Greet Ada.");
				assertThat(client
					.complete(CompleteRequest.builder(new PromptReference("greet"), new CompleteArgument("name", "A"))
						.build())
					.completion()
					.values()).containsExactly("Ada", "Alan");
				assertThat(
						client
							.complete(
									CompleteRequest
										.builder(new ResourceReference(ModernContentMcpServer.TEMPLATE),
												new CompleteArgument("name", "G"))
										.build())
							.completion()
							.values())
					.containsExactly("Grace");

				client.subscribe(ModernContentMcpServer.NOTE);
				assertThat(client.subscriptions()).containsExactly(ModernContentMcpServer.NOTE);
				assertThat(TestServers
					.text(supervisor.callTool(CallToolRequest.builder("touch").arguments(Map.of()).build())))
					.isEqualTo("touched 2");
				ModernServerClientIT.Updates updates = context.getBean(ModernServerClientIT.Updates.class);
				await().atMost(TestServers.PATIENCE)
					.until(() -> updates.texts().stream().anyMatch((text) -> text.startsWith("note v2 of pid ")));
				assertThat(supervisor.status().generation()).isOne();
			});
	}

	private URI startTypeScriptHttpServer() throws Exception {
		Process server = ServerCommands.modernOverHttp(TestServers.npmDirectory(), 0, true).start();
		this.servers.add(server);
		return URI.create("http://127.0.0.1:" + ServerCommands.listeningPort(server, TestServers.PATIENCE));
	}

	private SwitchableHttpProxy proxy(URI target) throws IOException {
		SwitchableHttpProxy proxy = new SwitchableHttpProxy(target);
		this.started.closeLater(proxy);
		return proxy;
	}

	// under auto, as a server is configured by default
	private NegotiatingConnector http(SwitchableHttpProxy proxy) {
		StreamableHttpServerDefinition definition = new StreamableHttpServerDefinition("remote", proxy.url("/mcp"),
				Map.of(), Duration.ofSeconds(10), Duration.ofSeconds(2));
		StreamableHttpConnector modern = new StreamableHttpConnector(definition, Revisions.V2026_07_28);
		StreamableHttpConnector legacy = new StreamableHttpConnector(definition);
		this.started.closeLater(modern);
		this.started.closeLater(legacy);
		return new NegotiatingConnector("remote", modern, legacy);
	}

	private McpServerSupervisor start(String name, McpConnector connector, CallPolicy calls,
			HealthCheckPolicy healthCheck) {
		return this.started.start(name, connector, calls, healthCheck);
	}

	private McpServerStateChange awaitLoss() {
		return this.started.awaitLoss();
	}

	private static void signal(String signal, long pid) throws Exception {
		Process kill = new ProcessBuilder("kill", "-" + signal, Long.toString(pid)).inheritIO().start();
		assertThat(kill.waitFor(10, TimeUnit.SECONDS)).isTrue();
		assertThat(kill.exitValue()).isZero();
	}

	private static CallToolResult call(McpServerSupervisor supervisor, String tool, Map<String, Object> arguments) {
		return supervisor.callTool(CallToolRequest.builder(tool).arguments(arguments).build());
	}

	private static String text(List<?> contents) {
		return ((TextResourceContents) contents.get(0)).text();
	}

}
