package io.github.mcpsupervisor.e2e;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import io.github.mcpsupervisor.demo.DemoMcpServer;
import io.github.mcpsupervisor.supervisor.CallPolicy;
import io.github.mcpsupervisor.supervisor.CallPolicy.Retry;
import io.github.mcpsupervisor.supervisor.HealthCheckPolicy;
import io.github.mcpsupervisor.supervisor.McpServerState;
import io.github.mcpsupervisor.supervisor.McpServerSupervisor;
import io.github.mcpsupervisor.supervisor.McpServerUnavailableException;
import io.github.mcpsupervisor.supervisor.ReconnectPolicy;
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

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

/**
 * Tool calls through outages of a real server: concurrent callers across a kill,
 * fail-fast of calls that are not retry-eligible, hung servers found by the probe.
 */
@Tag("boot-independent")
class CallPathIT {

	private static final Log logger = LogFactory.getLog(CallPathIT.class);

	private static final ReconnectPolicy RECONNECT = ReconnectPolicy.builder()
		.initialDelay(Duration.ofMillis(100))
		.maxDelay(Duration.ofSeconds(10))
		.maxAttempts(5)
		.jitter(0)
		.build();

	/**
	 * Pings after a request timeout get 3 s: a loaded machine must not make a live server
	 * look hung.
	 */
	private static final HealthCheckPolicy NO_PROBE = HealthCheckPolicy.disabled(Duration.ofSeconds(3));

	/**
	 * Calls wait for recovery generously: the default bound is tested on virtual time.
	 */
	private static final CallPolicy PATIENT = CallPolicy.builder()
		.waitForRecovery(TestServers.PATIENCE)
		.retry(Retry.SAFE)
		.build();

	private final ThreadPoolSupervisorScheduler scheduler = new ThreadPoolSupervisorScheduler();

	private final ExecutorService callers = Executors.newFixedThreadPool(8);

	private McpServerSupervisor supervisor;

	@AfterEach
	void stop() throws Exception {
		this.callers.shutdownNow();
		if (this.supervisor != null) {
			this.supervisor.stop().get(30, TimeUnit.SECONDS);
		}
		this.scheduler.close();
		await().atMost(TestServers.PATIENCE).until(() -> ProcessHandle.current().descendants().findAny().isEmpty());
	}

	@Test
	void eightConcurrentCallersOfASafeToolAllSucceedAcrossAKillWithOneNewProcess() throws Exception {
		int generation = start(demo(Duration.ofSeconds(30)), PATIENT, NO_PROBE);
		List<Future<CallToolResult>> calls = new ArrayList<>();
		for (int i = 0; i < 8; i++) {
			calls.add(this.callers.submit(() -> call("slow", Map.of("millis", 1500))));
		}
		awaitCallsInFlight(8);
		long killedAt = System.nanoTime();
		kill();
		int succeeded = 0;
		for (Future<CallToolResult> call : calls) {
			assertThat(TestServers.text(call.get(60, TimeUnit.SECONDS))).isEqualTo("waited 1500 ms");
			succeeded++;
		}
		logger.info("8 concurrent safe calls across a kill: " + succeeded + "/8 succeeded, the last "
				+ TestServers.millis(System.nanoTime() - killedAt) + " ms after the kill");
		assertThat(this.supervisor.status().generation()).as("exactly one new process").isEqualTo(generation + 1);
	}

	@Test
	void aCallInFlightDuringARestartIsToldOfTheRestartNotOfACrash() {
		int generation = start(demo(Duration.ofSeconds(30)), PATIENT, NO_PROBE);
		CompletableFuture<CallToolResult> call = CompletableFuture
			.supplyAsync(() -> call("slow-write", Map.of("millis", 20000)), this.callers);
		awaitCallsInFlight(1);
		this.supervisor.restart();
		assertThat(call).failsWithin(Duration.ofSeconds(10))
			.withThrowableOfType(ExecutionException.class)
			.havingCause()
			.isInstanceOf(McpServerUnavailableException.class)
			.withMessage("MCP server 'demo' was restarted on request during the call to tool 'slow-write': the call"
					+ " may or may not have taken effect. It was not retried: tool 'slow-write' is not retry-eligible.");
		await().atMost(TestServers.PATIENCE)
			.until(() -> this.supervisor.state() == McpServerState.UP
					&& this.supervisor.status().generation() == generation + 1);
	}

