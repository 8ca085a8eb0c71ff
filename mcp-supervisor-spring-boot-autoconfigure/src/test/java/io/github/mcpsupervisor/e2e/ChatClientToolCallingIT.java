package io.github.mcpsupervisor.e2e;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import io.github.mcpsupervisor.autoconfigure.McpSupervisorAutoConfiguration;
import io.github.mcpsupervisor.supervisor.McpServerState;
import io.github.mcpsupervisor.supervisor.McpServerSupervisor;
import io.github.mcpsupervisor.supervisor.McpSupervisors;
import io.modelcontextprotocol.client.McpClient;
import io.modelcontextprotocol.spec.McpSchema.CreateMessageResult;
import io.modelcontextprotocol.spec.McpSchema.Role;
import io.modelcontextprotocol.spec.McpSchema.Tool;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.ai.chat.client.ChatClient;
import org.springframework.ai.chat.model.ChatModel;
import org.springframework.ai.mcp.DefaultMcpToolNamePrefixGenerator;
import org.springframework.ai.mcp.McpToolFilter;
import org.springframework.ai.mcp.McpToolNamePrefixGenerator;
import org.springframework.ai.mcp.McpToolsChangedEvent;
import org.springframework.ai.mcp.customizer.McpClientCustomizer;
import org.springframework.ai.model.tool.ToolCallingManager;
import org.springframework.ai.model.tool.autoconfigure.ToolCallingAutoConfiguration;
import org.springframework.ai.tool.ToolCallbackProvider;
import org.springframework.ai.tool.definition.ToolDefinition;
import org.springframework.ai.tool.resolution.ToolCallbackResolver;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.ApplicationListener;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The real Spring AI tool-calling path — ChatClient, tool calling manager, our provider
 * and callbacks — into a real, supervised MCP server.
 */
class ChatClientToolCallingIT {

	private static final JsonMapper JSON = JsonMapper.builder().build();

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withConfiguration(
				AutoConfigurations.of(McpSupervisorAutoConfiguration.class, ToolCallingAutoConfiguration.class))
		.withPropertyValues(TestServers.demoProperties("demo"))
		// one JVM per generation instead of a probe's and then a 2025-11-25 one: the
		// first test speaks the default, auto, as an application does
		.withPropertyValues("mcp.servers.demo.protocol=2025-11-25", "mcp.servers.demo.reconnect.initial-delay=100ms",
				"mcp.servers.demo.termination-grace-period=1s",
				// a loaded machine must not turn a recovery into a failed turn; the bound
				// has its own tests
				"mcp.servers.demo.call.wait-for-recovery=60s");

	@AfterEach
	void noChildIsLeftAfterTheContextCloses() {
		await().atMost(Duration.ofSeconds(30)).until(() -> ProcessHandle.current().children().findAny().isEmpty());
	}

	@Test
	void aChatClientCallsASupervisedToolThroughTheProvider() {
		this.contextRunner.withPropertyValues("mcp.servers.demo.protocol=auto").run((context) -> {
			ChatClient chatClient = ChatClient
				.builder(new ScriptedChatModel(ScriptedChatModel.toolCall("demo_add", "{\"a\":2,\"b\":3}")))
				.defaultTools(context.getBean(ToolCallbackProvider.class))
				.build();
			assertThat(chatClient.prompt("What is 2 + 3?").call().content())
				.isEqualTo("The tool said: [{\"text\":\"5\"}]");
		});
	}

	@Test
	void aChatTurnDuringARestartWaitsForTheRecoveredServer() {
		this.contextRunner.run((context) -> {
			McpServerSupervisor demo = context.getBean(McpSupervisors.class).supervisor("demo");
			ChatClient chatClient = ChatClient
				.builder(new ScriptedChatModel(ScriptedChatModel.toolCall("demo_crash", "{}"),
						ScriptedChatModel.toolCall("demo_echo", "{\"message\":\"back\"}")))
				.defaultTools(context.getBean(ToolCallbackProvider.class))
				.build();
			assertThat(chatClient.prompt("crash").call().content()).contains("crashing with exit code 3");
			await().atMost(Duration.ofSeconds(30)).until(() -> demo.state() != McpServerState.UP);
			assertThat(chatClient.prompt("echo back").call().content())
				.isEqualTo("The tool said: [{\"text\":\"back\"}]");
			assertThat(demo.status().generation()).isEqualTo(2);
		});
	}

