package io.github.mcpsupervisor.e2e;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.stream.Stream;

import io.github.mcpsupervisor.demo.DemoMcpServer;
import io.github.mcpsupervisor.supervisor.HealthCheckPolicy;
import io.github.mcpsupervisor.supervisor.McpServerState;
import io.github.mcpsupervisor.supervisor.McpServerStateChange;
import io.github.mcpsupervisor.supervisor.McpServerSupervisor;
import io.github.mcpsupervisor.supervisor.McpServerUnavailableException;
import io.github.mcpsupervisor.supervisor.McpStandbyStatus;
import io.github.mcpsupervisor.supervisor.McpStandbyStatus.McpStandbyState;
import io.github.mcpsupervisor.supervisor.ReconnectPolicy;
import io.github.mcpsupervisor.supervisor.SupervisorListener;
import io.github.mcpsupervisor.supervisor.ThreadPoolSupervisorScheduler;
import io.github.mcpsupervisor.transport.StdioServerDefinition;
import io.github.mcpsupervisor.transport.internal.stdio.StdioConnector;
import io.modelcontextprotocol.spec.McpSchema.CallToolRequest;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

/**
 * Supervision of real stdio servers: crashes, kills, crash loops, bad commands, stubborn
 * and wrapped process trees.
 */
@Tag("boot-independent")
class StdioSupervisionIT {

	private static final Log logger = LogFactory.getLog(StdioSupervisionIT.class);

	private static final ReconnectPolicy FAST = ReconnectPolicy.builder()
		.initialDelay(Duration.ofMillis(100))
		.maxDelay(Duration.ofSeconds(5))
		.maxAttempts(5)
		.jitter(0)
		.build();

	private final ThreadPoolSupervisorScheduler scheduler = new ThreadPoolSupervisorScheduler();

	private final List<McpServerStateChange> changes = new CopyOnWriteArrayList<>();

	private volatile long lostAt;

	private McpServerSupervisor supervisor;

	@AfterEach
	void stop() throws Exception {
		if (this.supervisor != null) {
			this.supervisor.stop().get(30, TimeUnit.SECONDS);
		}
		this.scheduler.close();
		await().atMost(TestServers.PATIENCE).until(() -> ProcessHandle.current().descendants().findAny().isEmpty());
	}

	@Test
	void demoServerCrashIsDetectedAndRecovered() {
		start(TestServers.demo("demo", Map.of()), FAST);
		long firstPid = this.supervisor.status().pid();
		assertThat(TestServers.text(call("crash", Map.of("exitCode", 7)))).isEqualTo("crashing with exit code 7");
		await().atMost(TestServers.PATIENCE)
			.until(() -> this.changes.stream()
				.anyMatch((change) -> change.to() == McpServerState.UP && change.generation() == 2));
		assertThat(this.changes).extracting(McpServerStateChange::to)
			.containsSubsequence(McpServerState.UP, McpServerState.RECONNECTING, McpServerState.UP);
		assertThat(this.supervisor.status().lastExit().exitCode()).isEqualTo(7);
		assertThat(ProcessHandle.of(firstPid)).isEmpty();
		assertThat(TestServers.text(call("echo", Map.of("message", "again")))).isEqualTo("again");
	}

	@Test
	void serverEverythingKilledWithSigkillRecoversWithTheSameTools() {
		start(TestServers.everything("everything"), FAST);
		List<String> toolsBefore = this.supervisor.tools().names();
		assertThat(toolsBefore).contains("echo", "get-sum");
		long killedAt = System.nanoTime();
		ProcessHandle.of(this.supervisor.status().pid()).orElseThrow().destroyForcibly();
		await().atMost(TestServers.PATIENCE).until(() -> this.lostAt != 0);
		long detectedAt = this.lostAt;
		CallToolResult result = callUntilItSucceeds("echo", Map.of("message", "back"));
		long recoveredAt = System.nanoTime();
		logger.info("server-everything: SIGKILL detected after " + TestServers.micros(detectedAt - killedAt)
				+ " µs, first successful call after " + TestServers.millis(recoveredAt - killedAt) + " ms");
		assertThat(TestServers.text(result)).contains("back");
		assertThat(this.supervisor.tools().names()).isEqualTo(toolsBefore);
		assertThat(this.supervisor.status().lastExit().signal()).isEqualTo(9);
	}

