package io.github.mcpsupervisor.e2e;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;

import io.github.mcpsupervisor.autoconfigure.McpSupervisorAutoConfiguration;
import io.github.mcpsupervisor.client.McpServerClient;
import io.github.mcpsupervisor.client.McpServerClients;
import io.github.mcpsupervisor.event.McpResourcesUpdatedEvent;
import io.github.mcpsupervisor.supervisor.McpCapabilityException;
import io.github.mcpsupervisor.supervisor.McpServerState;
import io.github.mcpsupervisor.supervisor.McpServerSupervisor;
import io.github.mcpsupervisor.supervisor.McpSupervisors;
import io.modelcontextprotocol.spec.McpError;
import io.modelcontextprotocol.spec.McpSchema.CallToolRequest;
import io.modelcontextprotocol.spec.McpSchema.CompleteRequest;
import io.modelcontextprotocol.spec.McpSchema.CompleteRequest.CompleteArgument;
import io.modelcontextprotocol.spec.McpSchema.Prompt;
import io.modelcontextprotocol.spec.McpSchema.PromptReference;
import io.modelcontextprotocol.spec.McpSchema.Resource;
import io.modelcontextprotocol.spec.McpSchema.ResourceReference;
import io.modelcontextprotocol.spec.McpSchema.ResourceTemplate;
import io.modelcontextprotocol.spec.McpSchema.Root;
import io.modelcontextprotocol.spec.McpSchema.TextContent;
import io.modelcontextprotocol.spec.McpSchema.TextResourceContents;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.event.EventListener;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

/**
 * {@link McpServerClient} against a real server of revision 2026-07-28 only (the SDK's
 * modern server, {@link ModernContentMcpServer}): resources, templates, prompts and
 * completions in the 2025-11-25 types, and a resource subscription that is a
 * {@code subscriptions/listen} stream re-established on the next process.
 */
