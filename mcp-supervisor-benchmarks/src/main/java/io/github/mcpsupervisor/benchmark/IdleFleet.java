package io.github.mcpsupervisor.benchmark;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import io.github.mcpsupervisor.connector.McpConnectors;
import io.github.mcpsupervisor.connector.McpConnectors.Protocol;
import io.github.mcpsupervisor.supervisor.CallPolicy;
import io.github.mcpsupervisor.supervisor.HealthCheckPolicy;
import io.github.mcpsupervisor.supervisor.McpServerSupervisor;
import io.github.mcpsupervisor.supervisor.McpSupervisors;
import io.github.mcpsupervisor.supervisor.McpSupervisors.SupervisedServer;
import io.github.mcpsupervisor.supervisor.ReconnectPolicy;
import io.github.mcpsupervisor.supervisor.SupervisorScheduler;
import io.github.mcpsupervisor.transport.StdioServerDefinition;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;

/**
 * Many configured servers, few used: {@value #CONFIGURED} stdio servers of which
 * {@value #USED} are called. What the unused ones cost an application: its start-up next
 * to the same application with only the used servers and with none, the server processes
 * and their resident memory once the used servers have answered a call, and what one
 * server's start costs its first call.
 */
final class IdleFleet {

	/** The servers the application configures. */
	static final int CONFIGURED = 50;

	/** The servers it calls. */
	static final int USED = 5;

	/**
	 * Today's behaviour: every server starts with the application and runs until it
	 * stops; a stopped server is started again by {@code start()}.
	 */
	static final Configuration EAGER = new Configuration() {

		@Override
		public String name() {
			return "eager";
		}

		@Override
		public McpServerSupervisor.Builder options(McpServerSupervisor.Builder builder) {
			return builder;
		}

		@Override
		public void putToRest(McpServerSupervisor supervisor) throws Exception {
			Long pid = supervisor.status().pid();
			supervisor.stop().get(30, TimeUnit.SECONDS);
			awaitEnded(pid);
		}

		@Override
		public void wake(McpServerSupervisor supervisor) {
			supervisor.start();
		}

		@Override
		public String firstCallFigure() {
			return "fleet_cold_start_first_call_ms";
		}

	};

	/** The configurations measured, each a leg of its own. */
	static final List<Configuration> CONFIGURATIONS = List.of(EAGER);

	// the start-ups of 0, 5 and 50 servers, interleaved, the median of the rounds
	private static final int ROUNDS = 5;

	private static final Duration PATIENCE = Duration.ofSeconds(60);

	private final SupervisorScheduler scheduler;

	private final Results results;

	IdleFleet(SupervisorScheduler scheduler, Results results) {
		this.scheduler = scheduler;
		this.results = results;
	}

	void run() throws Exception {
		for (Configuration configuration : CONFIGURATIONS) {
			leg(configuration);
		}
		demo();
	}

	private void leg(Configuration configuration) throws Exception {
		// every process counted below is one of this leg's servers
		awaitNoServerProcess();
		String prefix = "fleet_" + configuration.name() + "_";
		List<Double> none = new ArrayList<>();
		List<Double> usedOnly = new ArrayList<>();
		List<Double> all = new ArrayList<>();
		for (int round = 1; round < ROUNDS; round++) {
			none.add(startAndStop(0, configuration));
			usedOnly.add(startAndStop(USED, configuration));
			all.add(startAndStop(CONFIGURED, configuration));
		}
		none.add(startAndStop(0, configuration));
		usedOnly.add(startAndStop(USED, configuration));
		// the last round's fleet stays for the census and the first calls
		McpSupervisors fleet = fleet(CONFIGURED, configuration);
		try {
			all.add(timedStart(fleet, CONFIGURED));
			for (int i = 0; i < USED; i++) {
				echo(fleet.supervisors().get(i));
			}
			ProcessCensus census = ProcessCensus.take();
			this.results.put(prefix + "startup_ms", Stats.round(Stats.median(all)));
			this.results.put(prefix + "used_only_startup_ms", Stats.round(Stats.median(usedOnly)));
			this.results.put(prefix + "no_servers_startup_ms", Stats.round(Stats.median(none)));
			this.results.put(prefix + "processes", census.processes());
			if (census.measured()) {
				this.results.put(prefix + "rss_mb", Stats.round(census.rssMegabytes()));
				this.results.put(prefix + "pss_mb", Stats.round(census.pssMegabytes()));
			}
			List<McpServerSupervisor> used = fleet.supervisors().subList(0, USED);
			this.results.put(configuration.firstCallFigure(),
					Stats.round(Stats.median(firstCalls(used, configuration))));
		}
		finally {
			fleet.stop();
		}
		this.results.put(prefix + "processes_left_after_shutdown", awaitNoServerProcess());
	}

