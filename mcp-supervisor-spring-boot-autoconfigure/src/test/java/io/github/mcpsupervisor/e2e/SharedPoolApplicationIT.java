package io.github.mcpsupervisor.e2e;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;

import io.github.mcpsupervisor.autoconfigure.McpSupervisorAutoConfiguration;
import io.github.mcpsupervisor.demo.DemoMcpServer;
import io.github.mcpsupervisor.demo.ServerCommands;
import io.github.mcpsupervisor.supervisor.McpServerState;
import io.github.mcpsupervisor.supervisor.McpServerSupervisor;
import io.github.mcpsupervisor.supervisor.McpSupervisors;
import io.github.mcpsupervisor.transport.StdioServerDefinition;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import org.springframework.ai.tool.ToolCallback;
import org.springframework.ai.tool.ToolCallbackProvider;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.assertj.AssertableApplicationContext;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * An application configured as the documentation shows, whose own code fans tool calls
 * out on the common {@link ForkJoinPool} with a parallel stream: the calls themselves
 * hold every worker of the pool while they wait for their answers. Over stdio and
 * Streamable HTTP, both revisions, every call is answered, and a server killed under
 * calls in flight is found at once. Run by the failsafe execution {@code shared-pool}, in
 * a JVM that sees 4 CPUs.
 */
class SharedPoolApplicationIT {

	private final List<Process> servers = new ArrayList<>();

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(McpSupervisorAutoConfiguration.class));

	@AfterEach
	void stopServers() {
		for (Process server : this.servers) {
			server.descendants().forEach(ProcessHandle::destroyForcibly);
			server.destroyForcibly();
		}
		await().atMost(TestServers.PATIENCE).until(() -> ProcessHandle.current().descendants().findAny().isEmpty());
	}

	@Test
	void toolCallsFannedOutOnTheCommonPoolAreAllAnswered() throws Exception {
		try (FullCommonPool check = FullCommonPool.fill()) {
			// the JVM is one where the pool can be filled
		}
		List<String> properties = new ArrayList<>(stdio("everything", TestServers.everything("everything")));
		properties.add("mcp.servers.remote.transport=streamable-http");
		properties.add("mcp.servers.remote.url=http://127.0.0.1:" + startEverythingOverHttp() + "/mcp");
		properties.add("mcp.servers.modern.transport=streamable-http");
		properties.add("mcp.servers.modern.url=" + startModernOverHttp());
		this.contextRunner.withPropertyValues(properties.toArray(String[]::new)).run((context) -> {
			awaitUp(context, "everything", "remote", "modern");
			ToolCallbackProvider provider = context.getBean(ToolCallbackProvider.class);
			List<ToolCallback> echoes = List.of(callback(provider, "everything_echo"),
					callback(provider, "remote_echo"), callback(provider, "modern_echo"));
			int calls = 8 * ForkJoinPool.getCommonPoolParallelism();
			List<String> answers = CompletableFuture
				.supplyAsync(() -> IntStream.range(0, calls)
					.parallel()
					.mapToObj((i) -> echoes.get(i % echoes.size()).call("{\"message\":\"call " + i + "\"}"))
					.toList())
				.get(TestServers.PATIENCE.toSeconds(), TimeUnit.SECONDS);
			for (int i = 0; i < calls; i++) {
				assertThat(answers.get(i)).contains("call " + i);
			}
			for (String server : List.of("everything", "remote", "modern")) {
				McpServerSupervisor supervisor = context.getBean(McpSupervisors.class).supervisor(server);
				assertThat(supervisor.status().generation()).as("generations of %s", server).isOne();
			}
		});
	}

	@Test
	void aServerKilledUnderCallsFannedOutOnTheCommonPoolIsFoundAtOnce() throws Exception {
		try (FullCommonPool check = FullCommonPool.fill()) {
			// the JVM is one where the pool can be filled
		}
		List<String> properties = new ArrayList<>(stdio("demo", TestServers.demo("demo", Map.of())));
		// far longer than a loss takes to be found: a call that waits for it fails here
		properties.add("mcp.servers.demo.request-timeout=5m");
		properties.add("mcp.servers.demo.call.wait-for-recovery=0s");
		this.contextRunner.withPropertyValues(properties.toArray(String[]::new)).run((context) -> {
			awaitUp(context, "demo");
			McpServerSupervisor demo = context.getBean(McpSupervisors.class).supervisor("demo");
			ToolCallback slow = callback(context.getBean(ToolCallbackProvider.class), "demo_slow");
			// one call on every worker of the pool
			int calls = ForkJoinPool.getCommonPoolParallelism();
			CompletableFuture<List<String>> answers = CompletableFuture.supplyAsync(() -> IntStream.range(0, calls)
				.parallel()
				.mapToObj((i) -> outcome(slow, "{\"millis\":600000}"))
				.toList());
			await().atMost(TestServers.PATIENCE)
				.until(() -> demo.status()
					.stderrTail()
					.stream()
					.filter((line) -> line.contains(DemoMcpServer.CALL_STARTED + "slow"))
					.count() == calls);
			long pid = demo.status().pid();
			ProcessHandle.of(pid).orElseThrow().destroyForcibly();
			assertThat(answers.get(TestServers.PATIENCE.toSeconds(), TimeUnit.SECONDS))
				.allSatisfy((answer) -> assertThat(answer).contains("crashed during the call"));
			await().atMost(TestServers.PATIENCE)
				.until(() -> demo.state() == McpServerState.UP && !Long.valueOf(pid).equals(demo.status().pid()));
		});
	}

	private static String outcome(ToolCallback callback, String arguments) {
		try {
			return callback.call(arguments);
		}
		catch (RuntimeException ex) {
			return String.valueOf(ex.getMessage());
		}
	}

	private static void awaitUp(AssertableApplicationContext context, String... servers) {
		assertThat(context).hasNotFailed();
		McpSupervisors supervisors = context.getBean(McpSupervisors.class);
		for (String server : servers) {
			await().atMost(TestServers.PATIENCE)
				.until(() -> supervisors.supervisor(server).state() == McpServerState.UP);
		}
	}

	private static ToolCallback callback(ToolCallbackProvider provider, String name) {
		for (ToolCallback callback : provider.getToolCallbacks()) {
			if (callback.getToolDefinition().name().equals(name)) {
				return callback;
			}
		}
		throw new AssertionError("no tool " + name);
	}

	// a stdio server as mcp.servers.<name>, each of its arguments in its own property
	private static List<String> stdio(String name, StdioServerDefinition definition) {
		List<String> properties = new ArrayList<>();
		properties.add("mcp.servers." + name + ".command=" + definition.command());
		for (int i = 0; i < definition.args().size(); i++) {
			properties.add("mcp.servers." + name + ".args[" + i + "]=" + definition.args().get(i));
		}
		return properties;
	}

	private int startEverythingOverHttp() throws IOException {
		int port = freePort();
		this.servers.add(ServerCommands.everythingOverHttp(TestServers.npmDirectory(), port).start());
		await().atMost(TestServers.PATIENCE).until(() -> ServerCommands.isListening(port));
		return port;
	}

	private String startModernOverHttp() throws Exception {
		Process server = ServerCommands.modernOverHttp(TestServers.npmDirectory(), 0, false).start();
		this.servers.add(server);
		return "http://127.0.0.1:" + ServerCommands.listeningPort(server, TestServers.PATIENCE) + "/mcp";
	}

	private static int freePort() throws IOException {
		try (ServerSocket socket = new ServerSocket(0, 0, InetAddress.getLoopbackAddress())) {
			return socket.getLocalPort();
		}
	}

}