	@Test
	void withoutWaitingTheModelSeesWhyTheToolIsUnavailable() {
		this.contextRunner.withPropertyValues("mcp.servers.demo.call.wait-for-recovery=0s").run((context) -> {
			McpServerSupervisor demo = context.getBean(McpSupervisors.class).supervisor("demo");
			ChatClient chatClient = ChatClient
				.builder(new ScriptedChatModel(ScriptedChatModel.toolCall("demo_crash", "{}"),
						ScriptedChatModel.toolCall("demo_echo", "{\"message\":\"x\"}")))
				.defaultTools(context.getBean(ToolCallbackProvider.class))
				.build();
			chatClient.prompt("crash").call().content();
			await().atMost(Duration.ofSeconds(30)).until(() -> demo.state() != McpServerState.UP);
			assertThat(chatClient.prompt("echo x").call().content()).contains("MCP server 'demo' is reconnecting");
		});
	}

	@Test
	void withToolsKeptTheModelSeesADownServersToolsAsUnavailableAndReadsTheNoticeAsTheResult() {
		// errors thrown by a tool would fail the chat call: the notice is a result
		this.contextRunner
			.withPropertyValues("mcp.servers.demo.tools-when-down=keep", "mcp.servers.demo.reconnect.enabled=false",
					"spring.ai.tools.throw-exception-on-error=true")
			.run((context) -> {
				McpServerSupervisor demo = context.getBean(McpSupervisors.class).supervisor("demo");
				ScriptedChatModel model = new ScriptedChatModel(context.getBean(ToolCallingManager.class),
						ScriptedChatModel.toolCall("demo_crash", "{}"),
						ScriptedChatModel.toolCall("demo_echo", "{\"message\":\"x\"}"),
						ScriptedChatModel.toolCall("demo_echo", "{\"message\":\"back\"}"));
				ChatClient chatClient = ChatClient.builder(model)
					.defaultTools(context.getBean(ToolCallbackProvider.class))
					.build();
				chatClient.prompt("crash").call().content();
				ToolDefinition echoUp = seen(model, "demo_echo");
				List<String> namesUp = model.toolsSeen().stream().map(ToolDefinition::name).toList();
				await().atMost(Duration.ofSeconds(30)).until(() -> demo.state() == McpServerState.DISCONNECTED);
				assertThat(chatClient.prompt("echo x").call().content())
					.matches("The tool said: MCP server 'demo' has been unavailable since \\S+Z \\(disconnected\\);"
							+ " reconnect is disabled, so it stays unavailable until an operator resets it\\."
							+ " The call did not run\\.");
				ToolDefinition echoDown = seen(model, "demo_echo");
				assertThat(echoDown.description())
					.startsWith("Unavailable: MCP server 'demo' has been unavailable since ")
					.contains("(disconnected)");
				assertThat(echoDown.inputSchema()).isEqualTo(echoUp.inputSchema());
				assertThat(model.toolsSeen()).as("the same tools, under the same names")
					.extracting(ToolDefinition::name)
					.isEqualTo(namesUp);
				demo.reset();
				await().atMost(Duration.ofSeconds(30)).until(() -> demo.state() == McpServerState.UP);
				assertThat(chatClient.prompt("echo back").call().content())
					.isEqualTo("The tool said: [{\"text\":\"back\"}]");
				ToolDefinition echoBack = seen(model, "demo_echo");
				assertThat(echoBack.description()).isEqualTo(echoUp.description());
				// a new generation may list the same schema with its keys in another
				// order
				assertThat(JSON.readTree(echoBack.inputSchema())).isEqualTo(JSON.readTree(echoUp.inputSchema()));
			});
	}

