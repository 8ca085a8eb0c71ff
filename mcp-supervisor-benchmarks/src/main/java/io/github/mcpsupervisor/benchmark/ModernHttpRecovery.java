package io.github.mcpsupervisor.benchmark;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import io.github.mcpsupervisor.connector.McpConnectors;
import io.github.mcpsupervisor.connector.McpConnectors.Protocol;
import io.github.mcpsupervisor.demo.ServerCommands;
import io.github.mcpsupervisor.supervisor.CallPolicy;
import io.github.mcpsupervisor.supervisor.CallPolicy.Retry;
import io.github.mcpsupervisor.supervisor.HealthCheckPolicy;
import io.github.mcpsupervisor.supervisor.McpConnector;
import io.github.mcpsupervisor.supervisor.McpServerState;
import io.github.mcpsupervisor.supervisor.McpServerSupervisor;
import io.github.mcpsupervisor.supervisor.ReconnectPolicy;
import io.github.mcpsupervisor.supervisor.SupervisorListener;
import io.github.mcpsupervisor.supervisor.SupervisorScheduler;
import io.github.mcpsupervisor.transport.StreamableHttpServerDefinition;

/**
 * Scenario 7 for revision 2026-07-28: the TypeScript SDK v2 test server over stateless
 * Streamable HTTP (2026-07-28 only), killed and started again on the same port, measured
 * as {@link HttpRecovery} measures server-everything. A call in flight when it dies fails
 * after {@code modern_http_inflight_failfast_ms}; once it listens again, the first
 * successful call comes after {@code modern_http_mttr_ms}. A stateless server has no
 * session to lose: whether a restart ends the generation is counted, not assumed.
 */
final class ModernHttpRecovery {

	private static final Duration DELAY = Duration.ofMillis(100);

	private final int kills;

	private final SupervisorScheduler scheduler;

	private final Results results;

	private final int port = freePort();

	private Process server;

	ModernHttpRecovery(int kills, SupervisorScheduler scheduler, Results results) {
		this.kills = kills;
		this.scheduler = scheduler;
		this.results = results;
	}

	void run() throws Exception {
		startServer();
		try {
			measure();
		}
		finally {
			stopServer();
		}
	}

