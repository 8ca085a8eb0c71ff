package io.github.mcpsupervisor.benchmark;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.IntFunction;

import io.github.mcpsupervisor.benchmark.DetectionAndRecovery.SupervisorFactory;
import io.github.mcpsupervisor.supervisor.CallPolicy;
import io.github.mcpsupervisor.supervisor.McpServerState;
import io.github.mcpsupervisor.supervisor.McpSupervisors;
import io.github.mcpsupervisor.supervisor.McpSupervisors.SupervisedServer;
import io.github.mcpsupervisor.supervisor.ReconnectPolicy;
import io.github.mcpsupervisor.supervisor.SupervisorListener;
import io.github.mcpsupervisor.transport.StdioServerDefinition;
import io.modelcontextprotocol.client.McpSyncClient;

import org.springframework.ai.mcp.SyncMcpToolCallbackProvider;

/**
 * Scenario 6: the same N servers started by the supervisor, in parallel by bare MCP SDK
 * clients (initialize and tools/list, nothing else: the floor) and the way plain Spring
 * AI does (its clients initialized one after the other, then its tool callback provider
 * listing the tools of each), one after the other in the same run; and the platform
 * threads and heap that the supervised servers cost once started.
 */
final class Scale {

	/**
	 * The bound of a server's initialize and tools listing, many servers starting at
	 * once.
	 */
	private static final Duration PATIENCE = Duration.ofSeconds(180);

	private final String label;

	private final IntFunction<StdioServerDefinition> definitions;

	private final int count;

	private final int rounds;

	private final SupervisorFactory supervisors;

	private final Results results;

	Scale(String label, IntFunction<StdioServerDefinition> definitions, int count, int rounds,
			SupervisorFactory supervisors, Results results) {
		this.label = label;
		this.definitions = definitions;
		this.count = count;
		this.rounds = rounds;
		this.supervisors = supervisors;
		this.results = results;
	}

	void run() throws Exception {
		List<Double> floor = new ArrayList<>();
		List<Double> ours = new ArrayList<>();
		List<Double> springAi = new ArrayList<>();
		for (int round = 1; round <= this.rounds; round++) {
			floor.add(parallelSdkClients());
			ours.add(supervised(round == this.rounds));
			springAi.add(plainSpringAi());
		}
		String prefix = "scale_" + this.label + "_" + this.count + "_";
		this.results.put(prefix + "startup_ms", Stats.round(Stats.median(ours)));
		this.results.put(prefix + "parallel_floor_ms", Stats.round(Stats.median(floor)));
		this.results.put(prefix + "spring_ai_ms", Stats.round(Stats.median(springAi)));
		this.results.put(prefix + "startup_over_parallel_floor", Stats.round(Stats.median(ours) / Stats.median(floor)));
		this.results.put(prefix + "startup_over_spring_ai", Stats.round(Stats.median(ours) / Stats.median(springAi)));
		this.results.put(prefix + "rounds", this.rounds);
	}

	// (b) the floor: every server by a bare SDK client, all at once, on threads that
	// exist before the clock starts.
	private double parallelSdkClients() throws Exception {
		ThreadPoolExecutor pool = new ThreadPoolExecutor(this.count, this.count, 1, TimeUnit.SECONDS,
				new LinkedBlockingQueue<>());
		pool.prestartAllCoreThreads();
		List<McpSyncClient> clients = Collections.synchronizedList(new ArrayList<>());
		long started = System.nanoTime();
		List<CompletableFuture<?>> connecting = new ArrayList<>();
		for (int i = 0; i < this.count; i++) {
			StdioServerDefinition definition = this.definitions.apply(i);
			connecting.add(CompletableFuture.runAsync(() -> {
				McpSyncClient client = PlainSpringAi.client(definition, PATIENCE, PATIENCE);
				clients.add(client);
				client.initialize();
				client.listTools();
			}, pool));
		}
		CompletableFuture.allOf(connecting.toArray(CompletableFuture[]::new)).join();
		double wall = BenchmarkServers.millis(System.nanoTime() - started);
		closeAll(clients, pool);
		pool.shutdown();
		return wall;
	}

