package io.github.mcpsupervisor.benchmark;

import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.logging.Level;
import java.util.logging.Logger;
import java.util.stream.Collectors;

import io.github.mcpsupervisor.demo.DemoMcpServer;
import io.github.mcpsupervisor.supervisor.CallPolicy;
import io.github.mcpsupervisor.supervisor.HealthCheckPolicy;
import io.github.mcpsupervisor.supervisor.McpServerState;
import io.github.mcpsupervisor.supervisor.McpServerStateChange;
import io.github.mcpsupervisor.supervisor.McpServerSupervisor;
import io.github.mcpsupervisor.supervisor.McpServerUnavailableException;
import io.github.mcpsupervisor.supervisor.McpSupervisors;
import io.github.mcpsupervisor.supervisor.McpSupervisors.SupervisedServer;
import io.github.mcpsupervisor.supervisor.ReconnectPolicy;
import io.github.mcpsupervisor.supervisor.SupervisorListener;
import io.github.mcpsupervisor.supervisor.ThreadPoolSupervisorScheduler;
import io.github.mcpsupervisor.tool.McpSupervisorToolCallbackProvider;
import io.github.mcpsupervisor.transport.StdioConnector;
import io.github.mcpsupervisor.transport.StdioServerDefinition;
import io.modelcontextprotocol.client.McpClient;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.client.transport.ServerParameters;
import io.modelcontextprotocol.client.transport.StdioClientTransport;
import io.modelcontextprotocol.json.McpJsonDefaults;
import io.modelcontextprotocol.spec.McpSchema.CallToolRequest;
import io.modelcontextprotocol.spec.McpSchema.Tool;

import org.springframework.ai.mcp.SyncMcpToolCallback;
import org.springframework.ai.tool.ToolCallback;

/**
 * Runs every benchmark scenario against real server processes and prints one
 * {@code name=value} line per figure, then a table. Options:
 * {@code --kills=30 --calls=2000 --chaos=120 --scale=50} (chaos in seconds).
 */
public final class McpSupervisorBenchmark {

	private final Results results = new Results();

	private final ThreadPoolSupervisorScheduler scheduler = new ThreadPoolSupervisorScheduler();

	private final Options options;

	private McpSupervisorBenchmark(Options options) {
		this.options = options;
	}

	public static void main(String[] args) throws Exception {
		Logger.getLogger("").setLevel(Level.SEVERE);
		Options options = Options.parse(args);
		McpSupervisorBenchmark benchmark = new McpSupervisorBenchmark(options);
		long started = System.nanoTime();
		try {
			benchmark.run();
		}
		catch (Exception ex) {
			ex.printStackTrace();
			// the plain SDK clients' transports hold non-daemon threads: exit explicitly
			System.exit(1);
		}
		benchmark.results.put("benchmark_wall_s", Stats.round((System.nanoTime() - started) / 1e9));
		benchmark.results.print();
		System.exit(0);
	}

	private void run() throws Exception {
		System.err.println("benchmark: " + this.options);
		DetectionAndRecovery demo = new DetectionAndRecovery("demo", demo("demo", Map.of()), this.options.kills());
		demo.run();
		DetectionAndRecovery everything = new DetectionAndRecovery("everything", everything(), this.options.kills());
		everything.run();
		inFlight();
		overhead();
		chaos();
		scale(demo.coldStartMillis());
		this.scheduler.close();
	}

	/**
	 * Scenario 2: a slow call in flight when the server is killed, ours next to plain
	 * Spring AI.
	 */
	private void inFlight() throws Exception {
		Duration requestTimeout = Duration.ofSeconds(5);
		StdioServerDefinition definition = withRequestTimeout(demo("inflight", Map.of()), requestTimeout);
		List<Double> ours = new ArrayList<>();
		List<Double> plain = new ArrayList<>();
		for (int i = 0; i < 3; i++) {
			McpServerSupervisor supervisor = supervisor(definition,
					new ReconnectPolicy(true, Duration.ofMillis(100), Duration.ofSeconds(1), 10, 0),
					CallPolicy.defaults(), SupervisorListener.NONE);
			supervisor.start().join();
			CompletableFuture<Object> call = CompletableFuture
				.supplyAsync(() -> supervisor.callTool(request("slow-write", Map.of("millis", 20000))));
			Thread.sleep(300);
			long killedAt = System.nanoTime();
			kill(supervisor);
			ours.add(timeToFailure(call, killedAt));
			supervisor.stop().get(30, TimeUnit.SECONDS);

			Set<Long> before = childPids();
			McpSyncClient client = plainClient(definition, requestTimeout);
			ToolCallback callback = plainCallback(client, "slow-write");
			Set<Long> spawned = childPids();
			spawned.removeAll(before);
			long pid = spawned.iterator().next();
			CompletableFuture<Object> plainCall = CompletableFuture
				.supplyAsync(() -> callback.call("{\"millis\":20000}"));
			Thread.sleep(300);
			long plainKilledAt = System.nanoTime();
			ProcessHandle.of(pid).ifPresent(ProcessHandle::destroyForcibly);
			plain.add(timeToFailure(plainCall, plainKilledAt));
			client.closeGracefully();
		}
		this.results.put("inflight_failfast_ms_p50", Stats.round(Stats.median(ours)));
		this.results.put("inflight_plain_spring_ai_ms_p50", Stats.round(Stats.median(plain)));
		this.results.put("inflight_request_timeout_ms", requestTimeout.toMillis());
	}

