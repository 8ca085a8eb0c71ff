package io.github.mcpsupervisor.e2e;

import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;

import io.github.mcpsupervisor.autoconfigure.McpSupervisorAutoConfiguration;
import io.github.mcpsupervisor.demo.ServerCommands;
import io.github.mcpsupervisor.supervisor.McpServerState;
import io.github.mcpsupervisor.supervisor.McpServerSupervisor;
import io.github.mcpsupervisor.supervisor.McpSupervisors;
import io.modelcontextprotocol.client.McpClient;
import io.modelcontextprotocol.spec.McpSchema.CallToolRequest;
import io.modelcontextprotocol.spec.McpSchema.ClientCapabilities;
import io.modelcontextprotocol.spec.McpSchema.CreateMessageRequest;
import io.modelcontextprotocol.spec.McpSchema.CreateMessageResult;
import io.modelcontextprotocol.spec.McpSchema.ElicitRequest;
import io.modelcontextprotocol.spec.McpSchema.ElicitResult;
import io.modelcontextprotocol.spec.McpSchema.LoggingMessageNotification;
import io.modelcontextprotocol.spec.McpSchema.Role;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import org.springframework.ai.mcp.annotation.McpElicitation;
import org.springframework.ai.mcp.annotation.McpLogging;
import org.springframework.ai.mcp.annotation.McpSampling;
import org.springframework.ai.mcp.customizer.McpClientCustomizer;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The application's elicitation and sampling handlers, annotated or set by a customizer,
 * and the roots it offers answer the input requests of 2026-07-28 servers as they answer
 * the requests of 2025-11-25 servers, and its logging handlers get the log messages of
 * both from the configured level on: the TypeScript SDK v2 test server's
 * {@code ask-name}, {@code ask-model} and {@code list-roots} tools ask by a
 * multi-round-trip result when it speaks 2026-07-28, by requests of the server when it
 * speaks 2025-11-25.
 */