	@Test
	void aCallInFlightFailsFastWhenTheServerDies() {
		start(TestServers.demo("demo", Map.of()), FAST);
		long pid = this.supervisor.status().pid();
		CompletableFuture<CallToolResult> slow = CompletableFuture
			.supplyAsync(() -> call("slow", Map.of("millis", 15000)));
		await().atMost(TestServers.PATIENCE)
			.until(() -> this.supervisor.status().stderrTail().contains(DemoMcpServer.CALL_STARTED + "slow"));
		long killedAt = System.nanoTime();
		ProcessHandle.of(pid).orElseThrow().destroyForcibly();
		assertThat(slow).failsWithin(Duration.ofSeconds(5))
			.withThrowableOfType(ExecutionException.class)
			.havingCause()
			.isInstanceOf(McpServerUnavailableException.class)
			.withMessageContaining("MCP server 'demo' crashed during the call to tool 'slow'");
		logger.info("demo: call in flight failed " + TestServers.millis(System.nanoTime() - killedAt)
				+ " ms after SIGKILL");
	}

	@Test
	void demoServerKilledWithSigkillIsDetectedAndServesCallsAgain() {
		start(TestServers.demo("demo", Map.of()), FAST);
		long pid = this.supervisor.status().pid();
		long killedAt = System.nanoTime();
		ProcessHandle.of(pid).orElseThrow().destroyForcibly();
		await().atMost(TestServers.PATIENCE).until(() -> this.lostAt != 0);
		long detectedAt = this.lostAt;
		CallToolResult result = callUntilItSucceeds("echo", Map.of("message", "back"));
		logger.info("demo: SIGKILL detected after " + TestServers.micros(detectedAt - killedAt)
				+ " µs, first successful call after " + TestServers.millis(System.nanoTime() - killedAt) + " ms");
		assertThat(TestServers.text(result)).isEqualTo("back");
		assertThat(this.changes).filteredOn((change) -> change.from() == McpServerState.UP)
			.first()
			.satisfies((loss) -> {
				assertThat(loss.to()).isEqualTo(McpServerState.RECONNECTING);
				assertThat(loss.generation()).isOne();
				assertThat(loss.exit().signal()).isEqualTo(9);
			});
		assertThat(this.supervisor.status().generation()).isEqualTo(2);
		assertThat(this.supervisor.status().pid()).isNotEqualTo(pid);
		assertThat(ProcessHandle.of(pid)).isEmpty();
	}

	@Test
	void aReadySpareServesAtOnceWhenTheDemoServerIsKilledAndNoProcessOutlivesTheStop() throws Exception {
		this.supervisor = supervisor(TestServers.demo("demo", Map.of()), FAST, true);
		assertThat(this.supervisor.start().join().state()).isEqualTo(McpServerState.UP);
		McpStandbyStatus ready = awaitReadySpare();
		long serving = this.supervisor.status().pid();
		assertThat(ProcessHandle.current().children().map(ProcessHandle::pid)).containsExactlyInAnyOrder(serving,
				ready.pid());
		long killedAt = System.nanoTime();
		ProcessHandle.of(serving).orElseThrow().destroyForcibly();
		await().atMost(TestServers.PATIENCE).until(() -> this.supervisor.status().standby().promotions() == 1);
		CallToolResult result = callUntilItSucceeds("echo", Map.of("message", "at once"));
		logger.info("demo with a warm standby: first successful call "
				+ TestServers.millis(System.nanoTime() - killedAt) + " ms after SIGKILL");
		assertThat(TestServers.text(result)).isEqualTo("at once");
		assertThat(this.supervisor.status().pid()).as("the spare serves").isEqualTo(ready.pid());
		assertThat(this.supervisor.status().generation()).isEqualTo(ready.generation());
		assertThat(this.changes).as("the server stayed up").noneMatch((change) -> change.from() == McpServerState.UP);
		assertThat(ProcessHandle.of(serving)).isEmpty();
		// the next spare follows the server's backoff, as a new process of its own
		McpStandbyStatus next = awaitReadySpare();
		assertThat(next.pid()).isNotIn(serving, ready.pid());
		assertThat(next.generation()).isEqualTo(ready.generation() + 1);
		assertThat(ProcessHandle.current().children().map(ProcessHandle::pid)).containsExactlyInAnyOrder(ready.pid(),
				next.pid());
		this.supervisor.stop().get(30, TimeUnit.SECONDS);
		assertThat(ProcessHandle.of(ready.pid())).isEmpty();
		assertThat(ProcessHandle.of(next.pid())).isEmpty();
	}