	/**
	 * Scenario 4: echo through our callback next to Spring AI's, alternating, same JVM.
	 */
	private void overhead() throws Exception {
		StdioServerDefinition definition = demo("overhead", Map.of());
		McpServerSupervisor supervisor = supervisor(definition, ReconnectPolicy.defaults(), CallPolicy.defaults(),
				SupervisorListener.NONE);
		supervisor.start().join();
		McpSupervisors supervisors = new McpSupervisors(List
			.of(new SupervisedServer(supervisor, false, false, Duration.ofSeconds(30), Duration.ofSeconds(10))));
		ToolCallback ours = find(new McpSupervisorToolCallbackProvider(supervisors).getToolCallbacks(),
				"overhead_echo");
		McpSyncClient client = plainClient(definition, Duration.ofSeconds(20));
		ToolCallback plain = plainCallback(client, "echo");
		String input = "{\"message\":\"hello\"}";
		for (int i = 0; i < 300; i++) {
			ours.call(input);
			plain.call(input);
		}
		List<Double> oursNanos = new ArrayList<>();
		List<Double> plainNanos = new ArrayList<>();
		for (int i = 0; i < this.options.calls(); i++) {
			long t0 = System.nanoTime();
			ours.call(input);
			long t1 = System.nanoTime();
			plain.call(input);
			long t2 = System.nanoTime();
			oursNanos.add((double) (t1 - t0));
			plainNanos.add((double) (t2 - t1));
		}
		client.closeGracefully();
		supervisor.stop().get(30, TimeUnit.SECONDS);
		this.results.put("call_ours_us_p50", Stats.round(Stats.median(oursNanos) / 1000));
		this.results.put("call_plain_spring_ai_us_p50", Stats.round(Stats.median(plainNanos) / 1000));
		this.results.put("call_ours_us_p99", Stats.round(Stats.percentile(oursNanos, 99) / 1000));
		this.results.put("call_plain_spring_ai_us_p99", Stats.round(Stats.percentile(plainNanos, 99) / 1000));
		this.results.put("call_overhead_ratio", Stats.round(Stats.median(oursNanos) / Stats.median(plainNanos)));
		this.results.put("calls_per_client", this.options.calls());
	}

	/** Scenario 5: 8 callers while the server is killed every 2 to 5 s. */
	private void chaos() throws Exception {
		McpServerSupervisor supervisor = supervisor(demo("chaos", Map.of()),
				new ReconnectPolicy(true, Duration.ofMillis(100), Duration.ofSeconds(1), 10, 0.1),
				CallPolicy.defaults(), SupervisorListener.NONE);
		supervisor.start().join();
		Chaos chaos = new Chaos(supervisor, this.options.chaos());
		chaos.run();
		supervisor.stop().get(30, TimeUnit.SECONDS);
		Thread.sleep(500);
		this.results.put("chaos_seconds", this.options.chaos().toSeconds());
		this.results.put("chaos_kills", chaos.kills);
		this.results.put("chaos_calls", chaos.safeCalls.get() + chaos.unsafeCalls.get());
		this.results.put("chaos_safe_calls", chaos.safeCalls.get());
		this.results.put("chaos_safe_succeeded", chaos.safeSucceeded.get());
		this.results.put("chaos_unsafe_calls", chaos.unsafeCalls.get());
		this.results.put("chaos_unsafe_succeeded", chaos.unsafeSucceeded.get());
		this.results.put("chaos_unsafe_failed_fast", chaos.unsafeFailedFast.get());
		this.results.put("chaos_other_failures", chaos.otherFailures.get());
		this.results.put("chaos_spawns", supervisor.status().generation());
		this.results.put("chaos_max_live_processes", chaos.maxLive.get());
		this.results.put("chaos_processes_left_after_shutdown", demoProcesses());
	}

