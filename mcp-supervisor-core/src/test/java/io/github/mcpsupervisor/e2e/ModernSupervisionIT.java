package io.github.mcpsupervisor.e2e;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

import io.github.mcpsupervisor.demo.DemoMcpServer;
import io.github.mcpsupervisor.demo.ServerCommands;
import io.github.mcpsupervisor.supervisor.CallPolicy;
import io.github.mcpsupervisor.supervisor.McpConnector;
import io.github.mcpsupervisor.supervisor.McpServerState;
import io.github.mcpsupervisor.supervisor.McpServerStateChange;
import io.github.mcpsupervisor.supervisor.McpServerSupervisor;
import io.github.mcpsupervisor.supervisor.McpServerUnavailableException;
import io.github.mcpsupervisor.supervisor.ReconnectPolicy;
import io.github.mcpsupervisor.supervisor.SupervisorListener;
import io.github.mcpsupervisor.supervisor.ThreadPoolSupervisorScheduler;
import io.github.mcpsupervisor.transport.StdioServerDefinition;
import io.github.mcpsupervisor.transport.StreamableHttpServerDefinition;
import io.github.mcpsupervisor.transport.internal.Revisions;
import io.github.mcpsupervisor.transport.internal.http.StreamableHttpConnector;
import io.github.mcpsupervisor.transport.internal.modern.NegotiatingConnector;
import io.github.mcpsupervisor.transport.internal.stdio.StdioConnector;
import io.modelcontextprotocol.spec.McpSchema.CallToolRequest;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Servers of MCP revision 2026-07-28 under the same supervision as those of 2025-11-25:
 * the TypeScript SDK v2 test servers over stdio (one that rejects initialize, one that
 * serves both revisions) and over stateless Streamable HTTP, killed and started again,
 * beside npm's server-everything, which speaks 2025-11-25 only.
 */
@Tag("boot-independent")
class ModernSupervisionIT {

	private static final ReconnectPolicy RECONNECT = ReconnectPolicy.builder()
		.initialDelay(Duration.ofMillis(100))
		.maxDelay(Duration.ofSeconds(2))
		.maxAttempts(10)
		.jitter(0.1)
		.build();

	private final ThreadPoolSupervisorScheduler scheduler = new ThreadPoolSupervisorScheduler();

	private final List<McpServerSupervisor> supervisors = new ArrayList<>();

	private final List<AutoCloseable> connectors = new ArrayList<>();

	private final List<McpServerStateChange> changes = new CopyOnWriteArrayList<>();

	private Process httpServer;

	@AfterEach
	void stop() throws Exception {
		for (McpServerSupervisor supervisor : this.supervisors) {
			supervisor.stop().get(30, TimeUnit.SECONDS);
		}
		for (AutoCloseable connector : this.connectors) {
			connector.close();
		}
		this.scheduler.close();
		stopHttpServer();
		await().atMost(TestServers.PATIENCE).until(() -> ProcessHandle.current().descendants().findAny().isEmpty());
	}

	@Test
	void aModernOnlyStdioServerUnderAutoIsDiscoveredAndRestartedAfterAKill() {
		NegotiatingConnector connector = negotiating(stdio("modern", false));
		McpServerSupervisor supervisor = start("modern", connector,
				CallPolicy.builder().waitForRecovery(Duration.ofSeconds(20)).retry(CallPolicy.Retry.SAFE).build());
		assertThat(connector.negotiated()).isEqualTo(Revisions.V2026_07_28);
		assertThat(supervisor.status().protocol()).isEqualTo(Revisions.V2026_07_28);
		List<String> tools = supervisor.tools().names();
		assertThat(tools).contains("echo", "get-sum", "slow", "crash");
		assertThat(text(call(supervisor, "get-sum", Map.of("a", 2, "b", 3)))).contains("5");
		long pid = supervisor.status().pid();
		// a call in flight when the process dies fails at once instead of waiting for
		// its timeout (the slow tool is not safe to retry)
		CompletableFuture<CallToolResult> slow = CompletableFuture
			.supplyAsync(() -> call(supervisor, "slow", Map.of("ms", 15000)));
		await().atMost(TestServers.PATIENCE)
			.until(() -> supervisor.status().stderrTail().contains(DemoMcpServer.CALL_STARTED + "slow"));
		ProcessHandle.of(pid).orElseThrow().destroyForcibly();
		assertThat(slow).failsWithin(Duration.ofSeconds(10))
			.withThrowableThat()
			.havingCause()
			.isInstanceOf(McpServerUnavailableException.class)
			.withMessageContaining("crashed during the call");
		await().atMost(TestServers.PATIENCE)
			.until(() -> supervisor.state() == McpServerState.UP
					&& !Long.valueOf(pid).equals(supervisor.status().pid()));
		assertThat(supervisor.status().generation()).isEqualTo(2);
		assertThat(supervisor.tools().names()).isEqualTo(tools);
		assertThat(text(call(supervisor, "echo", Map.of("message", "after the kill")))).contains("after the kill");
	}