class ModernServerClientIT {

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(McpSupervisorAutoConfiguration.class));

	@AfterEach
	void noChildIsLeftAfterTheContextCloses() {
		await().atMost(TestServers.PATIENCE).until(() -> ProcessHandle.current().children().findAny().isEmpty());
	}

	@ParameterizedTest
	@ValueSource(strings = { "2026-07-28", "auto" })
	@SuppressWarnings("deprecation") // roots: 2026-07-28 deprecates them
	void everyRequestOfTheClientIsAnsweredInTheTypesOf20251125(String protocol) {
		this.contextRunner.withPropertyValues(server("content", "protocol=" + protocol)).run((context) -> {
			McpServerSupervisor supervisor = context.getBean(McpSupervisors.class).supervisor("content");
			McpServerClient client = context.getBean(McpServerClients.class).client("content");
			assertThat(supervisor.status().protocol()).isEqualTo("2026-07-28");
			assertThat(supervisor.tools().session().serverCapabilities().resources().subscribe()).isTrue();
			assertThat(client.listResources()).extracting(Resource::uri).containsExactly(ModernContentMcpServer.NOTE);
			assertThat(client.listResourceTemplates()).extracting(ResourceTemplate::uriTemplate)
				.containsExactly(ModernContentMcpServer.TEMPLATE);
			assertThat(text(client.readResource(ModernContentMcpServer.NOTE).contents())).startsWith("note v");
			assertThat(text(client.readResource("memo://notes/Ada").contents())).isEqualTo("note named Ada");
			assertThat(client.listPrompts()).extracting(Prompt::name).containsExactly("greet");
			assertThat(
					((TextContent) client.getPrompt("greet", Map.of("name", "Ada")).messages().get(0).content()).text())
				.isEqualTo("Greet Ada.");
			assertThat(client
				.complete(new CompleteRequest(new PromptReference("greet"), new CompleteArgument("name", "A")))
				.completion()
				.values()).containsExactly("Ada", "Alan");
			assertThat(client
				.complete(new CompleteRequest(new ResourceReference(ModernContentMcpServer.TEMPLATE),
						new CompleteArgument("name", "G")))
				.completion()
				.values()).containsExactly("Grace");
			List<Root> roots = List.of(new Root("file:///srv/b", "b"));
			client.setRoots(roots);
			assertThat(client.roots()).as("offered from the next input request on").isEqualTo(roots);
			assertThat(supervisor.status().generation()).isOne();
		});
	}

	@Test
	void aSubscriptionIsListenedForOnEveryNewProcess() {
		this.contextRunner.withUserConfiguration(Updates.class)
			.withPropertyValues(server("content", "protocol=2026-07-28"))
			.run((context) -> {
				Updates updates = context.getBean(Updates.class);
				McpServerSupervisor supervisor = context.getBean(McpSupervisors.class).supervisor("content");
				McpServerClient client = context.getBean(McpServerClients.class).client("content");
				client.subscribe(ModernContentMcpServer.NOTE);
				long first = supervisor.status().pid();
				touch(supervisor);
				await().atMost(TestServers.PATIENCE).until(() -> updates.texts().contains("note v2 of pid " + first));

				ProcessHandle.of(first).ifPresent(ProcessHandle::destroyForcibly);
				await().atMost(TestServers.PATIENCE)
					.until(() -> supervisor.state() == McpServerState.UP && supervisor.status().generation() == 2);
				long second = supervisor.status().pid();
				assertThat(second).isNotEqualTo(first);
				touch(supervisor);
				await().atMost(TestServers.PATIENCE).until(() -> updates.texts().contains("note v2 of pid " + second));
				assertThat(client.subscriptions()).containsExactly(ModernContentMcpServer.NOTE);
			});
	}

	@Test
	void whatTheServerDoesNotOfferOrAcknowledgeFailsAndIsNotKept() {
		this.contextRunner
			.withPropertyValues(
					server("content", "protocol=2026-07-28", "args[3]=refuse-subscriptions", "args[4]=without-prompts"))
			.run((context) -> {
				McpServerClient client = context.getBean(McpServerClients.class).client("content");
				assertThatExceptionOfType(McpCapabilityException.class).isThrownBy(client::listPrompts)
					.satisfies((ex) -> assertThat(ex.getCapability()).isEqualTo("prompts"));
				assertThat(client.listResources()).extracting(Resource::uri)
					.containsExactly(ModernContentMcpServer.NOTE);
				assertThatExceptionOfType(McpError.class)
					.isThrownBy(() -> client.subscribe(ModernContentMcpServer.NOTE))
					.withMessageContaining(
							"did not acknowledge the subscription to resource '" + ModernContentMcpServer.NOTE + "'");
				assertThat(client.subscriptions()).isEmpty();
			});
	}

	private static void touch(McpServerSupervisor supervisor) {
		assertThat(TestServers.text(supervisor.callTool(CallToolRequest.builder("touch").arguments(Map.of()).build())))
			.isEqualTo("touched 2");
	}

	private static String text(List<?> contents) {
		return ((TextResourceContents) contents.get(0)).text();
	}

	private static String[] server(String name, String... more) {
		String prefix = "mcp.servers." + name + ".";
		List<String> properties = new ArrayList<>(List.of(prefix + "command=" + TestServers.java(),
				prefix + "args[0]=-cp", prefix + "args[1]=" + System.getProperty("java.class.path"),
				prefix + "args[2]=" + ModernContentMcpServer.class.getName()));
		Arrays.stream(more).map((property) -> prefix + property).forEach(properties::add);
		return properties.toArray(String[]::new);
	}

	/**
	 * Collects the resource updates the application hears of.
	 */
	@Configuration(proxyBeanMethods = false)
	static class Updates {

		final List<McpResourcesUpdatedEvent> events = new CopyOnWriteArrayList<>();

		@EventListener
		void updated(McpResourcesUpdatedEvent event) {
			this.events.add(event);
		}

		List<String> texts() {
			return this.events.stream().map((event) -> text(event.getContents())).toList();
		}

	}

}
