package io.github.mcpsupervisor.autoconfigure;

import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;

import io.github.mcpsupervisor.autoconfigure.internal.McpConnectorFactory;
import io.github.mcpsupervisor.autoconfigure.properties.internal.SettingOrigins;
import io.github.mcpsupervisor.supervisor.FakeConnector;
import io.github.mcpsupervisor.supervisor.McpServerState;
import io.github.mcpsupervisor.supervisor.McpSupervisors;
import io.github.mcpsupervisor.tool.McpSupervisorToolCallbackProvider;
import io.modelcontextprotocol.spec.McpSchema.Tool;
import org.junit.jupiter.api.Test;

import org.springframework.ai.mcp.annotation.McpToolListChanged;
import org.springframework.ai.tool.ToolCallback;
import org.springframework.ai.tool.execution.ToolExecutionException;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.assertj.AssertableApplicationContext;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

/**
 * {@code tools-when-down} through the auto-configuration, with servers whose connection
 * the test ends: withdrawn by default, kept as unavailable when asked, per server or for
 * every server.
 */
class McpToolsWhenDownAutoConfigurationTests {

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(McpSupervisorAutoConfiguration.class))
		.withUserConfiguration(FakeServers.class)
		.withPropertyValues("mcp.servers.files.command=files", "mcp.servers.web.command=web",
				"mcp.defaults.reconnect.enabled=false");

	@Test
	void runWhenToolsWhenDownIsNotSetShouldLeaveADisconnectedServersToolsAsTheyWere() {
		this.contextRunner.run((context) -> {
			disconnect(context, "files");
			ToolCallback[] callbacks = context.getBean(McpSupervisorToolCallbackProvider.class).getToolCallbacks();
			assertThat(descriptions(callbacks)).containsExactly("the read_file tool", "the search tool",
					"the search tool");
			assertThatExceptionOfType(ToolExecutionException.class).isThrownBy(() -> callbacks[0].call("{}"))
				.withMessageContaining("reconnect is disabled");
		});
	}

	@Test
	void runWhenTheDefaultsKeepToolsShouldDescribeADisconnectedServersToolsAsUnavailable() {
		this.contextRunner
			.withPropertyValues("mcp.defaults.tools-when-down=keep", "mcp.servers.web.tools-when-down=withdraw")
			.run((context) -> {
				disconnect(context, "files");
				disconnect(context, "web");
				ToolCallback[] callbacks = context.getBean(McpSupervisorToolCallbackProvider.class).getToolCallbacks();
				assertThat(callbacks).extracting((callback) -> callback.getToolDefinition().name())
					.containsExactly("files_read_file", "files_search", "web_search");
				assertThat(callbacks[0].getToolDefinition().description())
					.startsWith("Unavailable: MCP server 'files' has been unavailable since ")
					.contains("(disconnected); reconnect is disabled");
				assertThat(callbacks[0].call("{}")).startsWith("MCP server 'files' has been unavailable since ")
					.endsWith("The call did not run.");
				assertThat(callbacks[2].getToolDefinition().description()).isEqualTo("the search tool");
				SettingOrigins origins = new SettingOrigins(context.getEnvironment());
				assertThat(origins.of("files")).containsEntry("tools-when-down", "defaults");
				assertThat(origins.of("web")).containsEntry("tools-when-down", "server");
			});
	}

	@Test
	void runWhenToolsAreKeptShouldNotTellTheToolListChangedHandlersOfAMarking() {
		this.contextRunner.withUserConfiguration(ToolListHandler.class)
			.withPropertyValues("mcp.servers.files.tools-when-down=keep")
			.run((context) -> {
				ToolListHandler handler = context.getBean(ToolListHandler.class);
				await().atMost(Duration.ofSeconds(30)).until(() -> handler.lists.size() == 1);
				disconnect(context, "files");
				FakeConnector files = context.getBean(FakeServers.class).connectors.get("files");
				files.serverTools = List.of(FakeConnector.tool("read_file"), FakeConnector.tool("write_file"));
				context.getBean(McpSupervisors.class).supervisor("files").reset();
				await().atMost(Duration.ofSeconds(30)).until(() -> handler.lists.size() >= 2);
				assertThat(handler.lists).as("the first generation's tools, then the second's")
					.containsExactly(List.of("read_file", "search"), List.of("read_file", "write_file"));
			});
	}

	@Test
	void runWithAnUnknownToolsWhenDownValueShouldFailNamingIt() {
		this.contextRunner.withPropertyValues("mcp.servers.files.tools-when-down=hide").run((context) -> {
			assertThat(context).hasFailed();
			assertThat(StartupFailures.messages(context)).contains("mcp.servers.files.tools-when-down")
				.contains("hide");
		});
	}

	private static void disconnect(AssertableApplicationContext context, String server) {
		context.getBean(FakeServers.class).connectors.get(server).last().disconnect("connection reset");
		await().atMost(Duration.ofSeconds(30))
			.until(() -> context.getBean(McpSupervisors.class).supervisor(server).state(),
					(state) -> state == McpServerState.DISCONNECTED);
	}

	private static List<String> descriptions(ToolCallback[] callbacks) {
		return Arrays.stream(callbacks).map((callback) -> callback.getToolDefinition().description()).toList();
	}

	/** Records the tools each {@code @McpToolListChanged} call of server files gets. */
	static class ToolListHandler {

		final List<List<String>> lists = new CopyOnWriteArrayList<>();

		@McpToolListChanged(clients = "files")
		void toolsChanged(List<Tool> tools) {
			this.lists.add(tools.stream().map(Tool::name).toList());
		}

	}

	/** Servers named after their command: files has read_file and search, web search. */
	@Configuration(proxyBeanMethods = false)
	static class FakeServers {

		final Map<String, FakeConnector> connectors = new ConcurrentHashMap<>();

		@Bean
		McpConnectorFactory fakeConnectors() {
			return (server) -> {
				FakeConnector connector = new FakeConnector();
				connector.serverTools = ("files".equals(server.command()))
						? List.of(FakeConnector.tool("read_file"), FakeConnector.tool("search"))
						: List.of(FakeConnector.tool("search"));
				this.connectors.put(server.name(), connector);
				return connector;
			};
		}

	}

}
