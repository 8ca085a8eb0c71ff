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
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;

import io.github.mcpsupervisor.connector.McpConnectors;
import io.github.mcpsupervisor.connector.McpConnectors.Protocol;
import io.github.mcpsupervisor.demo.ServerCommands;
import io.github.mcpsupervisor.supervisor.CallPolicy;
import io.github.mcpsupervisor.supervisor.McpConnector;
import io.github.mcpsupervisor.supervisor.McpServerState;
import io.github.mcpsupervisor.supervisor.McpServerStateChange;
import io.github.mcpsupervisor.supervisor.McpServerSupervisor;
import io.github.mcpsupervisor.supervisor.SupervisorListener;
import io.github.mcpsupervisor.supervisor.SupervisorScheduler;
import io.github.mcpsupervisor.transport.StdioServerDefinition;
import io.github.mcpsupervisor.transport.StreamableHttpServerDefinition;

/**
 * Scenario 10: the application's own tasks hold every worker of the common
 * {@code ForkJoinPool} (run with a common parallelism of 4, as on a JVM that sees 5
 * CPUs), as a parallel stream or a {@code supplyAsync} blocking on tool calls holds it.
 * Over stdio and Streamable HTTP, both revisions: how many of {@value #CALLS} concurrent
 * calls are answered, and how long the fan-out takes, next to the same calls from an idle
 * pool; over stdio, how long a SIGKILL takes to be seen.
 */
final class FullPool {

	private static final int CALLS = 8;

	private static final int KILLS = 5;

	private static final Duration PATIENCE = Duration.ofSeconds(30);

	private final SupervisorScheduler scheduler;

	private final Results results;

	private final ExecutorService callers = Executors.newFixedThreadPool(CALLS);

	private final List<Process> servers = new ArrayList<>();

	FullPool(SupervisorScheduler scheduler, Results results) {
		this.scheduler = scheduler;
		this.results = results;
	}

	void run() throws Exception {
		this.results.put("pool_common_parallelism", ForkJoinPool.getCommonPoolParallelism());
		try {
			StdioServerDefinition demo = BenchmarkServers.demo("demo", Map.of());
			StdioServerDefinition typeScript = BenchmarkServers.typeScript("ts", false);
			measure("pool_stdio_2025", McpConnectors.stdio(demo, this.scheduler, Protocol.V2025_11_25), true);
			measure("pool_stdio_2026", McpConnectors.stdio(typeScript, this.scheduler, Protocol.V2026_07_28), true);
			try (McpConnector everything = McpConnectors.streamableHttp(http(startEverything()),
					Protocol.V2025_11_25)) {
				measure("pool_http_2025", everything, false);
			}
			try (McpConnector modern = McpConnectors.streamableHttp(http(startModernHttp()), Protocol.V2026_07_28)) {
				measure("pool_http_2026", modern, false);
			}
		}
		finally {
			this.callers.shutdownNow();
			for (Process server : this.servers) {
				server.descendants().forEach(ProcessHandle::destroyForcibly);
				server.destroyForcibly();
			}
		}
	}

	private void measure(String prefix, McpConnector connector, boolean kills) throws Exception {
		long[] lostAt = new long[1];
		McpServerSupervisor supervisor = McpServerSupervisor.builder(prefix, connector, this.scheduler)
			.reconnect(DetectionAndRecovery.reconnect(Duration.ofMillis(100)))
			.calls(CallPolicy.defaults())
			.listener(new SupervisorListener() {
				@Override
				public void stateChanged(McpServerStateChange change) {
					if (change.from() == McpServerState.UP) {
						lostAt[0] = System.nanoTime();
					}
				}
			})
			.build();
		supervisor.start().join();
		try {
			fanOut(supervisor); // warm up
			FanOut idle = fanOut(supervisor);
			FanOut full;
			try (Blockers blockers = Blockers.fill()) {
				full = fanOut(supervisor);
			}
			this.results.put(prefix + "_fanout_idle_ms", Stats.round(idle.millis()));
			this.results.put(prefix + "_fanout_full_ms", Stats.round(full.millis()));
			this.results.put(prefix + "_answered_full", full.answered() + "/" + CALLS);
			if (kills) {
				List<Double> detection = new ArrayList<>();
				for (int i = 0; i < KILLS; i++) {
					Thread.sleep(1100); // past the stability window: every kill opens a
										// fresh outage
					try (Blockers blockers = Blockers.fill()) {
						lostAt[0] = 0;
						long killedAt = System.nanoTime();
						BenchmarkServers.kill(supervisor);
						long deadline = killedAt + PATIENCE.toNanos();
						while (lostAt[0] == 0 && System.nanoTime() < deadline) {
							Thread.sleep(1);
						}
						detection.add((lostAt[0] != 0) ? BenchmarkServers.millis(lostAt[0] - killedAt)
								: BenchmarkServers.millis(PATIENCE.toNanos()));
					}
					BenchmarkServers.callUntilItSucceeds(supervisor, "echo", Map.of("message", "x"), PATIENCE);
				}
				this.results.put(prefix + "_detection_full_ms_p50", Stats.round(Stats.median(detection)));
				this.results.put(prefix + "_detection_full_ms_max", Stats.round(Stats.percentile(detection, 100)));
			}
		}
		finally {
			supervisor.stop().get(30, TimeUnit.SECONDS);
		}
	}

