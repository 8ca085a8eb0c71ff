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

import io.github.mcpsupervisor.client.internal.McpClientFactory;
import io.github.mcpsupervisor.client.internal.McpServerSession;
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
import io.github.mcpsupervisor.transport.internal.http.HttpAuthorization;
import io.github.mcpsupervisor.transport.internal.http.HttpTransportCustomizer;
import io.github.mcpsupervisor.transport.internal.http.SharedHttpClient;
import io.github.mcpsupervisor.transport.internal.http.StreamableHttpConnector;

/**
 * Scenario 7: npm's server-everything in Streamable HTTP mode, killed and started again
 * on the same port. A call in flight when it dies fails after
 * {@code http_inflight_failfast_ms}; once it listens again, the first successful call
 * comes after {@code http_mttr_ms} (HTTP has no process to watch: the next call meets the
 * lost session). Its floor is a cold start against a server that has just started too.
 */
final class HttpRecovery {

	private static final Duration DELAY = Duration.ofMillis(100);

	private final int kills;

	private final SupervisorScheduler scheduler;

	private final Results results;

	private final int port = freePort();

	private Process server;

	HttpRecovery(int kills, SupervisorScheduler scheduler, Results results) {
		this.kills = kills;
		this.scheduler = scheduler;
		this.results = results;
	}

	void run() throws Exception {
		startServer();
		try {
			measure();
			countThreads();
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
			try (McpConnector connector = McpConnectors.streamableHttp(definition, Protocol.V2025_11_25)) {
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
		try (McpConnector connector = McpConnectors.streamableHttp(definition, Protocol.V2025_11_25)) {
			McpServerSupervisor supervisor = supervisor(connector, delays);
			supervisor.start().join();
			for (int i = 0; i < this.kills; i++) {
				// a long call in flight when the server dies
				CompletableFuture<Long> failedAt = CompletableFuture
					.supplyAsync(() -> supervisor.callTool(BenchmarkServers.request("trigger-long-running-operation",
							Map.of("duration", 10, "steps", 2))))
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
		this.results.put("http_cold_start_ms_p50", Stats.round(coldStart));
		this.results.put("http_inflight_failfast_ms_p50", Stats.round(Stats.median(inflight)));
		this.results.put("http_mttr_ms_p50", Stats.round(Stats.median(mttr)));
		this.results.put("http_mttr_ms_p99", Stats.round(Stats.percentile(mttr, 99)));
		this.results.put("http_reconnect_delay_ms", DELAY.toMillis());
		this.results.put("http_applied_delay_ms_p50", Stats.round(Stats.median(applied)));
		this.results.put("http_applied_delay_ms_p99", Stats.round(Stats.percentile(applied, 99)));
		this.results.put("http_mttr_minus_delay_over_cold_start",
				Stats.round(Stats.median(mttrMinusDelay) / coldStart));
		this.results.put("http_restarts_seen_as_reconnects", reconnects);
		this.results.put("http_calls_failed_per_restart", Stats.round(callsFailed / (double) this.kills));
		this.results.put("http_kills", this.kills);
	}

	// Many HTTP servers (here the same one under different names) over the shared HTTP
	// client: the platform threads they add, once settled, per server.
	private void countThreads() throws Exception {
		int servers = 20;
		int before = ThreadCensus.settled(Duration.ofSeconds(20));
		Map<String, Integer> rolesBefore = ThreadCensus.roles();
		List<McpServerSupervisor> supervisors = new ArrayList<>();
		try (SharedHttpClient httpClient = new SharedHttpClient()) {
			for (int i = 0; i < servers; i++) {
				StreamableHttpServerDefinition definition = new StreamableHttpServerDefinition("remote-" + i,
						URI.create("http://127.0.0.1:" + this.port + "/mcp"), Map.of(), Duration.ofSeconds(20),
						Duration.ofSeconds(20));
				McpServerSupervisor supervisor = supervisor(new StreamableHttpConnector(definition,
						McpClientFactory.standard(), new McpServerSession(definition.name(), List.of()),
						HttpTransportCustomizer.NONE, HttpAuthorization.NONE, httpClient), SupervisorListener.NONE);
				supervisor.start().join();
				supervisor.callTool(BenchmarkServers.request("echo", Map.of("message", "x")));
				supervisors.add(supervisor);
			}
			int after = ThreadCensus.settled(Duration.ofSeconds(20));
			StringBuilder added = new StringBuilder();
			ThreadCensus.roles().forEach((role, count) -> {
				int more = count - rolesBefore.getOrDefault(role, 0);
				if (more != 0) {
					added.append((added.length() > 0) ? ", " : "").append(role).append('=').append(more);
				}
			});
			System.err.println("benchmark: threads added by " + servers + " HTTP servers: " + added);
			this.results.put("http_servers_counted", servers);
			this.results.put("http_threads_per_server", Stats.round((after - before) / (double) servers));
			for (McpServerSupervisor supervisor : supervisors) {
				supervisor.stop().get(30, TimeUnit.SECONDS);
			}
		}
	}

	private McpServerSupervisor supervisor(McpConnector connector, SupervisorListener listener) {
		return McpServerSupervisor.builder("remote", connector, this.scheduler)
			.reconnect(ReconnectPolicy.builder()
				.initialDelay(DELAY)
				.maxDelay(Duration.ofSeconds(1))
				.maxAttempts(20)
				.jitter(0)
				.build())
			// no retry: the call in flight fails when the server dies (a read-only call
			// would otherwise wait up to wait-for-recovery for the next session)
			.calls(CallPolicy.builder().waitForRecovery(Duration.ofSeconds(5)).retry(Retry.NEVER).build())
			.healthCheck(HealthCheckPolicy.disabled(Duration.ofSeconds(5)))
			.listener(listener)
			.build();
	}

	// Calls until a call succeeds; returns how many failed. The first call after the
	// restart meets the lost session and fails.
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

	private void startServer() throws IOException, InterruptedException {
		this.server = ServerCommands.everythingOverHttp(BenchmarkServers.npmDirectory(), this.port).start();
		long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
		while (!listening()) {
			if (System.nanoTime() > deadline || !this.server.isAlive()) {
				throw new IllegalStateException("server-everything does not listen on port " + this.port);
			}
			Thread.sleep(2);
		}
	}

	private void stopServer() throws InterruptedException {
		if (this.server != null) {
			this.server.descendants().forEach(ProcessHandle::destroyForcibly);
			this.server.destroyForcibly();
			this.server.waitFor();
			while (listening()) {
				Thread.sleep(2);
			}
			this.server = null;
		}
	}

	private boolean listening() {
		return ServerCommands.isListening(this.port);
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