	private McpStandbyStatus awaitReadySpare() {
		return await().atMost(TestServers.PATIENCE)
			.until(() -> this.supervisor.status().standby(), (standby) -> standby.state() == McpStandbyState.READY);
	}

	@Test
	void aRequestTimeoutShorterThanTheColdStartBoundsCallsButNotTheHandshake() {
		StdioServerDefinition demo = TestServers.demo("demo", Map.of());
		// the demo's JVM alone takes longer than 300 ms to start
		start(new StdioServerDefinition(demo.name(), demo.command(), demo.args(), demo.env(), null,
				Duration.ofMillis(300), Duration.ofSeconds(20), Duration.ofSeconds(1)), FAST);
		assertThat(this.supervisor.status().generation()).isOne();
		assertThatExceptionOfType(RuntimeException.class).isThrownBy(() -> call("slow", Map.of("millis", 5000)))
			.havingRootCause()
			.isInstanceOf(TimeoutException.class);
		assertThat(TestServers.text(call("echo", Map.of("message", "quick")))).isEqualTo("quick");
	}

	@Test
	void discoveryFollowsPagination() {
		start(TestServers.definition("paging", TestServers.java(), TestServers.javaServerArgs(PagingMcpServer.class),
				Map.of()), FAST);
		assertThat(this.supervisor.tools().names()).containsExactly("t1", "t2", "t3", "t4", "t5");
	}

	@Test
	void aToolAddedAtRunTimeIsDiscovered() {
		start(TestServers.demo("demo", Map.of()), FAST);
		assertThat(TestServers.text(call("add-tool", Map.of("name", "late")))).isEqualTo("added late");
		await().atMost(TestServers.PATIENCE).until(() -> this.supervisor.tools().names().contains("late"));
		assertThat(this.supervisor.tools().generation()).isEqualTo(1);
		assertThat(TestServers.text(call("late", Map.of()))).isEqualTo("late");
	}

	@Test
	void aCrashLoopUsesExactlyMaxAttemptsSpawnsThenFailsAndWithdrawsTheTools() {
		ReconnectPolicy policy = ReconnectPolicy.builder()
			.initialDelay(Duration.ofMillis(50))
			.maxDelay(Duration.ofSeconds(20))
			.maxAttempts(3)
			.jitter(0)
			.build();
		this.supervisor = supervisor(TestServers.demo("looping", Map.of("DEMO_EXIT_AFTER_MS", "2000")), policy);
		this.supervisor.start();
		await().atMost(TestServers.PATIENCE).until(() -> this.supervisor.state() == McpServerState.FAILED);
		assertThat(this.changes).filteredOn((change) -> change.to() == McpServerState.UP).hasSize(3);
		assertThat(this.supervisor.status().generation()).isEqualTo(3);
		assertThat(this.supervisor.tools().tools()).isEmpty();
		assertThat(this.supervisor.status().lastError()).isEqualTo("gave up after 3 attempts");
		assertThat(this.supervisor.status().stderrTail()).contains("exiting as DEMO_EXIT_AFTER_MS asks");
		await().during(Duration.ofMillis(500))
			.atMost(TestServers.PATIENCE)
			.until(() -> this.supervisor.status().generation() == 3);
	}

	@Test
	void aProcessThatFailsBeforeInitializeIsRetriedWithinTheBudget() {
		ReconnectPolicy policy = ReconnectPolicy.builder()
			.initialDelay(Duration.ofMillis(50))
			.maxDelay(Duration.ofMillis(200))
			.maxAttempts(4)
			.jitter(0)
			.build();
		this.supervisor = supervisor(
				TestServers.definition("failing", "sh", List.of("-c", "echo broken >&2; exit 1"), Map.of()), policy);
		this.supervisor.start();
		await().atMost(TestServers.PATIENCE).until(() -> this.supervisor.state() == McpServerState.FAILED);
		assertThat(this.supervisor.status().generation()).isEqualTo(4);
		assertThat(this.changes).noneMatch((change) -> change.to() == McpServerState.UP);
	}

