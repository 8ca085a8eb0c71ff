package io.github.mcpsupervisor.e2e;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import io.github.mcpsupervisor.supervisor.CallPolicy;
import io.github.mcpsupervisor.supervisor.HealthCheckPolicy;
import io.github.mcpsupervisor.supervisor.McpServerState;
import io.github.mcpsupervisor.supervisor.McpServerSupervisor;
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

/**
 * Each tool call has its tool's own timeout ({@code call.timeouts.<tool>}) against a real
 * server process: a long tool within its own timeout, longer than the request timeout,
 * succeeds beside a short one that fails on its own time and is cancelled at the server;
 * neither makes the server look hung.
 */
@Tag("boot-independent")
class ToolTimeoutIT {

	private static final Log logger = LogFactory.getLog(ToolTimeoutIT.class);

	private static final Duration REQUEST_TIMEOUT = Duration.ofSeconds(2);

	private static final Duration HANG_TIMEOUT = Duration.ofMillis(200);

	// twice the request timeout, well within its own
	private static final long SLOW_MILLIS = 4000;

	private final ThreadPoolSupervisorScheduler scheduler = new ThreadPoolSupervisorScheduler();

	private final ExecutorService callers = Executors.newCachedThreadPool();

	private McpServerSupervisor supervisor;

	@AfterEach
	void stop() throws Exception {
		if (this.supervisor != null) {
			this.supervisor.stop().get(30, TimeUnit.SECONDS);
		}
		this.callers.shutdownNow();
		this.scheduler.close();
	}

	@Test
	void aLongToolWithinItsOwnTimeoutSucceedsBesideAShortOneThatFailsOnTimeAndIsCancelled() throws Exception {
		StdioServerDefinition definition = new StdioServerDefinition("timed", TestServers.java(),
				TestServers.javaServerArgs(CancellationRecordingMcpServer.class), Map.of(), null, REQUEST_TIMEOUT,
				Duration.ofSeconds(20), Duration.ofSeconds(1), List.of(),
				Map.of("slow", Duration.ofSeconds(20), "hang", HANG_TIMEOUT));
		this.supervisor = McpServerSupervisor
			.builder("timed", new StdioConnector(definition, this.scheduler::execute), this.scheduler)
			.reconnect(ReconnectPolicy.builder().initialDelay(Duration.ofMillis(50)).jitter(0).build())
			.calls(CallPolicy.builder().waitForRecovery(Duration.ZERO).retry(CallPolicy.Retry.NEVER).build())
			// probed while the long call runs: it must not look hung
			.healthCheck(HealthCheckPolicy.builder()
				.interval(Duration.ofMillis(500))
				.timeout(Duration.ofSeconds(2))
				.failureThreshold(2)
				.build())
			.build();
		assertThat(this.supervisor.start().join().state()).isEqualTo(McpServerState.UP);

		long slowStarted = System.nanoTime();
		CompletableFuture<CallToolResult> slow = CompletableFuture
			.supplyAsync(() -> call("slow", Map.of("millis", SLOW_MILLIS)), this.callers);
		long hangStarted = System.nanoTime();
		assertThatExceptionOfType(IllegalStateException.class).isThrownBy(() -> call("hang", Map.of()))
			.withMessage("MCP server 'timed': tool 'hang' timed out after " + HANG_TIMEOUT.toMillis() + " ms")
			.withRootCauseInstanceOf(TimeoutException.class);
		long hangMillis = TestServers.millis(System.nanoTime() - hangStarted);
		assertThat(hangMillis).as("the short call fails on its own time, not at the request timeout")
			.isGreaterThanOrEqualTo(HANG_TIMEOUT.toMillis())
			.isLessThan(REQUEST_TIMEOUT.toMillis());

		assertThat(TestServers.text(slow.get(30, TimeUnit.SECONDS))).isEqualTo("slept");
		long slowMillis = TestServers.millis(System.nanoTime() - slowStarted);
		assertThat(slowMillis).as("the long call outlasts the request timeout")
			.isGreaterThan(REQUEST_TIMEOUT.toMillis());
		logger.info("tool 'hang' (timeout " + HANG_TIMEOUT.toMillis() + " ms) failed after " + hangMillis
				+ " ms; tool 'slow' (" + SLOW_MILLIS + " ms, timeout 20000 ms) answered after " + slowMillis
				+ " ms; request timeout " + REQUEST_TIMEOUT.toMillis() + " ms");

		String cancellations = TestServers.text(call("cancellations", Map.of()));
		assertThat(cancellations.lines()).as("the timed-out call only is cancelled at the server")
			.singleElement()
			.satisfies((line) -> assertThat(line).contains("\"requestId\":\"")
				.contains("\"reason\":\"timed out after " + HANG_TIMEOUT.toMillis() + " ms\""));
		assertThat(this.supervisor.state()).isEqualTo(McpServerState.UP);
		assertThat(this.supervisor.status().generation()).as("no probe found the server hung").isOne();
	}

	@Test
	void aCallBoundByTheClientsOwnTimerFailsWithTheTimeoutErrorAndIsCancelled() throws Exception {
		// the request timeout is the SDK client's own (no longer tool timeout, an equal
		// initialization timeout): that timer alone ends the call
		Duration timeout = Duration.ofSeconds(5);
		StdioServerDefinition definition = new StdioServerDefinition("timed", TestServers.java(),
				TestServers.javaServerArgs(CancellationRecordingMcpServer.class), Map.of(), null, timeout, timeout,
				Duration.ofSeconds(1), List.of(), Map.of());
		this.supervisor = McpServerSupervisor
			.builder("timed", new StdioConnector(definition, this.scheduler::execute), this.scheduler)
			.calls(CallPolicy.builder().waitForRecovery(Duration.ZERO).retry(CallPolicy.Retry.NEVER).build())
			.healthCheck(HealthCheckPolicy.disabled(Duration.ofSeconds(5)))
			.build();
		assertThat(this.supervisor.start().join().state()).isEqualTo(McpServerState.UP);
		long started = System.nanoTime();
		assertThatExceptionOfType(IllegalStateException.class).isThrownBy(() -> call("hang", Map.of()))
			.withMessage("MCP server 'timed': tool 'hang' timed out after " + timeout.toMillis() + " ms");
		assertThat(TestServers.millis(System.nanoTime() - started)).isGreaterThanOrEqualTo(timeout.toMillis());
		assertThat(TestServers.text(call("cancellations", Map.of())).lines()).singleElement()
			.satisfies((line) -> assertThat(line)
				.contains("\"reason\":\"timed out after " + timeout.toMillis() + " ms\""));
		assertThat(this.supervisor.state()).isEqualTo(McpServerState.UP);
	}

	private CallToolResult call(String tool, Map<String, Object> arguments) {
		return this.supervisor.callTool(CallToolRequest.builder(tool).arguments(arguments).build());
	}

}