	@Test
	void legacyAndModernServersSideBySideUnderAutoEachSpeakTheirOwnRevision() {
		NegotiatingConnector legacyOnly = negotiating(TestServers.everything("everything"));
		NegotiatingConnector modernOnly = negotiating(stdio("modern", false));
		NegotiatingConnector both = negotiating(stdio("both", true));
		McpServerSupervisor legacy = start("everything", legacyOnly, TestServers.NO_WAIT);
		McpServerSupervisor modern = start("modern", modernOnly, TestServers.NO_WAIT);
		McpServerSupervisor dual = start("both", both, TestServers.NO_WAIT);
		assertThat(legacy.status().protocol()).isEqualTo(Revisions.V2025_11_25);
		assertThat(modern.status().protocol()).isEqualTo(Revisions.V2026_07_28);
		assertThat(dual.status().protocol()).isEqualTo(Revisions.V2026_07_28);
		for (McpServerSupervisor supervisor : List.of(legacy, modern, dual)) {
			assertThat(text(call(supervisor, "echo", Map.of("message", "hi " + supervisor.name()))))
				.contains("hi " + supervisor.name());
		}
		// the probe of the legacy server cost one process, which is gone: one live
		// process per server
		assertThat(legacy.status().generation()).isEqualTo(1);
		assertThat(ProcessHandle.current().children().count()).isEqualTo(3);
		// the kept revision connects the next generation at once
		ProcessHandle.of(legacy.status().pid()).orElseThrow().destroyForcibly();
		await().atMost(TestServers.PATIENCE)
			.until(() -> legacy.state() == McpServerState.UP && legacy.status().generation() == 2);
		assertThat(legacy.status().protocol()).isEqualTo(Revisions.V2025_11_25);
	}

	@Test
	void aServerPinnedTo2025ThatSpeaksOnly2026IsAConfigurationErrorNamingBothRevisions() {
		StdioServerDefinition definition = stdio("modern", false);
		McpServerSupervisor supervisor = supervisor("modern", new StdioConnector(definition, this.scheduler::execute),
				TestServers.NO_WAIT);
		supervisor.start();
		await().atMost(TestServers.PATIENCE).until(() -> supervisor.state() == McpServerState.FAILED);
		assertThat(supervisor.status().generation()).isEqualTo(1);
		assertThat(supervisor.status().lastError()).contains("2026-07-28").contains("2025-11-25");
	}

	@Test
	void aServerPinnedTo2026ThatSpeaksOnly2025IsAConfigurationError() {
		StdioServerDefinition definition = TestServers.everything("everything");
		McpServerSupervisor supervisor = supervisor("everything",
				new StdioConnector(definition, this.scheduler::execute, Revisions.V2026_07_28), TestServers.NO_WAIT);
		supervisor.start();
		await().atMost(TestServers.PATIENCE).until(() -> supervisor.state() == McpServerState.FAILED);
		assertThat(supervisor.status().generation()).isEqualTo(1);
		assertThat(supervisor.status().lastError()).contains("not a 2026-07-28 server");
	}

