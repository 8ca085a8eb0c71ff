package io.github.mcpsupervisor.e2e;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;

import io.github.mcpsupervisor.autoconfigure.McpSupervisorAutoConfiguration;
import io.github.mcpsupervisor.client.McpServerClient;
import io.github.mcpsupervisor.client.McpServerClients;
import io.github.mcpsupervisor.event.McpResourcesChangedEvent;
import io.github.mcpsupervisor.event.McpResourcesUpdatedEvent;
import io.github.mcpsupervisor.supervisor.McpCapabilityException;
import io.github.mcpsupervisor.supervisor.McpServerState;
import io.github.mcpsupervisor.supervisor.McpServerSupervisor;
import io.github.mcpsupervisor.supervisor.McpSupervisors;
import io.modelcontextprotocol.client.McpClient;
import io.modelcontextprotocol.spec.McpSchema.CallToolRequest;
import io.modelcontextprotocol.spec.McpSchema.ClientCapabilities;
import io.modelcontextprotocol.spec.McpSchema.CreateMessageResult;
import io.modelcontextprotocol.spec.McpSchema.ElicitRequest;
import io.modelcontextprotocol.spec.McpSchema.ElicitResult;
import io.modelcontextprotocol.spec.McpSchema.LoggingMessageNotification;
import io.modelcontextprotocol.spec.McpSchema.ProgressNotification;
import io.modelcontextprotocol.spec.McpSchema.Prompt;
import io.modelcontextprotocol.spec.McpSchema.Resource;
import io.modelcontextprotocol.spec.McpSchema.Role;
import io.modelcontextprotocol.spec.McpSchema.Root;
import io.modelcontextprotocol.spec.McpSchema.TextContent;
import io.modelcontextprotocol.spec.McpSchema.TextResourceContents;
import io.modelcontextprotocol.spec.McpSchema.Tool;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Mono;

import org.springframework.ai.mcp.annotation.McpElicitation;
import org.springframework.ai.mcp.annotation.McpLogging;
import org.springframework.ai.mcp.annotation.McpProgress;
import org.springframework.ai.mcp.annotation.McpToolListChanged;
import org.springframework.ai.mcp.customizer.McpClientCustomizer;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.event.EventListener;
import org.springframework.core.NestedExceptionUtils;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

/**
 * What Spring AI's MCP client gives an application, on supervised servers and across a
 * SIGKILL: customizers, annotated handlers, log and progress notifications, resources,
 * prompts, subscriptions and roots, against npm's server-everything.
 */
@SuppressWarnings("deprecation") // sampling and roots: 2025-11-25 features that
									// 2026-07-28 deprecates
class SpringAiClientParityIT {

	private static final Log logger = LogFactory.getLog(SpringAiClientParityIT.class);

