package io.github.mcpsupervisor.benchmark;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.logging.Level;
import java.util.logging.Logger;
import java.util.stream.Collectors;

import io.github.mcpsupervisor.connector.McpConnectors;
import io.github.mcpsupervisor.connector.McpConnectors.Protocol;
import io.github.mcpsupervisor.metrics.internal.McpSupervisorMetrics;
import io.github.mcpsupervisor.supervisor.CallPolicy;
import io.github.mcpsupervisor.supervisor.HealthCheckPolicy;
import io.github.mcpsupervisor.supervisor.McpConnector;
import io.github.mcpsupervisor.supervisor.McpServerSupervisor;
import io.github.mcpsupervisor.supervisor.McpStandbyStatus;
import io.github.mcpsupervisor.supervisor.McpSupervisors;
import io.github.mcpsupervisor.supervisor.McpSupervisors.SupervisedServer;
import io.github.mcpsupervisor.supervisor.ReconnectPolicy;
import io.github.mcpsupervisor.supervisor.SupervisorListener;
import io.github.mcpsupervisor.supervisor.ThreadPoolSupervisorScheduler;
import io.github.mcpsupervisor.tool.McpSupervisorToolCallbackProvider;
import io.github.mcpsupervisor.transport.StdioServerDefinition;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.spec.McpSchema.CallToolRequest;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;

import org.springframework.ai.tool.ToolCallback;

