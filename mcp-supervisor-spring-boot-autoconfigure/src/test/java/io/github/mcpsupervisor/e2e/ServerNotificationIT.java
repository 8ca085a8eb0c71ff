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
import io.github.mcpsupervisor.supervisor.McpServerState;
import io.github.mcpsupervisor.supervisor.McpServerSupervisor;
import io.github.mcpsupervisor.supervisor.McpSupervisors;
import io.modelcontextprotocol.spec.McpSchema.CallToolRequest;
import io.modelcontextprotocol.spec.McpSchema.LoggingMessageNotification;
import io.modelcontextprotocol.spec.McpSchema.Tool;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Mono;

import org.springframework.ai.mcp.annotation.McpLogging;
import org.springframework.ai.mcp.annotation.McpToolListChanged;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.event.EventListener;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * What a server's notifications cost it and the application: handlers that call the
 * server they hear from, and floods of resource updates.
 */
class ServerNotificationIT {

	private static final Log logger = LogFactory.getLog(ServerNotificationIT.class);

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(McpSupervisorAutoConfiguration.class));

	@AfterEach
	void noChildIsLeftAfterTheContextCloses() {
		await().atMost(TestServers.PATIENCE).until(() -> ProcessHandle.current().children().findAny().isEmpty());
	}

	@Test
	void aHandlerThatCallsItsServerWhileTheServerAnnouncesNewToolsNeitherBlocksNorKillsIt() {
		this.contextRunner.withUserConfiguration(CallingToolHandler.class)
			.withPropertyValues(server("changing", "tools-changing", "request-timeout=3s", "health-check.timeout=1s"))
			.run((context) -> {
				CallingToolHandler handler = context.getBean(CallingToolHandler.class);
				McpServerSupervisor changing = context.getBean(McpSupervisors.class).supervisor("changing");
				await().atMost(TestServers.PATIENCE).until(() -> handler.answers.size() >= CallingToolHandler.CALLS);
				assertThat(handler.answers).containsOnly("echo called");
				assertThat(handler.threads).noneMatch((thread) -> thread.endsWith("-stdout"));
				assertThat(changing.state()).isEqualTo(McpServerState.UP);
				assertThat(changing.status().generation()).isOne();
			});
	}

	@Test
	void anAsynchronousLoggingHandlerThatCallsItsServerDoesNotBlockTheReader() {
		this.contextRunner.withUserConfiguration(CallingLoggingHandler.class)
			.withPropertyValues(server("logging", "logging", "request-timeout=3s", "health-check.timeout=1s"))
			.withPropertyValues("mcp.client-type=async")
			.run((context) -> {
				CallingLoggingHandler handler = context.getBean(CallingLoggingHandler.class);
				McpServerSupervisor logging = context.getBean(McpSupervisors.class).supervisor("logging");
				assertThat(
						TestServers.text(logging.callTool(CallToolRequest.builder("log").arguments(Map.of()).build())))
					.isEqualTo("logged");
				await().atMost(TestServers.PATIENCE).until(() -> !handler.answers.isEmpty());
				assertThat(handler.answers).containsExactly("echo called");
				assertThat(logging.status().generation()).isOne();
			});
	}

	@Test
	void aFloodOfResourceUpdatesIsReadOnlyForSubscribedResourcesAndCoalesced() {
		this.contextRunner.withUserConfiguration(Updates.class)
			.withPropertyValues(server("updates", "updates", "args[4]=20000", "args[5]=2000"))
			.run((context) -> {
				Updates updates = context.getBean(Updates.class);
				McpServerSupervisor server = context.getBean(McpSupervisors.class).supervisor("updates");
				McpServerClient client = context.getBean(McpServerClients.class).client("updates");
				client.subscribe("flood:/watched");
				assertThat(
						TestServers.text(server.callTool(CallToolRequest.builder("flood").arguments(Map.of()).build())))
					.isEqualTo("flooded");
				await().atMost(TestServers.PATIENCE).until(() -> !updates.events.isEmpty());
				String reads = TestServers
					.text(server.callTool(CallToolRequest.builder("reads").arguments(Map.of()).build()));
				String[] counts = reads.split(" ");
				assertThat(Integer.parseInt(counts[0])).as("reads of every resource").isBetween(1, 5);
				assertThat(Integer.parseInt(counts[1])).as("reads of the subscribed resource")
					.isEqualTo(Integer.parseInt(counts[0]));
				assertThat(updates.events)
					.allSatisfy((event) -> assertThat(event.getContents()).extracting((contents) -> contents.uri())
						.containsExactly("flood:/watched"));
				assertThat(server.status().generation()).isOne();
				logger.info("22,000 resource updates (2,000 of the resource subscribed to): " + counts[0] + " read(s), "
						+ updates.events.size() + " event(s)");
			});
	}

	// The properties of a server running the fixture in a mode, with more of its own.
	private static String[] server(String name, String mode, String... more) {
		String prefix = "mcp.servers." + name + ".";
		List<String> properties = new ArrayList<>(List.of(prefix + "command=" + TestServers.java(),
				prefix + "args[0]=-cp", prefix + "args[1]=" + System.getProperty("java.class.path"),
				prefix + "args[2]=" + NotifyingMcpServer.class.getName(), prefix + "args[3]=" + mode));
		Arrays.stream(more).map((property) -> prefix + property).forEach(properties::add);
		return properties.toArray(String[]::new);
	}

	/**
	 * A handler of tool changes that calls the server it hears from, as an application
	 * that refreshes something of its own would.
	 */
	@Configuration(proxyBeanMethods = false)
	static class CallingToolHandler {

		static final int CALLS = 3;

		final List<String> answers = new CopyOnWriteArrayList<>();

		final List<String> threads = new CopyOnWriteArrayList<>();

		private final ObjectProvider<McpSupervisors> supervisors;

		CallingToolHandler(ObjectProvider<McpSupervisors> supervisors) {
			this.supervisors = supervisors;
		}

		@McpToolListChanged(clients = "changing")
		void toolsChanged(List<Tool> tools) {
			this.threads.add(Thread.currentThread().getName());
			if (this.answers.size() >= CALLS) {
				return;
			}
			McpServerSupervisor changing = this.supervisors.getObject().supervisor("changing");
			try {
				this.answers.add(TestServers
					.text(changing.callTool(CallToolRequest.builder("echo").arguments(Map.of()).build())));
			}
			catch (RuntimeException ex) {
				this.answers.add(ex.toString());
			}
		}

	}

	/**
	 * An asynchronous logging handler that calls the server it hears from, blocking as
	 * handlers written with a blocking body do.
	 */
	@Configuration(proxyBeanMethods = false)
	static class CallingLoggingHandler {

		final List<String> answers = new CopyOnWriteArrayList<>();

		private final ObjectProvider<McpSupervisors> supervisors;

		CallingLoggingHandler(ObjectProvider<McpSupervisors> supervisors) {
			this.supervisors = supervisors;
		}

		@McpLogging(clients = "logging")
		Mono<Void> log(LoggingMessageNotification notification) {
			return Mono.fromRunnable(() -> {
				McpServerSupervisor logging = this.supervisors.getObject().supervisor("logging");
				try {
					this.answers.add(TestServers
						.text(logging.callTool(CallToolRequest.builder("echo").arguments(Map.of()).build())));
				}
				catch (RuntimeException ex) {
					this.answers.add(ex.toString());
				}
			});
		}

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

	}

}
