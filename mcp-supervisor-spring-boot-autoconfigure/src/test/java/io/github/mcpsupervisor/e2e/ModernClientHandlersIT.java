package io.github.mcpsupervisor.e2e;

import java.util.List;
import java.util.Map;

import io.github.mcpsupervisor.autoconfigure.McpSupervisorAutoConfiguration;
import io.github.mcpsupervisor.demo.ServerCommands;
import io.github.mcpsupervisor.supervisor.McpServerState;
import io.github.mcpsupervisor.supervisor.McpServerSupervisor;
import io.github.mcpsupervisor.supervisor.McpSupervisors;
import io.modelcontextprotocol.client.McpClient;
import io.modelcontextprotocol.spec.McpSchema.CallToolRequest;
import io.modelcontextprotocol.spec.McpSchema.ClientCapabilities;
import io.modelcontextprotocol.spec.McpSchema.ElicitRequest;
import io.modelcontextprotocol.spec.McpSchema.ElicitResult;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import org.springframework.ai.mcp.annotation.McpElicitation;
import org.springframework.ai.mcp.customizer.McpClientCustomizer;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The application's elicitation handlers, annotated or set by a customizer, answer the
 * form elicitations that 2026-07-28 servers ask for as input requests, as they answer
 * those of 2025-11-25 servers: the TypeScript SDK v2 test server's {@code ask-name} tool
 * asks by a multi-round-trip result when it speaks 2026-07-28, by an
 * {@code elicitation/create} request when it speaks 2025-11-25.
 */
class ModernClientHandlersIT {

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(McpSupervisorAutoConfiguration.class))
		.withUserConfiguration(Handlers.class)
		.withPropertyValues(server("annotated", false))
		.withPropertyValues(server("customized", false))
		.withPropertyValues(server("legacy", true))
		.withPropertyValues("mcp.servers.legacy.protocol=2025-11-25");

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
		});
	}

	private static String askName(McpServerSupervisor supervisor) {
		return TestServers.text(supervisor.callTool(CallToolRequest.builder("ask-name").arguments(Map.of()).build()));
	}

	private static String[] server(String name, boolean legacy) {
		List<String> command = ServerCommands.modernStdio(TestServers.npmDirectory(), legacy);
		return new String[] { "mcp.servers." + name + ".command=" + command.get(0),
				"mcp.servers." + name + ".args[0]=" + command.get(1),
				"mcp.servers." + name + ".args[1]=" + command.get(2) };
	}

	/**
	 * An annotated handler for two servers and a customizer that sets its own for a
	 * third, as a Spring AI application has them.
	 */
	@Configuration(proxyBeanMethods = false)
	static class Handlers {

		@Bean
		McpClientCustomizer<McpClient.SyncSpec> elicitationCustomizer() {
			return (name, spec) -> {
				if (name.equals("customized")) {
					spec.capabilities(ClientCapabilities.builder().elicitation().build())
						.elicitation((request) -> new ElicitResult(ElicitResult.Action.ACCEPT, Map.of("name", "Grace"),
								null));
				}
			};
		}

		@McpElicitation(clients = { "annotated", "legacy" })
		ElicitResult elicit(ElicitRequest request) {
			return new ElicitResult(ElicitResult.Action.ACCEPT, Map.of("name", "Ada"), null);
		}

	}

}