	// Scenario 6: many demo servers in one application.
	private void scale(double coldStartMillis) throws Exception {
		int count = this.options.scale();
		System.gc();
		long heapBefore = usedHeap();
		int threadsBefore = ManagementFactory.getThreadMXBean().getThreadCount();
		List<SupervisedServer> servers = new ArrayList<>();
		for (int i = 0; i < count; i++) {
			StdioServerDefinition definition = demo("scale-" + i, Map.of());
			definition = new StdioServerDefinition(definition.name(), definition.command(), definition.args(), Map.of(),
					null, Duration.ofSeconds(120), Duration.ofSeconds(180), Duration.ofSeconds(2));
			McpServerSupervisor supervisor = supervisor(definition, ReconnectPolicy.defaults(), CallPolicy.defaults(),
					SupervisorListener.NONE);
			servers
				.add(new SupervisedServer(supervisor, false, false, Duration.ofSeconds(200), Duration.ofSeconds(10)));
		}
		McpSupervisors supervisors = new McpSupervisors(servers);
		long started = System.nanoTime();
		supervisors.start();
		double wall = millis(System.nanoTime() - started);
		long up = supervisors.status().stream().filter((status) -> status.state() == McpServerState.UP).count();
		System.gc();
		long heapAfter = usedHeap();
		int threadsAfter = ManagementFactory.getThreadMXBean().getThreadCount();
		long stopping = System.nanoTime();
		supervisors.stop();
		double stopWall = millis(System.nanoTime() - stopping);
		this.results.put("scale_servers", count);
		this.results.put("scale_servers_up", up);
		this.results.put("scale_startup_wall_ms", Stats.round(wall));
		this.results.put("scale_startup_over_one_cold_start", Stats.round(wall / coldStartMillis));
		this.results.put("scale_threads_per_server", Stats.round((threadsAfter - threadsBefore) / (double) count));
		this.results.put("scale_heap_kb_per_server", Stats.round((heapAfter - heapBefore) / 1024.0 / count));
		this.results.put("scale_stop_wall_ms", Stats.round(stopWall));
		Thread.sleep(500);
		this.results.put("processes_left_after_shutdown", demoProcesses());
	}

	private McpServerSupervisor supervisor(StdioServerDefinition definition, ReconnectPolicy reconnect, CallPolicy call,
			SupervisorListener listener) {
		return McpServerSupervisor
			.builder(definition.name(), new StdioConnector(definition, this.scheduler::execute), this.scheduler)
			.reconnect(reconnect)
			.calls(call)
			.healthCheck(HealthCheckPolicy.disabled(Duration.ofSeconds(5)))
			.listener(listener)
			.build();
	}

	static StdioServerDefinition demo(String name, Map<String, String> env) {
		List<String> args = List.of("-cp", System.getProperty("java.class.path"), DemoMcpServer.class.getName());
		return new StdioServerDefinition(name, Path.of(System.getProperty("java.home"), "bin", "java").toString(), args,
				env, null, Duration.ofSeconds(20), Duration.ofSeconds(20), Duration.ofSeconds(2));
	}

	private static StdioServerDefinition everything() {
		Path script = Path.of(System.getProperty("benchmark.npm-dir", "test-servers"), "node_modules",
				"@modelcontextprotocol", "server-everything", "dist", "index.js");
		if (!Files.exists(script)) {
			throw new IllegalStateException("server-everything is not installed at " + script + ": run npm ci");
		}
		return new StdioServerDefinition("everything", "node", List.of(script.toString()), Map.of(), null,
				Duration.ofSeconds(20), Duration.ofSeconds(20), Duration.ofSeconds(2));
	}

	private static StdioServerDefinition withRequestTimeout(StdioServerDefinition definition, Duration timeout) {
		return new StdioServerDefinition(definition.name(), definition.command(), definition.args(), definition.env(),
				null, timeout, definition.initializationTimeout(), definition.terminationGracePeriod());
	}

	private static McpSyncClient plainClient(StdioServerDefinition definition, Duration requestTimeout) {
		ServerParameters parameters = ServerParameters.builder(definition.command()).args(definition.args()).build();
		McpSyncClient client = McpClient.sync(new StdioClientTransport(parameters, McpJsonDefaults.getMapper()))
			.requestTimeout(requestTimeout)
			.build();
		client.initialize();
		return client;
	}