	@Test
	void callsThatAreNotRetryEligibleFailFastWellBeforeTheRequestTimeout() throws Exception {
		int generation = start(demo(Duration.ofSeconds(30)), PATIENT, NO_PROBE);
		List<CompletableFuture<CallToolResult>> calls = new ArrayList<>();
		for (int i = 0; i < 8; i++) {
			calls.add(CompletableFuture.supplyAsync(() -> call("slow-write", Map.of("millis", 20000)), this.callers));
		}
		awaitCallsInFlight(8);
		long killedAt = System.nanoTime();
		kill();
		for (CompletableFuture<CallToolResult> call : calls) {
			assertThat(call).failsWithin(Duration.ofSeconds(5))
				.withThrowableOfType(ExecutionException.class)
				.havingCause()
				.isInstanceOf(McpServerUnavailableException.class)
				.withMessageContaining("crashed during the call to tool 'slow-write'")
				.withMessageContaining("may or may not have taken effect")
				.withMessageContaining("not retry-eligible");
		}
		logger.info("8 calls that are not retry-eligible failed within "
				+ TestServers.millis(System.nanoTime() - killedAt) + " ms of the kill (request timeout 30000 ms)");
		await().atMost(TestServers.PATIENCE).until(() -> this.supervisor.state() == McpServerState.UP);
		assertThat(this.supervisor.status().generation()).isEqualTo(generation + 1);
	}

	@Test
	void anErrorTheServerAnswersIsReturnedAndNeverRetried() {
		int generation = start(demo(Duration.ofSeconds(30)), PATIENT, NO_PROBE);
		CallToolResult result = call("add", Map.of("a", "two", "b", 3));
		assertThat(result.isError()).isTrue();
		assertThat(this.supervisor.state()).isEqualTo(McpServerState.UP);
		assertThat(this.supervisor.status().generation()).isEqualTo(generation);
	}

	@Test
	void withRetryNeverASafeCallFailsFast() throws Exception {
		start(demo(Duration.ofSeconds(30)),
				CallPolicy.builder().waitForRecovery(Duration.ofSeconds(5)).retry(Retry.NEVER).build(), NO_PROBE);
		CompletableFuture<CallToolResult> call = CompletableFuture
			.supplyAsync(() -> call("slow", Map.of("millis", 20000)), this.callers);
		awaitCallsInFlight(1);
		kill();
		assertThat(call).failsWithin(Duration.ofSeconds(5))
			.withThrowableOfType(ExecutionException.class)
			.havingCause()
			.withMessageContaining("not retry-eligible");
	}

	@Test
	void withRetryAlwaysAnUnsafeCallIsRetriedOnTheNextGeneration() throws Exception {
		int generation = start(demo(Duration.ofSeconds(30)),
				CallPolicy.builder().waitForRecovery(Duration.ofSeconds(10)).retry(Retry.ALWAYS).build(), NO_PROBE);
		CompletableFuture<CallToolResult> call = CompletableFuture
			.supplyAsync(() -> call("slow-write", Map.of("millis", 1000)), this.callers);
		awaitCallsInFlight(1);
		kill();
		assertThat(TestServers.text(call.get(60, TimeUnit.SECONDS))).isEqualTo("wrote after 1000 ms");
		assertThat(this.supervisor.status().generation()).isEqualTo(generation + 1);
	}

	@Test
	void aCancelledCallEndsAtOnceAndIsNotRetried() throws Exception {
		int generation = start(demo(Duration.ofSeconds(30)), PATIENT, NO_PROBE);
		CompletableFuture<Object> ended = new CompletableFuture<>();
		Future<?> call = this.callers.submit(() -> {
			try {
				ended.complete(call("slow", Map.of("millis", 20000)));
			}
			catch (RuntimeException ex) {
				ended.complete(ex);
			}
		});
		awaitCallsInFlight(1);
		long cancelledAt = System.nanoTime();
		call.cancel(true);
		// the call would otherwise run for 20 s: it must end well before
		assertThat(ended.get(5, TimeUnit.SECONDS)).isInstanceOf(RuntimeException.class);
		logger.info("a cancelled call ended " + TestServers.millis(System.nanoTime() - cancelledAt)
				+ " ms after the cancel");
		assertThat(callsStarted()).as("the server saw the call once").isOne();
		assertThat(TestServers.text(call("echo", Map.of("message", "still up")))).isEqualTo("still up");
		assertThat(this.supervisor.status().generation()).isEqualTo(generation);
		assertThat(callsStarted()).isOne();
	}

	@Test
	void aSlowCallThatTimesOutWhileTheServerAnswersPingsFailsWithoutARestart() {
		// its only call is one that must time out
		int generation = start(demo(Duration.ofSeconds(1)), PATIENT, NO_PROBE);
		long started = System.nanoTime();
		assertThatExceptionOfType(RuntimeException.class).isThrownBy(() -> call("slow", Map.of("millis", 6000)))
			.havingRootCause()
			.isInstanceOf(TimeoutException.class);
		logger.info("a timed-out call of a live server failed after " + TestServers.millis(System.nanoTime() - started)
				+ " ms");
		assertThat(this.supervisor.state()).isEqualTo(McpServerState.UP);
		assertThat(this.supervisor.status().generation()).isEqualTo(generation);
	}