	@Test
	void aStatelessHttpServerThatStopsAndStartsAgainIsReconnected() throws Exception {
		int port = freePort();
		startHttpServer(port);
		StreamableHttpServerDefinition definition = new StreamableHttpServerDefinition("remote",
				URI.create("http://127.0.0.1:" + port + "/mcp"), Map.of(), Duration.ofSeconds(20),
				Duration.ofSeconds(20));
		StreamableHttpConnector modern = new StreamableHttpConnector(definition, Revisions.V2026_07_28);
		StreamableHttpConnector legacy = new StreamableHttpConnector(definition);
		this.connectors.add(modern);
		this.connectors.add(legacy);
		McpServerSupervisor supervisor = start("remote", new NegotiatingConnector("remote", modern, legacy),
				CallPolicy.builder().waitForRecovery(Duration.ofSeconds(20)).retry(CallPolicy.Retry.ALWAYS).build());
		assertThat(supervisor.status().protocol()).isEqualTo(Revisions.V2026_07_28);
		List<String> tools = supervisor.tools().names();
		stopHttpServer();
		CompletableFuture<CallToolResult> call = CompletableFuture
			.supplyAsync(() -> call(supervisor, "echo", Map.of("message", "across the restart")));
		McpServerStateChange loss = await().atMost(TestServers.PATIENCE)
			.until(() -> this.changes.stream().filter((change) -> change.from() == McpServerState.UP).findFirst(),
					Optional::isPresent)
			.orElseThrow();
		assertThat(loss.to()).isEqualTo(McpServerState.RECONNECTING);
		startHttpServer(port);
		assertThat(text(call.get(60, TimeUnit.SECONDS))).contains("across the restart");
		assertThat(supervisor.state()).isEqualTo(McpServerState.UP);
		assertThat(supervisor.status().generation()).isGreaterThanOrEqualTo(2);
		assertThat(supervisor.tools().names()).isEqualTo(tools);
	}

	private StdioServerDefinition stdio(String name, boolean legacy) {
		List<String> command = ServerCommands.modernStdio(TestServers.npmDirectory(), legacy);
		return TestServers.definition(name, command.get(0), command.subList(1, command.size()), Map.of());
	}

	private NegotiatingConnector negotiating(StdioServerDefinition definition) {
		return new NegotiatingConnector(definition.name(),
				new StdioConnector(definition, this.scheduler::execute, Revisions.V2026_07_28),
				new StdioConnector(definition, this.scheduler::execute));
	}

	private McpServerSupervisor start(String name, McpConnector connector, CallPolicy calls) {
		McpServerSupervisor supervisor = supervisor(name, connector, calls);
		assertThat(supervisor.start().join().state()).isEqualTo(McpServerState.UP);
		return supervisor;
	}

	private McpServerSupervisor supervisor(String name, McpConnector connector, CallPolicy calls) {
		McpServerSupervisor supervisor = McpServerSupervisor.builder(name, connector, this.scheduler)
			.reconnect(RECONNECT)
			.calls(calls)
			.listener(new SupervisorListener() {
				@Override
				public void stateChanged(McpServerStateChange change) {
					ModernSupervisionIT.this.changes.add(change);
				}
			})
			.build();
		this.supervisors.add(supervisor);
		return supervisor;
	}

	private void startHttpServer(int port) throws Exception {
		this.httpServer = ServerCommands.modernOverHttp(TestServers.npmDirectory(), port, false).start();
		assertThat(ServerCommands.listeningPort(this.httpServer, TestServers.PATIENCE)).isEqualTo(port);
	}

	private void stopHttpServer() {
		if (this.httpServer != null) {
			this.httpServer.destroyForcibly();
			await().atMost(TestServers.PATIENCE).until(() -> !this.httpServer.isAlive());
			this.httpServer = null;
		}
	}

	private static CallToolResult call(McpServerSupervisor supervisor, String tool, Map<String, Object> arguments) {
		return supervisor.callTool(CallToolRequest.builder(tool).arguments(arguments).build());
	}

	private static String text(CallToolResult result) {
		return TestServers.text(result);
	}

	private static int freePort() {
		try (ServerSocket socket = new ServerSocket(0, 0, InetAddress.getLoopbackAddress())) {
			return socket.getLocalPort();
		}
		catch (IOException ex) {
			throw new IllegalStateException(ex);
		}
	}

}