	private void measure() throws Exception {
		StreamableHttpServerDefinition definition = new StreamableHttpServerDefinition("remote",
				URI.create("http://127.0.0.1:" + this.port + "/mcp"), Map.of(), Duration.ofSeconds(20),
				Duration.ofSeconds(20));
		List<Double> cold = new ArrayList<>();
		for (int i = 0; i < 5; i++) {
			// against a server that has just started, as a recovering client meets it
			stopServer();
			startServer();
			try (McpConnector connector = McpConnectors.streamableHttp(definition, Protocol.V2026_07_28)) {
				McpServerSupervisor fresh = supervisor(connector, SupervisorListener.NONE);
				long started = System.nanoTime();
				fresh.start().join();
				cold.add(BenchmarkServers.millis(System.nanoTime() - started));
				fresh.stop().get(30, TimeUnit.SECONDS);
			}
		}
		List<Double> inflight = new ArrayList<>();
		List<Double> mttr = new ArrayList<>();
		List<Double> mttrMinusDelay = new ArrayList<>();
		List<Double> applied = new ArrayList<>();
		AppliedDelays delays = new AppliedDelays();
		int reconnects = 0;
		int callsFailed = 0;
		try (McpConnector connector = McpConnectors.streamableHttp(definition, Protocol.V2026_07_28)) {
			McpServerSupervisor supervisor = supervisor(connector, delays);
			supervisor.start().join();
			for (int i = 0; i < this.kills; i++) {
				// a long call in flight when the server dies
				CompletableFuture<Long> failedAt = CompletableFuture
					.supplyAsync(() -> supervisor.callTool(BenchmarkServers.request("slow", Map.of("ms", 10000))))
					.handle((result, failure) -> (failure != null) ? System.nanoTime() : null);
				Thread.sleep(300);
				long killedAt = System.nanoTime();
				stopServer();
				Long failed = failedAt.get(60, TimeUnit.SECONDS);
				if (failed == null) {
					throw new IllegalStateException("the call in flight was expected to fail");
				}
				inflight.add(BenchmarkServers.millis(failed - killedAt));
				startServer();
				awaitUp(supervisor);
				Thread.sleep(1100); // past the stability window: the next outage is fresh
				// an idle server dies and comes back: the next call finds it
				stopServer();
				startServer();
				int generation = supervisor.status().generation();
				long listening = System.nanoTime();
				int failedCalls = callUntilItSucceeds(supervisor);
				long succeededAt = System.nanoTime();
				double recovery = BenchmarkServers.millis(succeededAt - listening);
				mttr.add(recovery);
				boolean reconnected = supervisor.status().generation() > generation;
				// the delays waited after the server listened again: a backoff begun
				// while it was down counts only for its rest
				double waited = delays.millisWithin(listening, succeededAt);
				applied.add(waited);
				mttrMinusDelay.add(recovery - waited);
				reconnects += reconnected ? 1 : 0;
				callsFailed += failedCalls;
			}
			supervisor.stop().get(30, TimeUnit.SECONDS);
		}
		double coldStart = Stats.median(cold);
		this.results.put("modern_http_cold_start_ms_p50", Stats.round(coldStart));
		this.results.put("modern_http_inflight_failfast_ms_p50", Stats.round(Stats.median(inflight)));
		this.results.put("modern_http_inflight_failfast_ms_p99", Stats.round(Stats.percentile(inflight, 99)));
		this.results.put("modern_http_mttr_ms_p50", Stats.round(Stats.median(mttr)));
		this.results.put("modern_http_mttr_ms_p99", Stats.round(Stats.percentile(mttr, 99)));
		this.results.put("modern_http_reconnect_delay_ms", DELAY.toMillis());
		this.results.put("modern_http_applied_delay_ms_p50", Stats.round(Stats.median(applied)));
		this.results.put("modern_http_applied_delay_ms_p99", Stats.round(Stats.percentile(applied, 99)));
		this.results.put("modern_http_mttr_minus_delay_over_cold_start",
				Stats.round(Stats.median(mttrMinusDelay) / coldStart));
		this.results.put("modern_http_restarts_seen_as_reconnects", reconnects);
		this.results.put("modern_http_calls_failed_per_restart", Stats.round(callsFailed / (double) this.kills));
		this.results.put("modern_http_kills", this.kills);
	}

	private McpServerSupervisor supervisor(McpConnector connector, SupervisorListener listener) {
		return McpServerSupervisor.builder("remote", connector, this.scheduler)
			.reconnect(ReconnectPolicy.builder()
				.initialDelay(DELAY)
				.maxDelay(Duration.ofSeconds(1))
				.maxAttempts(20)
				.jitter(0)
				.build())
			// no retry, as for server-everything: the call in flight fails when the
			// server dies
			.calls(CallPolicy.builder().waitForRecovery(Duration.ofSeconds(5)).retry(Retry.NEVER).build())
			.healthCheck(HealthCheckPolicy.disabled(Duration.ofSeconds(5)))
			.listener(listener)
			.build();
	}

	// Calls until a call succeeds; returns how many failed.
	private static int callUntilItSucceeds(McpServerSupervisor supervisor) throws InterruptedException {
		long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
		int failed = 0;
		while (System.nanoTime() < deadline) {
			try {
				supervisor.callTool(BenchmarkServers.request("echo", Map.of("message", "x")));
				return failed;
			}
			catch (RuntimeException ex) {
				failed++;
				Thread.sleep(1);
			}
		}
		throw new IllegalStateException("no recovery within 60 s");
	}

	private static void awaitUp(McpServerSupervisor supervisor) throws InterruptedException {
		long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
		while (supervisor.state() != McpServerState.UP) {
			if (System.nanoTime() > deadline) {
				throw new IllegalStateException("the HTTP server did not recover: " + supervisor.status());
			}
			Thread.sleep(5);
		}
	}

	private void startServer() throws IOException, InterruptedException, TimeoutException {
		this.server = ServerCommands.modernOverHttp(BenchmarkServers.npmDirectory(), this.port, false).start();
		ServerCommands.listeningPort(this.server, Duration.ofSeconds(60));
	}

	private void stopServer() throws InterruptedException {
		if (this.server != null) {
			this.server.destroyForcibly();
			this.server.waitFor();
			while (ServerCommands.isListening(this.port)) {
				Thread.sleep(2);
			}
			this.server = null;
		}
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