	@Test
	void aMissingCommandFailsAtOnce() {
		this.supervisor = supervisor(TestServers.definition("missing", "/nonexistent/mcp-server", List.of(), Map.of()),
				FAST);
		this.supervisor.start().join();
		assertThat(this.supervisor.state()).isEqualTo(McpServerState.FAILED);
		assertThat(this.supervisor.status().generation()).isEqualTo(1);
		assertThat(this.supervisor.status().lastError()).startsWith("configuration error: cannot start")
			.contains("/nonexistent/mcp-server");
	}

	@Test
	void aNonExecutableCommandFailsAtOnce(@TempDir Path directory) throws Exception {
		Path notExecutable = Files.writeString(directory.resolve("server.sh"), "#!/bin/sh\n");
		this.supervisor = supervisor(TestServers.definition("plain", notExecutable.toString(), List.of(), Map.of()),
				FAST);
		this.supervisor.start().join();
		assertThat(this.supervisor.state()).isEqualTo(McpServerState.FAILED);
		assertThat(this.supervisor.status().generation()).isEqualTo(1);
		assertThat(this.supervisor.status().lastError()).contains("Permission denied");
	}

	@Test
	void aCommandNotFoundByItsWrapperFailsAtOnce() {
		this.supervisor = supervisor(
				TestServers.definition("wrapped", "sh", List.of("-c", "exec /nonexistent/mcp-server"), Map.of()), FAST);
		this.supervisor.start().join();
		await().atMost(TestServers.PATIENCE).until(() -> this.supervisor.state() == McpServerState.FAILED);
		assertThat(this.supervisor.status().generation()).isEqualTo(1);
		assertThat(this.supervisor.status().lastError())
			.startsWith("configuration error: process exited during initialize with exit code 127; last stderr line: ")
			.contains("/nonexistent/mcp-server")
			.endsWith("(126/127: command not executable or not found)");
	}

	@Test
	void aServerWhosePipeBreaksBeforeItExitsIsDescribedByItsExit() {
		// stdin closed at once, the exit seen only later: the initialize write breaks
		// first
		String script = "exec 0<&-; echo 'mcp-server: not found' >&2; sleep 0.3; exit 127";
		this.supervisor = supervisor(TestServers.definition("late-exit", "sh", List.of("-c", script), Map.of()), FAST);
		this.supervisor.start().join();
		assertThat(this.supervisor.state()).isEqualTo(McpServerState.FAILED);
		assertThat(this.supervisor.status().generation()).isEqualTo(1);
		assertThat(this.supervisor.status().lastError()).isEqualTo("configuration error: process exited during "
				+ "initialize with exit code 127; last stderr line: mcp-server: not found "
				+ "(126/127: command not executable or not found)");
	}

	@Test
	void aChildThatIgnoresSigtermIsKilledWithinTheBoundAtStop() throws Exception {
		String script = "trap '' TERM; " + TestServers.demoShellCommand() + "; while :; do sleep 1; done";
		start(TestServers.definition("stubborn", "sh", List.of("-c", script), Map.of()), FAST);
		List<ProcessHandle> tree = treeOf(this.supervisor.status().pid());
		assertThat(tree).hasSizeGreaterThanOrEqualTo(2);
		long stopping = System.nanoTime();
		this.supervisor.stop().get(30, TimeUnit.SECONDS);
		long took = TestServers.millis(System.nanoTime() - stopping);
		logger.info("stubborn tree stopped in " + took + " ms (grace 1000 ms)");
		assertThat(took).isLessThan(1000 + 2000 + 1000);
		assertThat(tree).noneMatch((process) -> TestServers.isRunning(process.pid()));
	}

	@Test
	void noProcessOfAWrappedTreeSurvivesACrashOfTheWrapper() {
		String script = TestServers.demoShellCommand() + "; exit $?";
		start(TestServers.definition("wrapped", "sh", List.of("-c", script), Map.of()), FAST);
		long wrapper = this.supervisor.status().pid();
		List<ProcessHandle> tree = treeOf(wrapper);
		assertThat(tree).hasSize(2);
		ProcessHandle.of(wrapper).orElseThrow().destroyForcibly();
		await().atMost(TestServers.PATIENCE).until(() -> tree.stream().noneMatch(ProcessHandle::isAlive));
		await().atMost(TestServers.PATIENCE)
			.until(() -> this.supervisor.state() == McpServerState.UP && this.supervisor.status().generation() == 2);
	}