	// One demo server (a JVM): what a server on the JVM holds and costs its first call.
	private void demo() throws Exception {
		awaitNoServerProcess();
		McpServerSupervisor supervisor = supervisor(BenchmarkServers.demo("fleet-demo", Map.of()), EAGER);
		McpSupervisors fleet = new McpSupervisors(List.of(supervised(supervisor)));
		List<Double> firstCalls = new ArrayList<>();
		try {
			timedStart(fleet, 1);
			echo(supervisor);
			ProcessCensus census = ProcessCensus.take();
			if (census.measured()) {
				this.results.put("fleet_demo_rss_mb_per_server", Stats.round(census.rssMegabytes()));
				this.results.put("fleet_demo_pss_mb_per_server", Stats.round(census.pssMegabytes()));
			}
			for (int i = 0; i < 3; i++) {
				firstCalls.addAll(firstCalls(List.of(supervisor), EAGER));
			}
		}
		finally {
			fleet.stop();
		}
		this.results.put("fleet_demo_cold_start_first_call_ms", Stats.round(Stats.median(firstCalls)));
		this.results.put("fleet_demo_processes_left_after_shutdown", awaitNoServerProcess());
	}

	private double startAndStop(int count, Configuration configuration) throws Exception {
		McpSupervisors fleet = fleet(count, configuration);
		try {
			return timedStart(fleet, count);
		}
		finally {
			fleet.stop();
			awaitNoServerProcess();
		}
	}

	// The application's start: McpSupervisors.start() returns once every supervisor has
	// reported its first outcome, as the starter's lifecycle bean does at start-up.
	private static double timedStart(McpSupervisors fleet, int count) {
		long started = System.nanoTime();
		fleet.start();
		double millis = BenchmarkServers.millis(System.nanoTime() - started);
		long listed = fleet.supervisors()
			.stream()
			.filter((supervisor) -> !supervisor.tools().tools().isEmpty())
			.count();
		if (listed != count) {
			throw new IllegalStateException(listed + " of " + count + " servers list their tools after the start");
		}
		return millis;
	}

	// Each server put to rest first (a lazy server's idle timeout then passes once for
	// all), then, one after the other, from the moment it is woken (or, when the call
	// itself starts it, called) to its first call's answer.
	private static List<Double> firstCalls(List<McpServerSupervisor> supervisors, Configuration configuration)
			throws Exception {
		for (McpServerSupervisor supervisor : supervisors) {
			configuration.putToRest(supervisor);
		}
		List<Double> millis = new ArrayList<>();
		for (McpServerSupervisor supervisor : supervisors) {
			long started = System.nanoTime();
			configuration.wake(supervisor);
			echo(supervisor);
			millis.add(BenchmarkServers.millis(System.nanoTime() - started));
		}
		return millis;
	}

	private static void echo(McpServerSupervisor supervisor) {
		CallToolResult result = supervisor.callTool(BenchmarkServers.request("echo", Map.of("message", "hello")));
		if (Boolean.TRUE.equals(result.isError())) {
			throw new IllegalStateException("the call failed: " + result);
		}
	}

	private McpSupervisors fleet(int count, Configuration configuration) {
		List<SupervisedServer> servers = new ArrayList<>();
		for (int i = 0; i < count; i++) {
			servers.add(supervised(supervisor(BenchmarkServers.fixture("fleet-" + i), configuration)));
		}
		return new McpSupervisors(servers);
	}

	private McpServerSupervisor supervisor(StdioServerDefinition definition, Configuration configuration) {
		McpServerSupervisor.Builder builder = McpServerSupervisor
			.builder(definition.name(), McpConnectors.stdio(definition, this.scheduler, Protocol.V2025_11_25),
					this.scheduler)
			.reconnect(ReconnectPolicy.defaults())
			.calls(CallPolicy.defaults())
			.healthCheck(HealthCheckPolicy.disabled(Duration.ofSeconds(5)));
		return configuration.options(builder).build();
	}