	private static final String RESOURCE = "demo://resource/dynamic/text/1";

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(McpSupervisorAutoConfiguration.class))
		.withUserConfiguration(ClientHandlers.class)
		.withPropertyValues("mcp.servers.everything.command=node",
				"mcp.servers.everything.args[0]=" + TestServers.everythingScript(),
				"mcp.servers.everything.roots[0]=file:///srv/first",
				"mcp.servers.everything.reconnect.initial-delay=100ms",
				"mcp.servers.everything.termination-grace-period=1s",
				"mcp.servers.everything.call.wait-for-recovery=60s");

	@AfterEach
	void noChildIsLeftAfterTheContextCloses() {
		await().atMost(TestServers.PATIENCE).until(() -> ProcessHandle.current().children().findAny().isEmpty());
	}

	@Test
	void customizersAnnotatedHandlersResourcesPromptsAndSubscriptionsSurviveASigkill() {
		this.contextRunner.run((context) -> {
			ClientHandlers handlers = context.getBean(ClientHandlers.class);
			McpServerSupervisor everything = context.getBean(McpSupervisors.class).supervisor("everything");
			McpServerClient client = context.getBean(McpServerClients.class).client("everything");
			awaitConditionalTools(everything, 1);

			// generation 1: the server's requests reach a customizer and an annotated
			// bean
			long sampleStarted = System.nanoTime();
			assertThat(sample(everything)).contains("sampled for everything");
			long sampleRoundTrip = System.nanoTime() - sampleStarted;
			assertThat(elicit(everything)).contains("Ada");
			assertThat(handlers.samplingGenerations).containsExactly(1);
			assertThat(handlers.toolLists).anyMatch((tools) -> tools.contains("trigger-sampling-request"));

			// logs and progress reach the annotated handlers
			client.subscribe(RESOURCE);
			await().atMost(TestServers.PATIENCE)
				.until(() -> handlers.logs.stream().anyMatch((log) -> String.valueOf(log.data()).contains(RESOURCE)));
			everything.callTool(CallToolRequest.builder("trigger-long-running-operation")
				.arguments(Map.of("duration", 0.2, "steps", 2))
				.meta(Map.of("progressToken", "p1"))
				.build());
			await().atMost(TestServers.PATIENCE).until(() -> handlers.progress.size() >= 2);
			assertThat(handlers.progress).extracting(ProgressNotification::progressToken).containsOnly("p1");

			// resources and prompts
			assertThat(client.listResources()).extracting(Resource::uri).isNotEmpty();
			assertThat(text(client.readResource(RESOURCE).contents().get(0))).isNotBlank();
			assertThat(client.listPrompts()).extracting(Prompt::name).contains("simple-prompt", "args-prompt");
			assertThat(
					((TextContent) client.getPrompt("args-prompt", Map.of("city", "Lyon")).messages().get(0).content())
						.text())
				.isEqualTo("What's weather in Lyon?");
			assertThat(client.listResourceTemplates()).isNotEmpty();
			everything.callTool(CallToolRequest.builder("gzip-file-as-resource")
				.arguments(Map.of("name", "hello.gz", "data", "data:text/plain;base64,aGVsbG8=", "outputType",
						"resourceLink"))
				.build());
			await().atMost(TestServers.PATIENCE)
				.until(() -> handlers.resourceLists.stream()
					.anyMatch((event) -> event.getResources().stream().anyMatch((r) -> r.name().equals("hello.gz"))));

			// roots: configured, then changed at run time
			assertThat(roots(everything)).contains("file:///srv/first");
			client.setRoots(List.of(new Root("file:///srv/second", "second")));
			await().atMost(TestServers.PATIENCE).until(() -> roots(everything).contains("file:///srv/second"));

			// a SIGKILL: a read in flight waits for generation 2
			long killedAt = System.nanoTime();
			ProcessHandle.of(everything.status().pid()).orElseThrow().destroyForcibly();
			CompletableFuture<String> readDuringRestart = CompletableFuture
				.supplyAsync(() -> text(client.readResource(RESOURCE).contents().get(0)));
			await().atMost(TestServers.PATIENCE)
				.until(() -> everything.state() == McpServerState.UP && everything.status().generation() == 2);
			long upAt = System.nanoTime();
			assertThat(readDuringRestart.get()).isNotBlank();
			awaitConditionalTools(everything, 2);

			// generation 2: the same handlers, the same roots, the subscription without
			// subscribing again
			assertThat(sample(everything)).contains("sampled for everything");
			assertThat(elicit(everything)).contains("Ada");
			assertThat(handlers.samplingGenerations).containsExactly(1, 2);
			assertThat(roots(everything)).contains("file:///srv/second").doesNotContain("file:///srv/first");
			int updatesBefore = handlers.updates.size();
			everything.callTool(CallToolRequest.builder("toggle-subscriber-updates").arguments(Map.of()).build());
			await().atMost(TestServers.PATIENCE).until(() -> handlers.updates.size() > updatesBefore);
			long updatedAt = System.nanoTime();
			McpResourcesUpdatedEvent update = handlers.updates.get(handlers.updates.size() - 1);
			assertThat(update.getServer()).isEqualTo("everything");
			assertThat(update.getContents()).extracting((contents) -> contents.uri()).containsExactly(RESOURCE);
			assertThat(client.subscriptions()).containsExactly(RESOURCE);
			logger.info("server-everything: a tool call answered through a sampling request in "
					+ TestServers.millis(sampleRoundTrip) + " ms; generation 2 up "
					+ TestServers.millis(upAt - killedAt) + " ms after the SIGKILL, its first resource update "
					+ TestServers.millis(updatedAt - upAt) + " ms after that");
		});
	}

	@Test
	void annotatedHandlersAndConfiguredRootsDeclareTheirCapabilitiesWithoutACustomizer() {
		new ApplicationContextRunner().withConfiguration(AutoConfigurations.of(McpSupervisorAutoConfiguration.class))
			.withUserConfiguration(ElicitationOnly.class)
			.withPropertyValues("mcp.servers.everything.command=node",
					"mcp.servers.everything.args[0]=" + TestServers.everythingScript(),
					"mcp.servers.everything.roots[0]=file:///srv/first")
			.run((context) -> {
				McpServerSupervisor everything = context.getBean(McpSupervisors.class).supervisor("everything");
				await().atMost(TestServers.PATIENCE)
					.until(() -> everything.tools().find("trigger-elicitation-request") != null
							&& everything.tools().find("get-roots-list") != null);
				assertThat(everything.tools().find("trigger-sampling-request")).isNull();
				assertThat(elicit(everything)).contains("Ada");
				assertThat(roots(everything)).contains("file:///srv/first");
			});
	}

	@Test
	void asyncCustomizersApplyWithTheAsyncClientType() {
		new ApplicationContextRunner().withConfiguration(AutoConfigurations.of(McpSupervisorAutoConfiguration.class))
			.withUserConfiguration(AsyncCustomizer.class)
			.withPropertyValues("mcp.client-type=async", "mcp.servers.everything.command=node",
					"mcp.servers.everything.args[0]=" + TestServers.everythingScript())
			.run((context) -> {
				McpServerSupervisor everything = context.getBean(McpSupervisors.class).supervisor("everything");
				await().atMost(TestServers.PATIENCE)
					.until(() -> everything.tools().find("trigger-sampling-request") != null);
				assertThat(sample(everything)).contains("sampled asynchronously for everything");
			});
	}

	@Test
	void customizersOfTheOtherClientTypeFailTheStartWithTheFix() {
		new ApplicationContextRunner().withConfiguration(AutoConfigurations.of(McpSupervisorAutoConfiguration.class))
			.withUserConfiguration(AsyncCustomizer.class)
			.withPropertyValues("mcp.servers.everything.command=node",
					"mcp.servers.everything.args[0]=" + TestServers.everythingScript())
			.run((context) -> assertThat(NestedExceptionUtils.getMostSpecificCause(context.getStartupFailure()))
				.isInstanceOf(IllegalStateException.class)
				.satisfies(
						(ex) -> assertThat(ex.getClass().getSimpleName()).isEqualTo("McpClientTypeMismatchException"))
				.hasMessage("1 McpClientCustomizer<McpClient.AsyncSpec> bean(s) cannot be applied: mcp.client-type is"
						+ " sync. Set mcp.client-type=async (as spring.ai.mcp.client.type chooses for Spring AI's"
						+ " clients), or customize the other spec."));
	}

	@Test
	void aCustomizerCannotChangeTheTimeoutsTheSupervisorManages() {
		new ApplicationContextRunner().withConfiguration(AutoConfigurations.of(McpSupervisorAutoConfiguration.class))
			.withBean("impatient", McpClientCustomizer.class, () -> (McpClientCustomizer<McpClient.SyncSpec>) (name,
					spec) -> spec.requestTimeout(Duration.ofNanos(1)).initializationTimeout(Duration.ofNanos(1)))
			.withPropertyValues("mcp.servers.everything.command=node",
					"mcp.servers.everything.args[0]=" + TestServers.everythingScript())
			.run((context) -> {
				McpServerSupervisor everything = context.getBean(McpSupervisors.class).supervisor("everything");
				assertThat(everything.state()).isEqualTo(McpServerState.UP);
				assertThat(TestServers.text(everything
					.callTool(CallToolRequest.builder("echo").arguments(Map.of("message", "patient")).build())))
					.contains("patient");
			});
	}

	@Test
	void aCustomizerThatThrowsFailsTheServerWithoutLeavingItsProcess() {
		new ApplicationContextRunner().withConfiguration(AutoConfigurations.of(McpSupervisorAutoConfiguration.class))
			.withBean("broken", McpClientCustomizer.class,
					() -> (McpClientCustomizer<McpClient.SyncSpec>) (name, spec) -> {
						throw new IllegalStateException("customizer bug");
					})
			.withPropertyValues("mcp.servers.everything.command=node",
					"mcp.servers.everything.args[0]=" + TestServers.everythingScript(),
					"mcp.servers.everything.reconnect.initial-delay=100ms",
					"mcp.servers.everything.reconnect.max-attempts=3")
			.run((context) -> {
				McpServerSupervisor everything = context.getBean(McpSupervisors.class).supervisor("everything");
				await().atMost(TestServers.PATIENCE).until(() -> everything.state() == McpServerState.FAILED);
				assertThat(everything.status().lastError())
					.isEqualTo("configuration error: building the MCP client failed: customizer bug");
				assertThat(everything.status().generation()).isOne();
				assertThat(ProcessHandle.current().children()).as("no server process is left").isEmpty();
			});
	}

	@Test
	void aRequestForACapabilityTheServerLacksNamesIt() {
		new ApplicationContextRunner().withConfiguration(AutoConfigurations.of(McpSupervisorAutoConfiguration.class))
			.withPropertyValues("mcp.servers.demo.command=" + TestServers.java(), "mcp.servers.demo.args[0]=-cp",
					"mcp.servers.demo.args[1]=" + System.getProperty("java.class.path"),
					"mcp.servers.demo.args[2]=" + ListingMcpServer.class.getName(), "mcp.servers.demo.args[3]=tools",
					"mcp.servers.demo.args[4]=echo")
			.run((context) -> {
				McpServerClient client = context.getBean(McpServerClients.class).client("demo");
				assertThatExceptionOfType(McpCapabilityException.class).isThrownBy(client::listPrompts)
					.withMessage("MCP server 'demo' does not offer prompts (it did not declare the capability at"
							+ " initialize)");
				assertThatExceptionOfType(McpCapabilityException.class).isThrownBy(() -> client.subscribe("x:/y"))
					.withMessageContaining("does not offer resource");
				assertThat(client.subscriptions()).isEmpty();
				assertThat(context.getBean(McpSupervisors.class).supervisor("demo").status().generation()).isEqualTo(1);
			});
	}

	// server-everything registers its sampling and elicitation tools after initialize,
	// for a client that declares the capabilities, and announces them
	private static void awaitConditionalTools(McpServerSupervisor everything, int generation) {
		await().atMost(TestServers.PATIENCE)
			.until(() -> everything.tools().generation() == generation
					&& everything.tools().find("trigger-sampling-request") != null
					&& everything.tools().find("trigger-elicitation-request") != null
					&& everything.tools().find("get-roots-list") != null);
	}

	private static String sample(McpServerSupervisor everything) {
		return TestServers.text(everything.callTool(CallToolRequest.builder("trigger-sampling-request")
			.arguments(Map.of("prompt", "hello", "maxTokens", 10))
			.build()));
	}

	private static String elicit(McpServerSupervisor everything) {
		return everything.callTool(CallToolRequest.builder("trigger-elicitation-request").arguments(Map.of()).build())
			.content()
			.stream()
			.map((content) -> ((TextContent) content).text())
			.reduce("", String::concat);
	}

	private static String roots(McpServerSupervisor everything) {
		Tool tool = everything.tools().find("get-roots-list");
		assertThat(tool).isNotNull();
		return everything.callTool(CallToolRequest.builder("get-roots-list").arguments(Map.of()).build())
			.content()
			.stream()
			.map((content) -> ((TextContent) content).text())
			.reduce("", String::concat);
	}

	private static String text(Object contents) {
		return ((TextResourceContents) contents).text();
	}

	/**
	 * A customizer that answers sampling requests, and annotated handlers for
	 * elicitation, logs and progress, as a Spring AI application has them.
	 */
	@Configuration(proxyBeanMethods = false)
	static class ClientHandlers {

		final List<Integer> samplingGenerations = new CopyOnWriteArrayList<>();

		final List<LoggingMessageNotification> logs = new CopyOnWriteArrayList<>();

		final List<ProgressNotification> progress = new CopyOnWriteArrayList<>();

		final List<McpResourcesUpdatedEvent> updates = new CopyOnWriteArrayList<>();

		final List<List<String>> toolLists = new CopyOnWriteArrayList<>();

		final List<McpResourcesChangedEvent> resourceLists = new CopyOnWriteArrayList<>();

		private int generation;

		@Bean
		McpClientCustomizer<McpClient.SyncSpec> samplingCustomizer() {
			return (name, spec) -> {
				int built = ++this.generation;
				spec.capabilities(ClientCapabilities.builder().sampling().elicitation().roots(true).build())
					.sampling((request) -> {
						this.samplingGenerations.add(built);
						return CreateMessageResult.builder(Role.ASSISTANT, "sampled for " + name, "scripted").build();
					});
			};
		}

		@McpElicitation(clients = "everything")
		ElicitResult elicit(ElicitRequest request) {
			return new ElicitResult(ElicitResult.Action.ACCEPT, Map.of("name", "Ada"), null);
		}

		@McpLogging(clients = "everything")
		void log(LoggingMessageNotification notification) {
			this.logs.add(notification);
		}

		@McpProgress(clients = "everything")
		void progress(ProgressNotification notification) {
			this.progress.add(notification);
		}

		@McpToolListChanged(clients = "everything")
		void toolsChanged(List<Tool> tools) {
			this.toolLists.add(tools.stream().map(Tool::name).toList());
		}

		@EventListener
		void resourcesChanged(McpResourcesChangedEvent event) {
			this.resourceLists.add(event);
		}

		@EventListener
		void updated(McpResourcesUpdatedEvent event) {
			this.updates.add(event);
		}

	}

	/**
	 * An asynchronous customizer, as an application with
	 * {@code spring.ai.mcp.client.type=async} has it.
	 */
	@Configuration(proxyBeanMethods = false)
	static class AsyncCustomizer {

		@Bean
		McpClientCustomizer<McpClient.AsyncSpec> asyncSamplingCustomizer() {
			return (name,
					spec) -> spec.capabilities(ClientCapabilities.builder().sampling().build())
						.sampling((request) -> Mono.just(CreateMessageResult
							.builder(Role.ASSISTANT, "sampled asynchronously for " + name, "scripted")
							.build()));
		}

	}

	/**
	 * An annotated elicitation handler alone.
	 */
	@Configuration(proxyBeanMethods = false)
	static class ElicitationOnly {

		@McpElicitation(clients = "everything")
		ElicitResult elicit(ElicitRequest request) {
			return new ElicitResult(ElicitResult.Action.ACCEPT, Map.of("name", "Ada"), null);
		}

	}

}
