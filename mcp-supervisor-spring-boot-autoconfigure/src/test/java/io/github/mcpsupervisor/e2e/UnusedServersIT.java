package io.github.mcpsupervisor.e2e;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;

import io.github.mcpsupervisor.autoconfigure.McpSupervisorAutoConfiguration;
import io.github.mcpsupervisor.supervisor.McpServerState;
import io.github.mcpsupervisor.supervisor.McpServerSupervisor;
import io.github.mcpsupervisor.supervisor.McpSupervisors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import org.springframework.ai.chat.client.ChatClient;
import org.springframework.ai.model.tool.autoconfigure.ToolCallingAutoConfiguration;
import org.springframework.ai.tool.ToolCallbackProvider;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A server configured as the documentation says to start on first use and stop when idle,
 * driven by a Spring AI chat turn: the first run of the application lists its tools once
 * and stops it; the next run offers them without starting it, a turn starts it, and it is
 * stopped again once unused, its tools still offered.
 */
class UnusedServersIT {

	@TempDir
	Path runtimeDirectory;

	private ApplicationContextRunner contextRunner() {
		return new ApplicationContextRunner()
			.withConfiguration(
					AutoConfigurations.of(McpSupervisorAutoConfiguration.class, ToolCallingAutoConfiguration.class))
			.withPropertyValues(TestServers.demoProperties("demo"))
			.withPropertyValues("mcp.runtime-directory=" + this.runtimeDirectory,
					"mcp.servers.demo.protocol=2025-11-25", "mcp.servers.demo.idle.start-on-first-use=true",
					"mcp.servers.demo.idle.timeout=2s", "mcp.servers.demo.termination-grace-period=1s",
					// a cold start on a loaded machine: the bound has its own tests
					"mcp.servers.demo.call.wait-for-recovery=60s");
	}

	@AfterEach
	void noChildIsLeftAfterTheContextCloses() {
		await().atMost(Duration.ofSeconds(30)).until(() -> ProcessHandle.current().children().findAny().isEmpty());
	}

	@Test
	void aServerRunsOnlyWhileItIsUsedAndItsToolsAreOfferedThroughout() {
		// the first run: no catalog yet, so the server is started to list its tools
		contextRunner().run((context) -> {
			McpServerSupervisor demo = context.getBean(McpSupervisors.class).supervisor("demo");
			await().atMost(Duration.ofSeconds(60)).until(() -> demo.state() == McpServerState.IDLE);
			await().atMost(Duration.ofSeconds(30)).until(() -> ProcessHandle.current().children().findAny().isEmpty());
			assertThat(toolNames(context.getBean(ToolCallbackProvider.class))).contains("demo_add", "demo_echo");
		});
		// the next run: its tools from the catalog, nothing started
		contextRunner().run((context) -> {
			McpServerSupervisor demo = context.getBean(McpSupervisors.class).supervisor("demo");
			assertThat(demo.state()).isEqualTo(McpServerState.IDLE);
			assertThat(ProcessHandle.current().children().findAny()).as("no server process").isEmpty();
			ToolCallbackProvider tools = context.getBean(ToolCallbackProvider.class);
			assertThat(toolNames(tools)).contains("demo_add", "demo_echo");
			ChatClient chatClient = ChatClient
				.builder(new ScriptedChatModel(ScriptedChatModel.toolCall("demo_add", "{\"a\":2,\"b\":3}"),
						ScriptedChatModel.toolCall("demo_add", "{\"a\":4,\"b\":5}")))
				.defaultTools(tools)
				.build();
			assertThat(chatClient.prompt("What is 2 + 3?").call().content())
				.isEqualTo("The tool said: [{\"text\":\"5\"}]");
			assertThat(demo.state()).isEqualTo(McpServerState.UP);
			assertThat(ProcessHandle.current().children().count()).isEqualTo(1);
			// unused for its idle time: stopped, its tools still offered
			await().atMost(Duration.ofSeconds(30)).until(() -> demo.state() == McpServerState.IDLE);
			await().atMost(Duration.ofSeconds(30)).until(() -> ProcessHandle.current().children().findAny().isEmpty());
			assertThat(toolNames(tools)).contains("demo_add", "demo_echo");
			assertThat(demo.status().attemptsUsed()).as("idle is no outage").isZero();
			// the next turn starts it again
			assertThat(chatClient.prompt("What is 4 + 5?").call().content())
				.isEqualTo("The tool said: [{\"text\":\"9\"}]");
			assertThat(demo.status().generation()).isEqualTo(2);
		});
	}

	private static List<String> toolNames(ToolCallbackProvider provider) {
		return Arrays.stream(provider.getToolCallbacks()).map((tool) -> tool.getToolDefinition().name()).toList();
	}

}