	private static SupervisedServer supervised(McpServerSupervisor supervisor) {
		return new SupervisedServer(supervisor, false, false, PATIENCE, Duration.ofSeconds(10));
	}

	private static void awaitEnded(Long pid) throws InterruptedException {
		if (pid == null) {
			return;
		}
		long deadline = System.nanoTime() + PATIENCE.toNanos();
		while (ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false)) {
			if (System.nanoTime() > deadline) {
				throw new IllegalStateException("the server process " + pid + " still runs");
			}
			Thread.sleep(5);
		}
	}

	// Waits until no process of this JVM's trees is left, and tells how many were left
	// when the wait began.
	private static long awaitNoServerProcess() throws InterruptedException {
		long left = ProcessHandle.current().descendants().filter(ProcessHandle::isAlive).count();
		long deadline = System.nanoTime() + PATIENCE.toNanos();
		while (ProcessHandle.current().descendants().anyMatch(ProcessHandle::isAlive)) {
			if (System.nanoTime() > deadline) {
				throw new IllegalStateException(
						ProcessHandle.current().descendants().count() + " server processes still run");
			}
			Thread.sleep(20);
		}
		return left;
	}

	/**
	 * How a leg's servers are configured: the options its supervisors are built with, and
	 * how a used server is put to rest and woken, so that its next call needs a start.
	 */
	interface Configuration {

		/**
		 * Names the leg: its figures are {@code fleet_<name>_*}.
		 * @return the name
		 */
		String name();

		/**
		 * Sets the options of one server's supervisor. The place of the lazy leg:
		 * {@code startOnFirstUse(true)} and {@code idleTimeout(...)}.
		 * @param builder the builder, with the scenario's policies set
		 * @return the builder
		 */
		McpServerSupervisor.Builder options(McpServerSupervisor.Builder builder);

		/**
		 * Brings a used, running server to rest: no process of it runs afterwards.
		 * @param supervisor the server's supervisor
		 * @throws Exception if it does not come to rest
		 */
		void putToRest(McpServerSupervisor supervisor) throws Exception;

		/**
		 * Does what precedes the first call on a server at rest (nothing when the call
		 * starts it).
		 * @param supervisor the server's supervisor
		 */
		void wake(McpServerSupervisor supervisor);

		/**
		 * Names the figure of the first call on a server at rest.
		 * @return the figure's name
		 */
		String firstCallFigure();

	}

	/**
	 * The processes of this JVM's process trees (the benchmark starts no other) and their
	 * resident memory: {@code VmRSS} counts the pages a process shares with others in
	 * each of them, {@code Pss} divides them among the sharers. Linux only.
	 */
	record ProcessCensus(long processes, boolean measured, long rssKilobytes, long pssKilobytes) {

		static ProcessCensus take() {
			List<ProcessHandle> live = ProcessHandle.current().descendants().filter(ProcessHandle::isAlive).toList();
			if (!Files.isReadable(Path.of("/proc/self/status"))) {
				return new ProcessCensus(live.size(), false, 0, 0);
			}
			long rss = 0;
			long pss = 0;
			for (ProcessHandle process : live) {
				rss += kilobytes(Path.of("/proc", String.valueOf(process.pid()), "status"), "VmRSS:");
				pss += kilobytes(Path.of("/proc", String.valueOf(process.pid()), "smaps_rollup"), "Pss:");
			}
			return new ProcessCensus(live.size(), true, rss, pss);
		}

		double rssMegabytes() {
			return this.rssKilobytes / 1024.0;
		}

		double pssMegabytes() {
			return this.pssKilobytes / 1024.0;
		}

		// A "Name: 123 kB" line of a /proc file; 0 once the process has ended.
		private static long kilobytes(Path file, String field) {
			try {
				for (String line : Files.readAllLines(file)) {
					if (line.startsWith(field)) {
						return Long.parseLong(line.substring(field.length()).replace("kB", "").trim());
					}
				}
				return 0;
			}
			catch (IOException ex) {
				return 0;
			}
		}

	}

}
