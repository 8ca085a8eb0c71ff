package io.github.mcpsupervisor.e2e;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;

import io.github.mcpsupervisor.demo.DemoMcpServer;
import io.github.mcpsupervisor.demo.ServerCommands;
import io.github.mcpsupervisor.supervisor.CallPolicy;
import io.github.mcpsupervisor.supervisor.HealthCheckPolicy;
import io.github.mcpsupervisor.supervisor.McpConnector;
import io.github.mcpsupervisor.supervisor.McpServerState;
import io.github.mcpsupervisor.supervisor.McpServerStateChange;
import io.github.mcpsupervisor.supervisor.McpServerSupervisor;
import io.github.mcpsupervisor.supervisor.McpServerUnavailableException;
import io.github.mcpsupervisor.supervisor.ReconnectPolicy;
import io.github.mcpsupervisor.transport.StdioServerDefinition;
import io.github.mcpsupervisor.transport.StreamableHttpServerDefinition;
import io.github.mcpsupervisor.transport.internal.Revisions;
import io.github.mcpsupervisor.transport.internal.http.StreamableHttpConnector;
import io.github.mcpsupervisor.transport.internal.stdio.StdioConnector;
import io.modelcontextprotocol.spec.McpSchema.CallToolRequest;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Servers of both revisions, over stdio and Streamable HTTP, while the application's own
 * tasks hold every worker of the common {@link java.util.concurrent.ForkJoinPool} (a
 * parallel stream or {@code supplyAsync} blocking on tool calls): every answer comes and
 * every loss is seen while the pool is still full, as from an idle pool. Run in a JVM
 * that sees 4 CPUs ({@code -XX:ActiveProcessorCount=4}, the failsafe execution
 * {@code shared-pool}), where the JDK completes its futures on the common pool on Java 17
 * as on Java 25.
 */
@Tag("boot-independent")
class SharedPoolIT {

	private static final int CALLS = 8;

	private static final ReconnectPolicy RECONNECT = ReconnectPolicy.builder()
		.initialDelay(Duration.ofMillis(100))
		.maxDelay(Duration.ofMillis(500))
		.maxAttempts(100)
		.jitter(0.1)
		.build();

	private static final CallPolicy NO_WAIT = CallPolicy.builder()
		.waitForRecovery(Duration.ZERO)
		.retry(CallPolicy.Retry.NEVER)
		.build();

	private static final CallPolicy WAIT = CallPolicy.builder()
		.waitForRecovery(Duration.ofSeconds(30))
		.retry(CallPolicy.Retry.SAFE)
		.build();

	/**
	 * A probe every 200 ms that ends a generation after two unanswered in a row: one
	 * whose answers waited for the pool would end healthy servers here.
	 */
	private static final HealthCheckPolicy PROBE = HealthCheckPolicy.builder()
		.interval(Duration.ofMillis(200))
		.timeout(Duration.ofMillis(500))
		.failureThreshold(2)
		.build();

	/** The longest a call waits for its answer: longer than anything here takes. */
	private static final Duration REQUEST_TIMEOUT = Duration.ofSeconds(30);

	private final StartedSupervisors started = new StartedSupervisors(RECONNECT);

	/** The threads the test calls from, not the common pool's. */
	private final ExecutorService callers = Executors.newCachedThreadPool();

	private final List<Process> servers = new ArrayList<>();

	@AfterEach
	void stop() throws Exception {
		this.started.close();
		this.callers.shutdownNow();
		for (Process server : this.servers) {
			server.descendants().forEach(ProcessHandle::destroyForcibly);
			server.destroyForcibly();
		}
		await().atMost(TestServers.PATIENCE).until(() -> ProcessHandle.current().descendants().findAny().isEmpty());
	}

	@Test
	void aStreamableHttpServerOfTheFirstRevisionAnswersEveryCall() throws Exception {
		McpServerSupervisor supervisor = start("everything", new StreamableHttpConnector(http(startEverything())));
		assertEveryCallAnswered(supervisor);
	}

	@Test
	void aStreamableHttpServerOfTheCurrentRevisionAnswersEveryCall() throws Exception {
		McpServerSupervisor supervisor = start("modern", modernHttp(startModernHttp()));
		assertEveryCallAnswered(supervisor);
	}

	@Test
	void aStdioServerOfEachRevisionAnswersEveryCall() throws Exception {
		McpServerSupervisor legacy = start("everything",
				new StdioConnector(TestServers.everything("everything"), this.started.scheduler()::execute));
		McpServerSupervisor modern = start("modern",
				new StdioConnector(modernStdio("modern"), this.started.scheduler()::execute, Revisions.V2026_07_28));
		assertEveryCallAnswered(legacy);
		assertEveryCallAnswered(modern);
	}

	@Test
	void aStdioServerKilledMidCallIsFoundAtOnce() throws Exception {
		McpServerSupervisor supervisor = start("demo",
				new StdioConnector(TestServers.demo("demo", Map.of()), this.started.scheduler()::execute));
		assertKillFoundWhileThePoolIsFull(supervisor, "millis");
	}

	@Test
	void aStdioServerOfTheCurrentRevisionKilledMidCallIsFoundAtOnce() throws Exception {
		McpServerSupervisor supervisor = start("modern",
				new StdioConnector(modernStdio("modern"), this.started.scheduler()::execute, Revisions.V2026_07_28));
		assertKillFoundWhileThePoolIsFull(supervisor, "ms");
	}