	@Test
	void noProcessOfAWrappedTreeSurvivesStop() throws Exception {
		String script = TestServers.demoShellCommand() + "; exit $?";
		start(TestServers.definition("wrapped", "sh", List.of("-c", script), Map.of()), FAST);
		List<ProcessHandle> tree = treeOf(this.supervisor.status().pid());
		assertIsTheShellAndTheDemoServer(tree, script);
		this.supervisor.stop().get(30, TimeUnit.SECONDS);
		assertThat(tree).noneMatch((process) -> TestServers.isRunning(process.pid()));
	}

	@Test
	void aCallAfterStopFailsWithoutSpawningAnything() throws Exception {
		start(TestServers.demo("demo", Map.of()), FAST);
		this.supervisor.stop().get(30, TimeUnit.SECONDS);
		assertThatExceptionOfType(McpServerUnavailableException.class)
			.isThrownBy(() -> call("echo", Map.of("message", "x")))
			.withMessageContaining("is stopped");
		assertThat(ProcessHandle.current().children()).isEmpty();
	}

	private void start(StdioServerDefinition definition, ReconnectPolicy policy) {
		this.supervisor = supervisor(definition, policy);
		long starting = System.nanoTime();
		assertThat(this.supervisor.start().join().state()).isEqualTo(McpServerState.UP);
		logger.info(definition.name() + ": cold start (spawn + initialize + tools/list) "
				+ TestServers.millis(System.nanoTime() - starting) + " ms");
	}

	private McpServerSupervisor supervisor(StdioServerDefinition definition, ReconnectPolicy policy) {
		return supervisor(definition, policy, false);
	}

	private McpServerSupervisor supervisor(StdioServerDefinition definition, ReconnectPolicy policy, boolean standby) {
		return McpServerSupervisor
			.builder(definition.name(), new StdioConnector(definition, this.scheduler::execute), this.scheduler)
			.reconnect(policy)
			.standby(standby)
			.calls(TestServers.NO_WAIT)
			.healthCheck(HealthCheckPolicy.disabled(Duration.ofSeconds(5)))
			.listener(new SupervisorListener() {

				@Override
				public void stateChanged(McpServerStateChange change) {
					if (change.from() == McpServerState.UP && StdioSupervisionIT.this.lostAt == 0) {
						StdioSupervisionIT.this.lostAt = System.nanoTime();
					}
					StdioSupervisionIT.this.changes.add(change);
				}

			})
			.build();
	}

	private CallToolResult call(String tool, Map<String, Object> arguments) {
		return this.supervisor.callTool(CallToolRequest.builder(tool).arguments(arguments).build());
	}

	private CallToolResult callUntilItSucceeds(String tool, Map<String, Object> arguments) {
		return await().atMost(TestServers.PATIENCE)
			.pollInterval(Duration.ofMillis(5))
			.ignoreException(McpServerUnavailableException.class)
			.until(() -> call(tool, arguments), (result) -> result != null);
	}

	// What "none survives" is checked against: the wrapping shell and the demo server it
	// started.
	private static void assertIsTheShellAndTheDemoServer(List<ProcessHandle> tree, String script) throws IOException {
		assertThat(tree).hasSize(2);
		assertThat(commandLineOf(tree.get(0))).hasSize(3).endsWith("-c", script);
		assertThat(commandLineOf(tree.get(1))).isEqualTo(TestServers.demoCommand());
	}

	// The whole command line (ProcessHandle.Info cuts a long one, and may leave out the
	// arguments).
	private static List<String> commandLineOf(ProcessHandle process) throws IOException {
		String commandLine = Files.readString(Path.of("/proc", Long.toString(process.pid()), "cmdline"));
		return List.of(commandLine.split("\\x00"));
	}

	private static List<ProcessHandle> treeOf(long pid) {
		ProcessHandle root = ProcessHandle.of(pid).orElseThrow();
		await().atMost(TestServers.PATIENCE).until(() -> root.descendants().findAny().isPresent() || !root.isAlive());
		return Stream.concat(Stream.of(root), root.descendants()).toList();
	}

}