	private static ToolDefinition seen(ScriptedChatModel model, String name) {
		return model.toolsSeen()
			.stream()
			.filter((tool) -> tool.name().equals(name))
			.findFirst()
			.orElseThrow(() -> new AssertionError(name + " was not offered: " + model.toolsSeen()));
	}

	@Test
	void duplicateAndCollidingToolsOfTwoServersLeaveEveryNameUnique() {
		// server a lists echo three times, and a's b_c and a_b's c could both be a_b_c
		new ApplicationContextRunner()
			.withConfiguration(
					AutoConfigurations.of(McpSupervisorAutoConfiguration.class, ToolCallingAutoConfiguration.class))
			.withPropertyValues(listingServerProperties("a", "b_c", "echo", "echo", "echo"))
			.withPropertyValues(listingServerProperties("a_b", "c", "echo"))
			.run((context) -> {
				ToolCallbackProvider tools = context.getBean(ToolCallbackProvider.class);
				ChatClient chatClient = ChatClient
					.builder(new ScriptedChatModel(ScriptedChatModel.toolCall("a_echo", "{}"),
							ScriptedChatModel.toolCall("a_b_c", "{}")))
					.defaultTools(tools)
					.build();
				assertThat(chatClient.prompt("echo").call().content())
					.isEqualTo("The tool said: [{\"text\":\"echo called\"}]");
				assertThat(chatClient.prompt("c").call().content())
					.isEqualTo("The tool said: [{\"text\":\"c called\"}]");
				assertThat(tools.getToolCallbacks()).extracting((tool) -> tool.getToolDefinition().name())
					.doesNotHaveDuplicates()
					.contains("a_echo", "a_b_c", "a_b_echo")
					.hasSize(4);
			});
	}

	// A ListingMcpServer listing the given tools as mcp.servers.<name>.
	private static String[] listingServerProperties(String name, String... tools) {
		String prefix = "mcp.servers." + name + ".";
		List<String> toolArgs = new ArrayList<>(List.of("tools"));
		toolArgs.addAll(List.of(tools));
		List<String> args = TestServers.javaServerArgs(ListingMcpServer.class, toolArgs.toArray(String[]::new));
		List<String> properties = new ArrayList<>();
		properties.add(prefix + "command=" + TestServers.java());
		for (int i = 0; i < args.size(); i++) {
			properties.add(prefix + "args[" + i + "]=" + args.get(i));
		}
		properties.add(prefix + "termination-grace-period=1s");
		properties.add(prefix + "protocol=2025-11-25");
		return properties.toArray(String[]::new);
	}

	@Test
	void aToolFilterHidesAToolAndANameGeneratorRenamesThem() {
		this.contextRunner.withPropertyValues("mcp.servers.demo.tool-names=spring-ai")
			.withBean(McpToolFilter.class, () -> (connection, tool) -> !tool.name().equals("crash"))
			.withBean(McpToolNamePrefixGenerator.class,
					() -> (connection, tool) -> connection.clientInfo().title() + "__" + tool.name())
			.run((context) -> {
				ToolCallbackProvider tools = context.getBean(ToolCallbackProvider.class);
				assertThat(tools.getToolCallbacks()).extracting((tool) -> tool.getToolDefinition().name())
					.contains("demo__add", "demo__echo")
					.doesNotContain("demo__crash", "demo_add");
				ChatClient chatClient = ChatClient
					.builder(new ScriptedChatModel(ScriptedChatModel.toolCall("demo__add", "{\"a\":2,\"b\":3}")))
					.defaultTools(tools)
					.build();
				assertThat(chatClient.prompt("What is 2 + 3?").call().content())
					.isEqualTo("The tool said: [{\"text\":\"5\"}]");
			});
	}

	@Test
	void springAisStatefulDefaultNameGeneratorGivesItsFirstNamesDeterministically() {
		this.contextRunner.withPropertyValues("mcp.servers.demo.tool-names=spring-ai")
			.withBean(McpToolNamePrefixGenerator.class, DefaultMcpToolNamePrefixGenerator::new)
			.run((context) -> assertThat(context.getBean(ToolCallbackProvider.class).getToolCallbacks())
				.extracting((tool) -> tool.getToolDefinition().name())
				.contains("add", "echo")
				.doesNotContain("demo_add")
				.noneMatch((name) -> name.startsWith("alt_")));
	}