	private static ToolCallback plainCallback(McpSyncClient client, String toolName) {
		Tool tool = client.listTools()
			.tools()
			.stream()
			.filter((t) -> t.name().equals(toolName))
			.findFirst()
			.orElseThrow();
		return SyncMcpToolCallback.builder().mcpClient(client).tool(tool).build();
	}

	private static ToolCallback find(ToolCallback[] callbacks, String name) {
		for (ToolCallback callback : callbacks) {
			if (callback.getToolDefinition().name().equals(name)) {
				return callback;
			}
		}
		throw new IllegalStateException("no tool " + name);
	}

	static void kill(McpServerSupervisor supervisor) {
		Long pid = supervisor.status().pid();
		if (pid != null) {
			ProcessHandle.of(pid).ifPresent(ProcessHandle::destroyForcibly);
		}
	}

	static CallToolRequest request(String tool, Map<String, Object> arguments) {
		return CallToolRequest.builder(tool).arguments(arguments).build();
	}

	private static void callUntilItSucceeds(McpServerSupervisor supervisor, String tool, Map<String, Object> arguments,
			Duration patience) throws InterruptedException {
		long deadline = System.nanoTime() + patience.toNanos();
		while (System.nanoTime() < deadline) {
			try {
				supervisor.callTool(request(tool, arguments));
				return;
			}
			catch (McpServerUnavailableException ex) {
				Thread.sleep(1);
			}
		}
		throw new IllegalStateException("no recovery within " + patience);
	}

	private static double timeToFailure(CompletableFuture<Object> call, long since) {
		try {
			call.get(60, TimeUnit.SECONDS);
			throw new IllegalStateException("the call was expected to fail");
		}
		catch (Exception ex) {
			return millis(System.nanoTime() - since);
		}
	}

	private static Set<Long> childPids() {
		return ProcessHandle.current()
			.children()
			.map(ProcessHandle::pid)
			.collect(Collectors.toCollection(HashSet::new));
	}

	// The server processes of this JVM: every child is one (the benchmark runs nothing
	// else).
	static long demoProcesses() {
		return ProcessHandle.current().children().count();
	}

	private static long usedHeap() {
		Runtime runtime = Runtime.getRuntime();
		return runtime.totalMemory() - runtime.freeMemory();
	}

	static double millis(long nanos) {
		return nanos / 1e6;
	}

	/** How long and how much. */
	record Options(int kills, int calls, Duration chaos, int scale) {

		static Options parse(String[] args) {
			int kills = 30;
			int calls = 2000;
			long chaos = 120;
			int scale = 50;
			for (String arg : String.join(" ", args).trim().split("[\\s,]+")) {
				if (arg.isBlank()) {
					continue;
				}
				String[] pair = arg.replaceFirst("^--", "").split("=", 2);
				int value = Integer.parseInt(pair[1]);
				switch (pair[0]) {
					case "kills" -> {
						kills = value;
					}
					case "calls" -> {
						calls = value;
					}
					case "chaos" -> {
						chaos = value;
					}
					case "scale" -> {
						scale = value;
					}
					default -> throw new IllegalArgumentException(
							"unknown option " + arg + "; options: --kills=N --calls=N --chaos=SECONDS --scale=N");
				}
			}
			return new Options(kills, calls, Duration.ofSeconds(chaos), scale);
		}

	}

	/** The chaos scenario's callers, killer and process monitor. */
	private static final class Chaos {

		final McpServerSupervisor supervisor;

		final Duration duration;

		final AtomicLong safeCalls = new AtomicLong();

		final AtomicLong safeSucceeded = new AtomicLong();

		final AtomicLong unsafeCalls = new AtomicLong();

		final AtomicLong unsafeSucceeded = new AtomicLong();

		final AtomicLong unsafeFailedFast = new AtomicLong();

		final AtomicLong otherFailures = new AtomicLong();

		final AtomicLong maxLive = new AtomicLong();

		int kills;

		Chaos(McpServerSupervisor supervisor, Duration duration) {
			this.supervisor = supervisor;
			this.duration = duration;
		}

		void run() throws Exception {
			long end = System.nanoTime() + this.duration.toNanos();
			List<Thread> threads = new ArrayList<>();
			for (int i = 0; i < 8; i++) {
				boolean safe = i % 2 == 0;
				threads.add(started(() -> call(safe, end)));
			}
			Thread monitor = started(() -> {
				while (System.nanoTime() < end) {
					this.maxLive.accumulateAndGet(demoProcesses(), Math::max);
					try {
						Thread.sleep(2);
					}
					catch (InterruptedException ex) {
						return;
					}
				}
			});
			while (System.nanoTime() < end - TimeUnit.SECONDS.toNanos(2)) {
				Thread.sleep(ThreadLocalRandom.current().nextLong(2000, 5001));
				if (System.nanoTime() < end) {
					kill(this.supervisor);
					this.kills++;
				}
			}
			for (Thread thread : threads) {
				thread.join();
			}
			monitor.join();
		}