/**
 * Runs every benchmark scenario against real server processes and prints one
 * {@code name=value} line per figure, then a table. Options: see {@link Options}.
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
		scenario("recovery", () -> {
			DetectionAndRecovery demo = new DetectionAndRecovery("demo", BenchmarkServers.demo("demo", Map.of()),
					this.options.kills(), this::supervisor, this.results);
			demo.run();
			DetectionAndRecovery everything = new DetectionAndRecovery("everything", BenchmarkServers.everything(),
					this.options.kills(), this::supervisor, this.results);
			everything.run();
			Charts.mttr(demo.mttrMillis(), everything.mttrMillis());
		});
		scenario("standby", () -> {
			new StandbyRecovery("demo", BenchmarkServers.demo("demo", Map.of()), this.options.kills(),
					this::standbySupervisor, this.results)
				.run();
			new StandbyRecovery("everything", BenchmarkServers.everything(), this.options.kills(),
					this::standbySupervisor, this.results)
				.run();
			Thread.sleep(500);
			this.results.put("standby_processes_left_after_shutdown", BenchmarkServers.demoProcesses());
		});
		scenario("inflight", this::inFlight);
		scenario("overhead", this::overhead);
		scenario("chaos", this::chaos);
		scenario("http", () -> new HttpRecovery(this.options.httpKills(), this.scheduler, this.results).run());
		scenario("modern", this::modern);
		scenario("fleet", () -> new FleetHerd(this.results).run());
		scenario("idle", () -> new IdleFleet(this.scheduler, this.results).run());
		scenario("scale", this::scale);
		scenario("pool", () -> new FullPool(this.scheduler, this.results).run());
		scenario("authorization", () -> new FleetAuthorization(this.options.authorizationLoad(), this.results).run());
		this.scheduler.close();
	}

	// Runs a scenario if it was asked for, and tells how long it took.
	private void scenario(String name, Scenario scenario) throws Exception {
		if (this.options.runs(name)) {
			long started = System.nanoTime();
			scenario.run();
			this.results.put("scenario_" + name + "_seconds", Stats.round((System.nanoTime() - started) / 1e9));
		}
	}

	/**
	 * Scenario 2: a slow call in flight when the server is killed, ours next to plain
	 * Spring AI.
	 */
	private void inFlight() throws Exception {
		Duration requestTimeout = Duration.ofSeconds(5);
		StdioServerDefinition definition = withRequestTimeout(BenchmarkServers.demo("inflight", Map.of()),
				requestTimeout);
		List<Double> ours = new ArrayList<>();
		List<Double> plain = new ArrayList<>();
		for (int i = 0; i < 3; i++) {
			McpServerSupervisor supervisor = supervisor(definition,
					ReconnectPolicy.builder()
						.initialDelay(Duration.ofMillis(100))
						.maxDelay(Duration.ofSeconds(1))
						.maxAttempts(10)
						.jitter(0)
						.build(),
					CallPolicy.defaults(), SupervisorListener.NONE);
			supervisor.start().join();
			CompletableFuture<Object> call = CompletableFuture.supplyAsync(
					() -> supervisor.callTool(BenchmarkServers.request("slow-write", Map.of("millis", 20000))));
			Thread.sleep(300);
			long killedAt = System.nanoTime();
			BenchmarkServers.kill(supervisor);
			ours.add(timeToFailure(call, killedAt));
			supervisor.stop().get(30, TimeUnit.SECONDS);

			Set<Long> before = childPids();
			McpSyncClient client = PlainSpringAi.client(definition, requestTimeout);
			ToolCallback callback = PlainSpringAi.callback(client, "slow-write");
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
	 * Scenario 4: echo through our callback next to Spring AI's, same JVM, identical
	 * servers, measured by {@link CallOverhead}; then the same callback with metrics on
	 * (a {@link SimpleMeterRegistry} timing every call) next to it with metrics off, on
	 * the same server.
	 */
	private void overhead() throws Exception {
		StdioServerDefinition definition = BenchmarkServers.demo("overhead", Map.of());
		McpServerSupervisor supervisor = supervisor(definition, ReconnectPolicy.defaults(), CallPolicy.defaults(),
				SupervisorListener.NONE);
		supervisor.start().join();
		McpSupervisors supervisors = new McpSupervisors(List
			.of(new SupervisedServer(supervisor, false, false, Duration.ofSeconds(30), Duration.ofSeconds(10))));
		ToolCallback ours = find(new McpSupervisorToolCallbackProvider(supervisors).getToolCallbacks(),
				"overhead_echo");
		ToolCallback metered = find(
				new McpSupervisorToolCallbackProvider(supervisors, new McpSupervisorMetrics(new SimpleMeterRegistry()))
					.getToolCallbacks(),
				"overhead_echo");
		McpSyncClient client = PlainSpringAi.client(definition, Duration.ofSeconds(20));
		ToolCallback plain = PlainSpringAi.callback(client, "echo");
		String input = "{\"message\":\"hello\"}";
		try {
			new CallOverhead(this.options.overheadBatches(), this.results).measure("call_", "plain_spring_ai",
					"calls_per_client", () -> ours.call(input), () -> plain.call(input));
			new CallOverhead(this.options.overheadBatches(), this.results).measure(
					new CallOverhead.Names("call_metrics_on", "call_metrics_off", "call_metrics_on_over_off",
							"call_metrics_batches", "call_metrics_calls_per_client"),
					() -> metered.call(input), () -> ours.call(input));
		}
		finally {
			client.closeGracefully();
			supervisor.stop().get(30, TimeUnit.SECONDS);
		}
	}

	/**
	 * Scenario 5: 8 callers while the server is killed every 2 to 5 s, then the same with
	 * a warm standby, each kill once its spare is ready (at most
	 * {@link Chaos#SPARE_PATIENCE} later).
	 */
	private void chaos() throws Exception {
		McpServerSupervisor supervisor = supervisor(BenchmarkServers.demo("chaos", Map.of()), chaosReconnect(),
				CallPolicy.defaults(), SupervisorListener.NONE);
		chaos("chaos", supervisor, Chaos.Spare.NONE, "chaos", "Chaos: SIGKILL every 2-5 s, 8 callers");
		McpServerSupervisor standby = standbySupervisor(BenchmarkServers.demo("chaos", Map.of()), chaosReconnect(),
				CallPolicy.defaults(), SupervisorListener.NONE);
		chaos("chaos_standby", standby, Chaos.Spare.of(standby), "chaos-standby",
				"Warm standby: SIGKILL every 2-5 s once a spare is ready, 8 callers");
	}

	private static ReconnectPolicy chaosReconnect() {
		return ReconnectPolicy.builder()
			.initialDelay(Duration.ofMillis(100))
			.maxDelay(Duration.ofSeconds(1))
			.maxAttempts(10)
			.jitter(0.1)
			.build();
	}

	private void chaos(String prefix, McpServerSupervisor supervisor, Chaos.Spare spare, String chart, String title)
			throws Exception {
		supervisor.start().join();
		Chaos chaos = new Chaos(supervisor, this.options.chaos(), spare);
		chaos.run();
		Charts.chaos(chaos.timeline, chart, title);
		McpStandbyStatus standby = supervisor.status().standby();
		supervisor.stop().get(30, TimeUnit.SECONDS);
		Thread.sleep(500);
		String p = prefix + "_";
		this.results.put(p + "seconds", this.options.chaos().toSeconds());
		this.results.put(p + "kills", chaos.kills);
		if (standby != null) {
			this.results.put(p + "kills_without_ready_spare", chaos.killsWithoutReadySpare);
			this.results.put(p + "promotions", standby.promotions());
		}
		this.results.put(p + "calls", chaos.safeCalls.get() + chaos.unsafeCalls.get());
		this.results.put(p + "safe_calls", chaos.safeCalls.get());
		this.results.put(p + "safe_succeeded", chaos.safeSucceeded.get());
		this.results.put(p + "unsafe_calls", chaos.unsafeCalls.get());
		this.results.put(p + "unsafe_succeeded", chaos.unsafeSucceeded.get());
		this.results.put(p + "unsafe_failed_fast", chaos.unsafeFailedFast.get());
		// a kill fails at most the unsafe calls in flight (4 callers): more in a second
		// means calls fail fast that were never sent to a dead generation
		this.results.put(p + "unsafe_failed_fast_peak_per_s",
				chaos.timeline.failedFast().stream().mapToDouble(Double::doubleValue).max().orElse(0));
		this.results.put(p + "other_failures", chaos.otherFailures.get());
		this.results.put(p + "succeeded_per_s_p50", Stats.round(Stats.median(chaos.timeline.succeeded())));
		// the second with the fewest successes among those of a kill (from the kill's to
		// the one after the server was whole again), over the median second: 0 when a
		// kill stopped every call for a whole second (the callers' first second, their
		// warm-up, is no kill's)
		this.results.put(p + "dip_fraction", Stats.round(chaos.timeline.dipFraction()));
		List<Double> killDips = chaos.timeline.killDips();
		if (!killDips.isEmpty()) {
			this.results.put(p + "dip_fraction_kill_p50", Stats.round(Stats.median(killDips)));
		}
		this.results.put(p + "spawns", supervisor.status().generation());
		this.results.put(p + "max_live_processes", chaos.maxLive.get());
		this.results.put(p + "max_serving_processes", chaos.maxServing.get());
		this.results.put(p + "processes_left_after_shutdown", BenchmarkServers.demoProcesses());
	}

	/**
	 * Scenarios 1, 3, 4 and 7 for servers of revision 2026-07-28: detection and recovery
	 * of the demo server and the TypeScript SDK v2 server over stdio, the call overhead
	 * over the bare SDK client of each revision, and stateless Streamable HTTP.
	 */
	private void modern() throws Exception {
		DetectionAndRecovery demo = new DetectionAndRecovery("modern_demo", BenchmarkServers.modernDemo("demo"),
				this.options.kills(), this::modernSupervisor, this.results);
		demo.run();
		DetectionAndRecovery typeScript = new DetectionAndRecovery("modern_ts",
				BenchmarkServers.typeScript("ts", false), this.options.kills(), this::modernSupervisor, this.results);
		typeScript.run();
		Map<String, List<Double>> series = new LinkedHashMap<>();
		series.put("demo (JVM, SDK modern server)", demo.mttrMillis());
		series.put("TypeScript SDK v2 (node)", typeScript.mttrMillis());
		Charts.mttr("mttr-2026-07-28", "2026-07-28: kill to first successful call (reconnect delay 100 ms)", series);
		CallOverhead overhead = new CallOverhead(this.options.overheadBatches(), this.results);
		legacyCallOverhead(overhead, "demo_2025", BenchmarkServers.demo("demo", Map.of()));
		modernCallOverhead(overhead, "demo_2026", BenchmarkServers.modernDemo("demo"));
		legacyCallOverhead(overhead, "ts_2025", BenchmarkServers.typeScript("ts", true));
		modernCallOverhead(overhead, "ts_2026", BenchmarkServers.typeScript("ts", false));
		new ModernHttpRecovery(this.options.httpKills(), this.scheduler, this.results).run();
		Thread.sleep(500);
		this.results.put("modern_processes_left_after_shutdown", BenchmarkServers.demoProcesses());
	}

	private void legacyCallOverhead(CallOverhead overhead, String label, StdioServerDefinition definition)
			throws Exception {
		McpServerSupervisor supervisor = supervisor(definition, ReconnectPolicy.defaults(), CallPolicy.defaults(),
				SupervisorListener.NONE);
		supervisor.start().join();
		McpSyncClient client = PlainSpringAi.client(definition, Duration.ofSeconds(20));
		CallToolRequest request = BenchmarkServers.request("echo", Map.of("message", "hello"));
		try {
			overhead.measure(label, () -> succeeded(supervisor.callTool(request)),
					() -> succeeded(client.callTool(request)));
		}
		finally {
			client.closeGracefully();
			supervisor.stop().get(30, TimeUnit.SECONDS);
		}
	}

	private void modernCallOverhead(CallOverhead overhead, String label, StdioServerDefinition definition)
			throws Exception {
		McpServerSupervisor supervisor = modernSupervisor(definition, ReconnectPolicy.defaults(), CallPolicy.defaults(),
				SupervisorListener.NONE);
		supervisor.start().join();
		CallToolRequest request = BenchmarkServers.request("echo", Map.of("message", "hello"));
		Map<String, Object> arguments = Map.of("message", "hello");
		try (BareModernClient client = new BareModernClient(definition, Duration.ofSeconds(20))) {
			overhead.measure(label, () -> succeeded(supervisor.callTool(request)),
					() -> client.call("echo", arguments));
		}
		finally {
			supervisor.stop().get(30, TimeUnit.SECONDS);
		}
	}

	private static void succeeded(CallToolResult result) {
		if (Boolean.TRUE.equals(result.isError())) {
			throw new IllegalStateException("the call failed: " + result);
		}
	}

	// Scenario 6: many servers in one application, next to the floor and Spring AI.
	private void scale() throws Exception {
		for (int count : this.options.fixtureScales()) {
			// a round of 200 takes about 50 s on 2 cores, one of 50 about 12 s: one and
			// two
			// keep the run within 10 min
			int rounds = (count <= 50) ? 2 : 1;
			new Scale("fixture", (i) -> BenchmarkServers.fixture("fixture-" + i), count, rounds, this::supervisor,
					this.results)
				.run();
		}
		int largest = this.options.fixtureScales().stream().mapToInt(Integer::intValue).max().orElse(0);
		if (largest > 0) {
			this.results.put("scale_threads_per_server",
					this.results.get("scale_fixture_" + largest + "_threads_per_server"));
		}
		if (this.options.scale() > 0) {
			new Scale("demo", (i) -> BenchmarkServers.demo("demo-" + i, Map.of()), this.options.scale(), 1,
					this::supervisor, this.results)
				.run();
		}
		Thread.sleep(500);
		this.results.put("processes_left_after_shutdown", BenchmarkServers.demoProcesses());
	}

	private McpServerSupervisor supervisor(StdioServerDefinition definition, ReconnectPolicy reconnect, CallPolicy call,
			SupervisorListener listener) {
		return supervisor(McpConnectors.stdio(definition, this.scheduler, Protocol.V2025_11_25), definition, reconnect,
				call, listener, false);
	}

	private McpServerSupervisor standbySupervisor(StdioServerDefinition definition, ReconnectPolicy reconnect,
			CallPolicy call, SupervisorListener listener) {
		return supervisor(McpConnectors.stdio(definition, this.scheduler, Protocol.V2025_11_25), definition, reconnect,
				call, listener, true);
	}

	private McpServerSupervisor modernSupervisor(StdioServerDefinition definition, ReconnectPolicy reconnect,
			CallPolicy call, SupervisorListener listener) {
		return supervisor(McpConnectors.stdio(definition, this.scheduler, Protocol.V2026_07_28), definition, reconnect,
				call, listener, false);
	}

	private McpServerSupervisor supervisor(McpConnector connector, StdioServerDefinition definition,
			ReconnectPolicy reconnect, CallPolicy call, SupervisorListener listener, boolean standby) {
		return McpServerSupervisor.builder(definition.name(), connector, this.scheduler)
			.reconnect(reconnect)
			.calls(call)
			.healthCheck(HealthCheckPolicy.disabled(Duration.ofSeconds(5)))
			.listener(listener)
			.standby(standby)
			.build();
	}

	private static StdioServerDefinition withRequestTimeout(StdioServerDefinition definition, Duration timeout) {
		return new StdioServerDefinition(definition.name(), definition.command(), definition.args(), definition.env(),
				null, timeout, definition.initializationTimeout(), definition.terminationGracePeriod());
	}

	private static ToolCallback find(ToolCallback[] callbacks, String name) {
		for (ToolCallback callback : callbacks) {
			if (callback.getToolDefinition().name().equals(name)) {
				return callback;
			}
		}
		throw new IllegalStateException("no tool " + name);
	}

	private static double timeToFailure(CompletableFuture<Object> call, long since) {
		try {
			call.get(60, TimeUnit.SECONDS);
			throw new IllegalStateException("the call was expected to fail");
		}
		catch (Exception ex) {
			return BenchmarkServers.millis(System.nanoTime() - since);
		}
	}

	private static Set<Long> childPids() {
		return ProcessHandle.current()
			.children()
			.map(ProcessHandle::pid)
			.collect(Collectors.toCollection(HashSet::new));
	}

	/**
	 * A scenario's body.
	 */
	@FunctionalInterface
	private interface Scenario {

		void run() throws Exception;

	}

}