class ModernClientHandlersIT {

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(McpSupervisorAutoConfiguration.class))
		.withUserConfiguration(Handlers.class)
		.withPropertyValues(server("annotated", false))
		.withPropertyValues(server("customized", false))
		.withPropertyValues(server("legacy", true))
		.withPropertyValues("mcp.servers.legacy.protocol=2025-11-25", "mcp.defaults.log-level=info",
				"mcp.servers.annotated.roots[0]=" + ROOT, "mcp.servers.legacy.roots[0]=" + ROOT);

	private static final String ROOT = "file:///srv/project";

	@AfterEach
	void noChildIsLeftAfterTheContextCloses() {
		await().atMost(TestServers.PATIENCE).until(() -> ProcessHandle.current().children().findAny().isEmpty());
	}

	@Test
	void annotatedAndCustomizedHandlersAnswerTheInputRequestsOfBothRevisions() {
		this.contextRunner.run((context) -> {
			McpSupervisors supervisors = context.getBean(McpSupervisors.class);
			McpServerSupervisor annotated = supervisors.supervisor("annotated");
			McpServerSupervisor customized = supervisors.supervisor("customized");
			McpServerSupervisor legacy = supervisors.supervisor("legacy");
			for (McpServerSupervisor supervisor : List.of(annotated, customized, legacy)) {
				await().atMost(TestServers.PATIENCE).until(() -> supervisor.state() == McpServerState.UP);
			}
			assertThat(annotated.status().protocol()).isEqualTo("2026-07-28");
			assertThat(customized.status().protocol()).isEqualTo("2026-07-28");
			assertThat(legacy.status().protocol()).isEqualTo("2025-11-25");
			assertThat(askName(annotated)).isEqualTo("Hello, Ada!");
			assertThat(askName(customized)).isEqualTo("Hello, Grace!");
			assertThat(askName(legacy)).isEqualTo("Hello, Ada!");
			Handlers handlers = context.getBean(Handlers.class);
			assertThat(call(annotated, "ask-model")).isEqualTo("The model says: red");
			assertThat(call(customized, "ask-model")).isEqualTo("The model says: blue");
			assertThat(call(legacy, "ask-model")).isEqualTo("The model says: red");
			assertThat(handlers.maxTokens).as("the server asked for 1000000, above the cap")
				.containsExactly(4096, 4096);
			assertThat(call(annotated, "list-roots")).isEqualTo("Roots: " + ROOT);
			assertThat(call(legacy, "list-roots")).isEqualTo("Roots: " + ROOT);
			assertThat(call(customized, "list-roots", Map.of())).as("no roots offered: none declared")
				.contains("do not declare");
		});
	}

	@Test
	void logMessagesOfBothRevisionsReachTheLoggingHandlersFromTheConfiguredLevelOn() {
		this.contextRunner.run((context) -> {
			McpSupervisors supervisors = context.getBean(McpSupervisors.class);
			Handlers handlers = context.getBean(Handlers.class);
			for (String name : List.of("annotated", "legacy")) {
				McpServerSupervisor supervisor = supervisors.supervisor(name);
				await().atMost(TestServers.PATIENCE).until(() -> supervisor.state() == McpServerState.UP);
				assertThat(TestServers.text(
						supervisor.callTool(CallToolRequest.builder("log").arguments(Map.of("message", name)).build())))
					.isEqualTo("logged " + name);
			}
			await().atMost(TestServers.PATIENCE)
				.untilAsserted(() -> assertThat(handlers.logged).containsExactlyInAnyOrder("annotated info: annotated",
						"annotated warning: annotated", "annotated error: annotated", "legacy info: legacy",
						"legacy warning: legacy", "legacy error: legacy"));
		});
	}

	@Test
	void overStatelessHttpTheInputRequestsAndLogMessagesReachTheSameHandlers() throws Exception {
		Process http = ServerCommands.modernOverHttp(TestServers.npmDirectory(), 0, false).start();
		try {
			int port = ServerCommands.listeningPort(http, TestServers.PATIENCE);
			new ApplicationContextRunner()
				.withConfiguration(AutoConfigurations.of(McpSupervisorAutoConfiguration.class))
				.withUserConfiguration(Handlers.class)
				.withPropertyValues("mcp.servers.http.transport=streamable-http",
						"mcp.servers.http.url=http://127.0.0.1:" + port + "/mcp", "mcp.servers.http.roots[0]=" + ROOT,
						"mcp.servers.http.log-level=info")
				.run((context) -> {
					McpServerSupervisor supervisor = context.getBean(McpSupervisors.class).supervisor("http");
					Handlers handlers = context.getBean(Handlers.class);
					await().atMost(TestServers.PATIENCE).until(() -> supervisor.state() == McpServerState.UP);
					assertThat(supervisor.status().protocol()).isEqualTo("2026-07-28");
					assertThat(call(supervisor, "ask-model")).isEqualTo("The model says: red");
					assertThat(handlers.maxTokens).containsExactly(4096);
					assertThat(call(supervisor, "list-roots")).isEqualTo("Roots: " + ROOT);
					assertThat(call(supervisor, "log", Map.of("message", "http"))).isEqualTo("logged http");
					await().atMost(TestServers.PATIENCE)
						.untilAsserted(() -> assertThat(handlers.logged).containsExactly("http info: http",
								"http warning: http", "http error: http"));
				});
		}
		finally {
			http.destroyForcibly().waitFor();
		}
	}

	private static String askName(McpServerSupervisor supervisor) {
		return call(supervisor, "ask-name");
	}

	private static String call(McpServerSupervisor supervisor, String tool) {
		return TestServers.text(supervisor.callTool(CallToolRequest.builder(tool).arguments(Map.of()).build()));
	}

	// The error text of a call that fails, or its answer.
	private static String call(McpServerSupervisor supervisor, String tool, Map<String, Object> arguments) {
		try {
			return TestServers.text(supervisor.callTool(CallToolRequest.builder(tool).arguments(arguments).build()));
		}
		catch (RuntimeException ex) {
			return String.valueOf(ex.getMessage());
		}
	}

	private static String[] server(String name, boolean legacy) {
		List<String> command = ServerCommands.modernStdio(TestServers.npmDirectory(), legacy);
		return new String[] { "mcp.servers." + name + ".command=" + command.get(0),
				"mcp.servers." + name + ".args[0]=" + command.get(1),
				"mcp.servers." + name + ".args[1]=" + command.get(2) };
	}

	/**
	 * Annotated handlers for two servers and a customizer that sets its own for a third,
	 * as a Spring AI application has them.
	 */
	@Configuration(proxyBeanMethods = false)
	static class Handlers {

		final List<Integer> maxTokens = new CopyOnWriteArrayList<>();

		final List<String> logged = new CopyOnWriteArrayList<>();

		@Bean
		@SuppressWarnings("deprecation") // 2026-07-28 deprecates sampling; its servers
											// may
											// still ask
		McpClientCustomizer<McpClient.SyncSpec> elicitationCustomizer() {
			return (name, spec) -> {
				if (name.equals("customized")) {
					spec.capabilities(ClientCapabilities.builder().elicitation().sampling().build())
						.elicitation((request) -> new ElicitResult(ElicitResult.Action.ACCEPT, Map.of("name", "Grace"),
								null))
						.sampling((request) -> answer("blue"));
				}
			};
		}

		@McpElicitation(clients = { "annotated", "legacy" })
		ElicitResult elicit(ElicitRequest request) {
			return new ElicitResult(ElicitResult.Action.ACCEPT, Map.of("name", "Ada"), null);
		}

		@McpSampling(clients = { "annotated", "legacy", "http" })
		CreateMessageResult sample(CreateMessageRequest request) {
			this.maxTokens.add(request.maxTokens());
			return answer("red");
		}

		@McpLogging(clients = "annotated")
		void logAnnotated(LoggingMessageNotification notification) {
			this.logged.add("annotated " + notification.data());
		}

		@McpLogging(clients = "legacy")
		void logLegacy(LoggingMessageNotification notification) {
			this.logged.add("legacy " + notification.data());
		}

		@McpLogging(clients = "http")
		void logHttp(LoggingMessageNotification notification) {
			this.logged.add("http " + notification.data());
		}

		private static CreateMessageResult answer(String text) {
			return CreateMessageResult.builder(Role.ASSISTANT, text, "scripted").build();
		}

	}

}