		private static Thread started(Runnable task) {
			Thread thread = new Thread(task, "benchmark-chaos");
			thread.start();
			return thread;
		}

		private void call(boolean safe, long end) {
			while (System.nanoTime() < end) {
				(safe ? this.safeCalls : this.unsafeCalls).incrementAndGet();
				try {
					if (safe) {
						this.supervisor.callTool(request("slow", Map.of("millis", 20)));
						this.safeSucceeded.incrementAndGet();
					}
					else {
						this.supervisor.callTool(request("slow-write", Map.of("millis", 20)));
						this.unsafeSucceeded.incrementAndGet();
					}
				}
				catch (McpServerUnavailableException ex) {
					(safe ? this.otherFailures : this.unsafeFailedFast).incrementAndGet();
				}
				catch (RuntimeException ex) {
					this.otherFailures.incrementAndGet();
				}
			}
		}

	}

	/**
	 * Scenarios 1 and 3: detection of a SIGKILL, and kill to first successful call next
	 * to a cold start.
	 */
	private final class DetectionAndRecovery {

		private static final Duration DELAY = Duration.ofMillis(100);

		private final String label;

		private final StdioServerDefinition definition;

		private final int kills;

		private double coldStart;

		DetectionAndRecovery(String label, StdioServerDefinition definition, int kills) {
			this.label = label;
			this.definition = definition;
			this.kills = kills;
		}

		double coldStartMillis() {
			return this.coldStart;
		}

		void run() throws Exception {
			List<Double> cold = new ArrayList<>();
			for (int i = 0; i < 5; i++) {
				McpServerSupervisor fresh = supervisor(this.definition, reconnect(), CallPolicy.defaults(),
						SupervisorListener.NONE);
				long started = System.nanoTime();
				fresh.start().join();
				cold.add(millis(System.nanoTime() - started));
				fresh.stop().get(30, TimeUnit.SECONDS);
			}
			this.coldStart = Stats.median(cold);
			long[] lostAt = new long[1];
			McpServerSupervisor supervisor = supervisor(this.definition, reconnect(), CallPolicy.defaults(),
					new SupervisorListener() {
						@Override
						public void stateChanged(McpServerStateChange change) {
							if (change.from() == McpServerState.UP) {
								lostAt[0] = System.nanoTime();
							}
						}
					});
			supervisor.start().join();
			List<Double> detection = new ArrayList<>();
			List<Double> mttr = new ArrayList<>();
			for (int i = 0; i < this.kills; i++) {
				Thread.sleep(1100); // past the stability window: every kill opens a fresh
									// outage
				lostAt[0] = 0;
				long killedAt = System.nanoTime();
				kill(supervisor);
				callUntilItSucceeds(supervisor, "echo", Map.of("message", "x"), Duration.ofSeconds(60));
				mttr.add(millis(System.nanoTime() - killedAt));
				detection.add((lostAt[0] - killedAt) / 1e6);
			}
			supervisor.stop().get(30, TimeUnit.SECONDS);
			String prefix = this.label + "_";
			McpSupervisorBenchmark.this.results.put(prefix + "cold_start_ms_p50", Stats.round(this.coldStart));
			McpSupervisorBenchmark.this.results.put(prefix + "detection_ms_p50", Stats.round(Stats.median(detection)));
			McpSupervisorBenchmark.this.results.put(prefix + "detection_ms_p99",
					Stats.round(Stats.percentile(detection, 99)));
			McpSupervisorBenchmark.this.results.put(prefix + "mttr_ms_p50", Stats.round(Stats.median(mttr)));
			McpSupervisorBenchmark.this.results.put(prefix + "mttr_ms_p99", Stats.round(Stats.percentile(mttr, 99)));
			McpSupervisorBenchmark.this.results.put(prefix + "reconnect_delay_ms", DELAY.toMillis());
			McpSupervisorBenchmark.this.results.put(prefix + "mttr_minus_delay_over_cold_start",
					Stats.round((Stats.median(mttr) - DELAY.toMillis()) / this.coldStart));
			McpSupervisorBenchmark.this.results.put(prefix + "kills", this.kills);
		}

		private ReconnectPolicy reconnect() {
			return new ReconnectPolicy(true, DELAY, Duration.ofSeconds(1), 10, 0);
		}

	}

}