	@Test
	void aSamplingCustomizerMayUseTheChatModelThatCallsTheSupervisedTools() {
		// chat model -> tool calling manager -> tools -> supervisors -> client factory ->
		// customizer -> chat model: the customizers are looked up once all beans exist
		this.contextRunner.withUserConfiguration(ChatModelSampling.class).run((context) -> {
			assertThat(context).hasNotFailed();
			assertThat(context.getBean(McpSupervisors.class).supervisor("demo").state()).isEqualTo(McpServerState.UP);
		});
	}

	@Test
	void springAiDoesNotFreezeTheSupervisedToolsAtStartup() {
		this.contextRunner.run((context) -> {
			assertThat(context.getBean(ToolCallbackProvider.class).getToolCallbacks()).isNotEmpty();
			assertThat(context.getBean(ToolCallbackResolver.class).resolve("demo_add"))
				.as("an MCP provider is resolved per request, not snapshotted")
				.isNull();
		});
	}

	@Test
	void closingTheContextStopsEveryServerWithdrawsTheToolsAndLeavesNoThreadThatHoldsTheJvm() {
		List<McpSupervisors> seen = new ArrayList<>();
		this.contextRunner.run((context) -> seen.add(context.getBean(McpSupervisors.class)));
		assertThat(seen.get(0).supervisor("demo").state()).isEqualTo(McpServerState.STOPPED);
		assertThat(seen.get(0).supervisor("demo").tools().tools()).isEmpty();
		assertThat(Thread.getAllStackTraces().keySet()).filteredOn((thread) -> thread.getName().startsWith("mcp-"))
			.allMatch(Thread::isDaemon);
	}

	@Test
	void everyToolSwapIsAnnouncedWithSpringAisEvent() {
		List<McpToolsChangedEvent> events = new CopyOnWriteArrayList<>();
		this.contextRunner
			.withBean("toolEvents", ApplicationListener.class,
					() -> (ApplicationListener<McpToolsChangedEvent>) events::add)
			.run((context) -> {
				await().atMost(Duration.ofSeconds(30)).until(() -> !events.isEmpty());
				assertThat(events.get(0).getConnectionName()).isEqualTo("demo");
				assertThat(events.get(0).getTools()).extracting(Tool::name).contains("echo", "add", "crash");
				ToolCallbackProvider tools = context.getBean(ToolCallbackProvider.class);
				Arrays.stream(tools.getToolCallbacks())
					.filter((tool) -> tool.getToolDefinition().name().equals("demo_add-tool"))
					.findFirst()
					.orElseThrow()
					.call("{\"name\":\"late\"}");
				await().atMost(Duration.ofSeconds(30))
					.until(() -> events.get(events.size() - 1)
						.getTools()
						.stream()
						.anyMatch((t) -> t.name().equals("late")));
				assertThat(tools.getToolCallbacks()).extracting((tool) -> tool.getToolDefinition().name())
					.contains("demo_late");
			});
		assertThat(events.get(events.size() - 1).getTools()).as("withdrawn at stop").isEmpty();
	}

	/**
	 * A chat model that calls tools, and a customizer that samples with it, as an
	 * application with a model starter has them.
	 */
	@Configuration(proxyBeanMethods = false)
	static class ChatModelSampling {

		@Bean
		ChatModel chatModel(ToolCallingManager toolCallingManager) {
			return new ScriptedChatModel();
		}

		@Bean
		McpClientCustomizer<McpClient.SyncSpec> samplingWithTheChatModel(ChatModel chatModel) {
			return (name,
					spec) -> spec.sampling((request) -> CreateMessageResult
						.builder(Role.ASSISTANT, String.valueOf(chatModel.call("sample")), "scripted")
						.build());
		}

	}

}