	@Test
	void aStreamableHttpServerRestartedIsFoundAndServesAgain() throws Exception {
		int port = freePort();
		Process server = startEverything(port);
		McpServerSupervisor supervisor = start("everything", new StreamableHttpConnector(http(port)), WAIT);
		try (FullCommonPool pool = FullCommonPool.fill()) {
			server.descendants().forEach(ProcessHandle::destroyForcibly);
			server.destroyForcibly();
			await().atMost(TestServers.PATIENCE).until(() -> !server.isAlive() && !ServerCommands.isListening(port));
			CompletableFuture<CallToolResult> call = CompletableFuture
				.supplyAsync(() -> call(supervisor, "echo", Map.of("message", "across the restart")), this.callers);
			McpServerStateChange loss = this.started.awaitLoss();
			assertThat(loss.cause()).contains("transport failure");
			startEverything(port);
			assertThat(TestServers.text(call.get(TestServers.PATIENCE.toSeconds(), TimeUnit.SECONDS)))
				.contains("across the restart");
			assertThat(supervisor.state()).isEqualTo(McpServerState.UP);
			assertThat(pool.isFull()).isTrue();
		}
	}

	private void assertEveryCallAnswered(McpServerSupervisor supervisor) throws Exception {
		try (FullCommonPool pool = FullCommonPool.fill()) {
			List<CompletableFuture<CallToolResult>> calls = IntStream.range(0, CALLS)
				.mapToObj((i) -> CompletableFuture
					.supplyAsync(() -> call(supervisor, "echo", Map.of("message", "call " + i)), this.callers))
				.toList();
			for (int i = 0; i < CALLS; i++) {
				assertThat(TestServers.text(calls.get(i).get(TestServers.PATIENCE.toSeconds(), TimeUnit.SECONDS)))
					.contains("call " + i);
			}
			assertThat(pool.isFull()).as("every answer came while the application held the pool").isTrue();
			// the probes go on being answered while the pool is held: several rounds
			await().during(Duration.ofSeconds(1))
				.atMost(Duration.ofSeconds(5))
				.until(() -> this.started.changes().stream().noneMatch((change) -> change.from() == McpServerState.UP));
			assertThat(pool.isFull()).isTrue();
		}
	}

	private void assertKillFoundWhileThePoolIsFull(McpServerSupervisor supervisor, String millisArgument)
			throws Exception {
		long pid = supervisor.status().pid();
		try (FullCommonPool pool = FullCommonPool.fill()) {
			List<CompletableFuture<CallToolResult>> calls = IntStream.range(0, 4)
				.mapToObj((i) -> CompletableFuture
					.supplyAsync(() -> call(supervisor, "slow", Map.of(millisArgument, 60_000)), this.callers))
				.toList();
			await().atMost(TestServers.PATIENCE)
				.until(() -> supervisor.status().stderrTail().contains(DemoMcpServer.CALL_STARTED + "slow"));
			ProcessHandle.of(pid).orElseThrow().destroyForcibly();
			McpServerStateChange loss = this.started.awaitLoss();
			assertThat(loss.cause()).as("the exit, not a timeout or the probe").contains("signal 9");
			for (CompletableFuture<CallToolResult> call : calls) {
				assertThat(call).failsWithin(TestServers.PATIENCE)
					.withThrowableThat()
					.havingCause()
					.isInstanceOf(McpServerUnavailableException.class)
					.withMessageContaining("crashed during the call");
			}
			assertThat(pool.isFull()).as("the loss was found while the application held the pool").isTrue();
			await().atMost(TestServers.PATIENCE)
				.until(() -> supervisor.state() == McpServerState.UP
						&& !Long.valueOf(pid).equals(supervisor.status().pid()));
			assertThat(pool.isFull()).isTrue();
		}
	}

	private McpServerSupervisor start(String name, McpConnector connector) {
		return start(name, connector, NO_WAIT);
	}

	private McpServerSupervisor start(String name, McpConnector connector, CallPolicy calls) {
		this.started.closeLater(connector);
		return this.started.start(name, connector, calls, PROBE);
	}

	private static CallToolResult call(McpServerSupervisor supervisor, String tool, Map<String, Object> arguments) {
		return supervisor.callTool(CallToolRequest.builder(tool).arguments(arguments).build());
	}

	private static StdioServerDefinition modernStdio(String name) {
		List<String> command = ServerCommands.modernStdio(TestServers.npmDirectory(), false);
		return new StdioServerDefinition(name, command.get(0), command.subList(1, command.size()), Map.of(), null,
				Duration.ofSeconds(20), REQUEST_TIMEOUT, Duration.ofSeconds(1));
	}

	private StreamableHttpConnector modernHttp(URI url) {
		return new StreamableHttpConnector(
				new StreamableHttpServerDefinition("modern", url, Map.of(), Duration.ofSeconds(10), REQUEST_TIMEOUT),
				Revisions.V2026_07_28);
	}

	private static StreamableHttpServerDefinition http(URI url) {
		return new StreamableHttpServerDefinition("everything", url, Map.of(), Duration.ofSeconds(10), REQUEST_TIMEOUT);
	}

	private static StreamableHttpServerDefinition http(int port) {
		return http(URI.create("http://127.0.0.1:" + port + "/mcp"));
	}

	private URI startEverything() throws IOException {
		int port = freePort();
		startEverything(port);
		return http(port).url();
	}

	private Process startEverything(int port) throws IOException {
		Process server = ServerCommands.everythingOverHttp(TestServers.npmDirectory(), port).start();
		this.servers.add(server);
		await().atMost(TestServers.PATIENCE).until(() -> ServerCommands.isListening(port));
		return server;
	}

	private URI startModernHttp() throws Exception {
		Process server = ServerCommands.modernOverHttp(TestServers.npmDirectory(), 0, false).start();
		this.servers.add(server);
		return URI.create("http://127.0.0.1:" + ServerCommands.listeningPort(server, TestServers.PATIENCE) + "/mcp");
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