	// (c) as Spring AI's MCP client auto-configuration does: each client built and
	// initialized in turn, then the provider lists every client's tools.
	private double plainSpringAi() throws Exception {
		List<McpSyncClient> clients = new ArrayList<>();
		long started = System.nanoTime();
		for (int i = 0; i < this.count; i++) {
			McpSyncClient client = PlainSpringAi.client(this.definitions.apply(i), PATIENCE, PATIENCE);
			clients.add(client);
			client.initialize();
		}
		AtomicInteger names = new AtomicInteger();
		int tools = SyncMcpToolCallbackProvider.builder()
			.mcpClients(clients)
			// identical servers: names made unique by a counter
			.toolNamePrefixGenerator((connection, tool) -> "s" + names.incrementAndGet() + "_" + tool.name())
			.build()
			.getToolCallbacks().length;
		double wall = BenchmarkServers.millis(System.nanoTime() - started);
		if (tools < this.count) {
			throw new IllegalStateException("Spring AI found " + tools + " tools on " + this.count + " servers");
		}
		ThreadPoolExecutor pool = new ThreadPoolExecutor(this.count, this.count, 1, TimeUnit.SECONDS,
				new LinkedBlockingQueue<>());
		closeAll(clients, pool);
		pool.shutdown();
		return wall;
	}

	// (a) the supervisor; with the census, its threads and heap once they have settled.
	private double supervised(boolean census) throws Exception {
		System.gc();
		long heapBefore = usedHeap();
		int threadsBefore = census ? ThreadCensus.settled(Duration.ofSeconds(30)) : 0;
		List<SupervisedServer> servers = new ArrayList<>();
		for (int i = 0; i < this.count; i++) {
			StdioServerDefinition definition = this.definitions.apply(i);
			definition = new StdioServerDefinition(definition.name(), definition.command(), definition.args(),
					definition.env(), null, PATIENCE, PATIENCE, Duration.ofSeconds(2));
			servers
				.add(new SupervisedServer(
						this.supervisors.create(definition, ReconnectPolicy.defaults(), CallPolicy.defaults(),
								SupervisorListener.NONE),
						false, false, PATIENCE.plusSeconds(20), Duration.ofSeconds(10)));
		}
		McpSupervisors all = new McpSupervisors(servers);
		long started = System.nanoTime();
		all.start();
		double wall = BenchmarkServers.millis(System.nanoTime() - started);
		long up = all.status().stream().filter((status) -> status.state() == McpServerState.UP).count();
		if (up != this.count) {
			throw new IllegalStateException(up + " of " + this.count + " " + this.label + " servers started");
		}
		if (census) {
			int threadsAfter = ThreadCensus.settled(Duration.ofSeconds(30));
			System.err.println("benchmark: threads of " + this.count + " " + this.label + " servers: "
					+ ThreadCensus.describe(Math.max(2, this.count / 4)));
			System.gc();
			long heapAfter = usedHeap();
			String prefix = "scale_" + this.label + "_" + this.count + "_";
			this.results.put(prefix + "threads_per_server",
					Stats.round((threadsAfter - threadsBefore) / (double) this.count));
			this.results.put(prefix + "heap_kb_per_server",
					Stats.round((heapAfter - heapBefore) / 1024.0 / this.count));
		}
		long stopping = System.nanoTime();
		all.stop();
		if (census) {
			this.results.put("scale_" + this.label + "_" + this.count + "_stop_ms",
					Stats.round(BenchmarkServers.millis(System.nanoTime() - stopping)));
		}
		awaitNoServerProcess();
		return wall;
	}

	private static void closeAll(List<McpSyncClient> clients, ExecutorService pool) throws Exception {
		List<CompletableFuture<?>> closing = new ArrayList<>();
		for (McpSyncClient client : clients) {
			closing.add(CompletableFuture.runAsync(client::closeGracefully, pool));
		}
		CompletableFuture.allOf(closing.toArray(CompletableFuture[]::new)).get(60, TimeUnit.SECONDS);
		awaitNoServerProcess();
	}

	// The next start must not compete with servers of the previous one still exiting.
	private static void awaitNoServerProcess() throws InterruptedException {
		long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
		while (BenchmarkServers.demoProcesses() > 0) {
			if (System.nanoTime() > deadline) {
				throw new IllegalStateException(BenchmarkServers.demoProcesses() + " server processes still run");
			}
			Thread.sleep(20);
		}
	}

	private static long usedHeap() {
		Runtime runtime = Runtime.getRuntime();
		return runtime.totalMemory() - runtime.freeMemory();
	}

}