	@Test
	void aCallThatTimesOutOnAHungServerEndsTheGenerationAndIsRetried() {
		// the server is hung: the ping after the timeout gets no answer however long it
		// waits
		int generation = start(demo(Duration.ofMillis(1500)), PATIENT,
				HealthCheckPolicy.disabled(Duration.ofSeconds(1)));
		assertThat(TestServers.text(call("freeze", Map.of()))).isEqualTo("frozen");
		assertThat(TestServers.text(call("echo", Map.of("message", "after the hang")))).isEqualTo("after the hang");
		assertThat(this.supervisor.status().generation()).isEqualTo(generation + 1);
		assertThat(this.supervisor.status().lastError()).contains("liveness: no reply to ping after a request timeout");
	}

	@Test
	void theLivenessProbeFindsAServerThatStoppedAnsweringAndRestartsIt() {
		HealthCheckPolicy probe = HealthCheckPolicy.builder()
			.interval(Duration.ofMillis(200))
			.timeout(Duration.ofSeconds(1))
			.failureThreshold(2)
			.build();
		int generation = start(demo(Duration.ofSeconds(30)), PATIENT, probe);
		long frozenAt = System.nanoTime();
		assertThat(TestServers.text(call("freeze", Map.of()))).isEqualTo("frozen");
		await().atMost(TestServers.PATIENCE)
			.until(() -> this.supervisor.status().generation() > generation
					&& this.supervisor.state() == McpServerState.UP);
		logger.info("a hung server was restarted " + TestServers.millis(System.nanoTime() - frozenAt)
				+ " ms after it stopped answering (probe every 200 ms, 1 s timeout, threshold 2)");
		assertThat(this.supervisor.status().lastError()).contains("liveness: no reply to ping");
		assertThat(TestServers.text(call("echo", Map.of("message", "back")))).isEqualTo("back");
	}

	@Test
	void aLineThatIsNotJsonOnStdoutIsSkippedAndTheSessionGoesOn() {
		HealthCheckPolicy probe = HealthCheckPolicy.builder()
			.interval(Duration.ofMillis(200))
			.timeout(Duration.ofSeconds(3))
			.failureThreshold(2)
			.build();
		int generation = start(demo(Duration.ofSeconds(30)), PATIENT, probe);
		assertThat(TestServers.text(call("garbage", Map.of()))).isEqualTo("garbage written");
		await().during(Duration.ofSeconds(1))
			.atMost(TestServers.PATIENCE)
			.until(() -> this.supervisor.state() == McpServerState.UP);
		assertThat(TestServers.text(call("echo", Map.of("message", "fine")))).isEqualTo("fine");
		assertThat(this.supervisor.status().generation()).isEqualTo(generation);
	}

	private StdioServerDefinition demo(Duration requestTimeout) {
		StdioServerDefinition demo = TestServers.demo("demo", Map.of());
		return new StdioServerDefinition(demo.name(), demo.command(), demo.args(), demo.env(), null, requestTimeout,
				Duration.ofSeconds(20), Duration.ofSeconds(1));
	}

	/**
	 * Starts the server; its first attempt must succeed.
	 * @return the generation that is up
	 */
	private int start(StdioServerDefinition definition, CallPolicy callPolicy, HealthCheckPolicy probe) {
		this.supervisor = McpServerSupervisor
			.builder(definition.name(), new StdioConnector(definition, this.scheduler::execute), this.scheduler)
			.reconnect(RECONNECT)
			.calls(callPolicy)
			.healthCheck(probe)
			.build();
		assertThat(this.supervisor.start().join().state()).isEqualTo(McpServerState.UP);
		return this.supervisor.status().generation();
	}

	/** Waits until the server's handler has started the given number of calls. */
	private void awaitCallsInFlight(int count) {
		await().atMost(TestServers.PATIENCE).pollInterval(Duration.ofMillis(10)).until(() -> callsStarted() >= count);
	}

	/** Counts the slow calls the live generation's handler has started. */
	private long callsStarted() {
		return this.supervisor.status()
			.stderrTail()
			.stream()
			.filter((line) -> line.startsWith(DemoMcpServer.CALL_STARTED))
			.count();
	}

	private void kill() {
		ProcessHandle.of(this.supervisor.status().pid()).orElseThrow().destroyForcibly();
	}

	private CallToolResult call(String tool, Map<String, Object> arguments) {
		return this.supervisor.callTool(CallToolRequest.builder(tool).arguments(arguments).build());
	}

}