	// CALLS concurrent calls from the benchmark's own threads: how many were answered,
	// and
	// when the last one ended
	private FanOut fanOut(McpServerSupervisor supervisor) throws InterruptedException {
		long started = System.nanoTime();
		List<CompletableFuture<Boolean>> calls = IntStream.range(0, CALLS)
			.mapToObj((i) -> CompletableFuture.supplyAsync(() -> {
				supervisor.callTool(BenchmarkServers.request("echo", Map.of("message", "call " + i)));
				return true;
			}, this.callers).exceptionally((ex) -> false))
			.toList();
		int answered = 0;
		for (CompletableFuture<Boolean> call : calls) {
			try {
				answered += call.get(PATIENCE.toSeconds(), TimeUnit.SECONDS) ? 1 : 0;
			}
			catch (Exception ex) {
				// not answered within the patience
			}
		}
		return new FanOut(answered, BenchmarkServers.millis(System.nanoTime() - started));
	}

	private static StreamableHttpServerDefinition http(URI url) {
		return new StreamableHttpServerDefinition("remote", url, Map.of(), Duration.ofSeconds(20), PATIENCE);
	}

	private URI startEverything() throws Exception {
		int port = freePort();
		Process server = ServerCommands.everythingOverHttp(BenchmarkServers.npmDirectory(), port).start();
		this.servers.add(server);
		long deadline = System.nanoTime() + PATIENCE.toNanos();
		while (!ServerCommands.isListening(port)) {
			if (System.nanoTime() > deadline) {
				throw new IllegalStateException("server-everything does not listen on " + port);
			}
			Thread.sleep(20);
		}
		return URI.create("http://127.0.0.1:" + port + "/mcp");
	}

	private URI startModernHttp() throws Exception {
		Process server = ServerCommands.modernOverHttp(BenchmarkServers.npmDirectory(), 0, false).start();
		this.servers.add(server);
		return URI.create("http://127.0.0.1:" + ServerCommands.listeningPort(server, PATIENCE) + "/mcp");
	}

	private static int freePort() throws IOException {
		try (ServerSocket socket = new ServerSocket(0, 0, InetAddress.getLoopbackAddress())) {
			return socket.getLocalPort();
		}
	}

	private record FanOut(int answered, double millis) {
	}

	/**
	 * The application's tasks, one blocked on every worker of the common pool until
	 * closed.
	 */
	private static final class Blockers implements AutoCloseable {

		private final CountDownLatch release = new CountDownLatch(1);

		private final List<CompletableFuture<Void>> tasks = new ArrayList<>();

		static Blockers fill() throws InterruptedException {
			Blockers blockers = new Blockers();
			int workers = ForkJoinPool.getCommonPoolParallelism();
			CountDownLatch started = new CountDownLatch(workers);
			for (int i = 0; i < workers; i++) {
				blockers.tasks.add(CompletableFuture.runAsync(() -> {
					started.countDown();
					try {
						blockers.release.await();
					}
					catch (InterruptedException ex) {
						Thread.currentThread().interrupt();
					}
				}));
			}
			if (!started.await(10, TimeUnit.SECONDS)) {
				throw new IllegalStateException("the common pool did not fill");
			}
			return blockers;
		}

		@Override
		public void close() {
			this.release.countDown();
			CompletableFuture.allOf(this.tasks.toArray(CompletableFuture[]::new)).join();
		}

	}

}
