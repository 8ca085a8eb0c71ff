package io.github.mcpsupervisor.benchmark;

import java.io.IOException;
import java.math.BigDecimal;
import java.math.MathContext;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import io.github.mcpsupervisor.connector.McpConnectors;
import io.github.mcpsupervisor.connector.McpConnectors.Protocol;
import io.github.mcpsupervisor.supervisor.CallPolicy;
import io.github.mcpsupervisor.supervisor.HealthCheckPolicy;
import io.github.mcpsupervisor.supervisor.McpServerState;
import io.github.mcpsupervisor.supervisor.McpServerSupervisor;
import io.github.mcpsupervisor.supervisor.McpSupervisors;
import io.github.mcpsupervisor.supervisor.McpSupervisors.SupervisedServer;
import io.github.mcpsupervisor.supervisor.ReconnectPolicy;
import io.github.mcpsupervisor.supervisor.SupervisorScheduler;
import io.github.mcpsupervisor.supervisor.ToolCatalog;
import io.github.mcpsupervisor.transport.StdioServerDefinition;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;

/**
 * Many configured servers, few used: {@value #CONFIGURED} stdio servers of which
 * {@value #USED} are called. What the unused ones cost an application: its start-up next
 * to the same application with only the used servers and with none, the server processes
 * and their resident memory once the used servers have answered a call, and what one
 * server's start costs its first call. Measured twice: every server started with the
 * application ({@link #EAGER}), and every server started on its first call and stopped
 * when idle ({@link Lazy}).
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
		public McpServerSupervisor.Builder options(McpServerSupervisor.Builder builder,
				StdioServerDefinition definition) {
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

	/**
	 * How long a lazy server may go without a call before it is stopped: longer than the
	 * used servers' first calls one after the other and the census after them, even on a
	 * loaded machine, so that the census finds the 5 running.
	 */
	static final Duration IDLE_TIMEOUT = Duration.ofSeconds(5);

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
		// the runtime directory of the lazy leg's application, kept across its restarts
		Path catalogs = Files.createTempDirectory("mcp-supervisor-catalogs");
		try {
			Lazy lazy = new Lazy(catalogs);
			leg(EAGER);
			leg(lazy);
			this.results.put("fleet_lazy_over_eager_startup", ratio("fleet_lazy_startup_ms", "fleet_eager_startup_ms"));
			this.results.put("fleet_lazy_first_call_over_cold_start",
					ratio(lazy.firstCallFigure(), EAGER.firstCallFigure()));
		}
		finally {
			delete(catalogs);
		}
		demo();
	}

	private void leg(Configuration configuration) throws Exception {
		// every process counted below is one of this leg's servers
		awaitNoServerProcess();
		String prefix = "fleet_" + configuration.name() + "_";
		if (configuration instanceof Lazy lazy) {
			// the application's first run, catalogs empty: the timed rounds are its
			// restarts
			this.results.put(prefix + "first_run_startup_ms", Stats.round(firstRun(lazy)));
		}
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
			this.results.put(prefix + "processes_after_startup", liveProcesses());
			for (int i = 0; i < USED; i++) {
				echo(fleet.supervisors().get(i));
			}
			ProcessCensus census = ProcessCensus.take();
			List<McpServerSupervisor> used = fleet.supervisors().subList(0, USED);
			if (used.stream().anyMatch((supervisor) -> supervisor.state() != McpServerState.UP)) {
				throw new IllegalStateException("a used server was no longer up at the census: " + states(used));
			}
			this.results.put(prefix + "startup_ms", Stats.round(Stats.median(all)));
			this.results.put(prefix + "used_only_startup_ms", Stats.round(Stats.median(usedOnly)));
			this.results.put(prefix + "no_servers_startup_ms", Stats.round(Stats.median(none)));
			this.results.put(prefix + "processes", census.processes());
			if (census.measured()) {
				this.results.put(prefix + "rss_mb", Stats.round(census.rssMegabytes()));
				this.results.put(prefix + "pss_mb", Stats.round(census.pssMegabytes()));
			}
			putToRest(used, configuration);
			if (configuration instanceof Lazy) {
				this.results.put(prefix + "processes_after_idle", liveProcesses());
			}
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
				putToRest(List.of(supervisor), EAGER);
				firstCalls.addAll(firstCalls(List.of(supervisor), EAGER));
			}
		}
		finally {
			fleet.stop();
		}
		this.results.put("fleet_demo_cold_start_first_call_ms", Stats.round(Stats.median(firstCalls)));
		this.results.put("fleet_demo_processes_left_after_shutdown", awaitNoServerProcess());
	}

	// The first start of lazy servers, their catalogs empty: each is started to list its
	// tools and stopped again at once, no call having come.
	private double firstRun(Lazy lazy) throws Exception {
		McpSupervisors fleet = fleet(CONFIGURED, lazy);
		double millis;
		try {
			millis = timedStart(fleet, CONFIGURED);
			awaitNoServerProcess();
			List<McpServerSupervisor> supervisors = fleet.supervisors();
			if (supervisors.stream().anyMatch((supervisor) -> supervisor.state() != McpServerState.IDLE)) {
				throw new IllegalStateException(
						"a server started to list its tools is not idle: " + states(supervisors));
			}
		}
		finally {
			fleet.stop();
		}
		awaitNoServerProcess();
		long kept = lazy.catalogs();
		if (kept != CONFIGURED) {
			throw new IllegalStateException(kept + " of " + CONFIGURED + " servers kept their tools");
		}
		return millis;
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

	// Every server put to rest before any is called again: a lazy server's idle timeout
	// then passes once for all.
	private static void putToRest(List<McpServerSupervisor> supervisors, Configuration configuration) throws Exception {
		for (McpServerSupervisor supervisor : supervisors) {
			configuration.putToRest(supervisor);
		}
	}

	// One after the other, from the moment a server at rest is woken (or, when the call
	// itself starts it, called) to its first call's answer.
	private static List<Double> firstCalls(List<McpServerSupervisor> supervisors, Configuration configuration) {
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
			// a first call waits for the start as long as it takes, a JVM's on a loaded
			// machine included: the figure is its time, not the default wait's verdict
			.calls(CallPolicy.builder().waitForRecovery(PATIENCE).build())
			.healthCheck(HealthCheckPolicy.disabled(Duration.ofSeconds(5)));
		return configuration.options(builder, definition).build();
	}

	private static SupervisedServer supervised(McpServerSupervisor supervisor) {
		return new SupervisedServer(supervisor, false, false, PATIENCE, Duration.ofSeconds(10));
	}

	// Three significant digits: a lazy start-up is a small fraction of an eager one.
	private double ratio(String figure, String over) {
		double ratio = ((Number) this.results.get(figure)).doubleValue()
				/ ((Number) this.results.get(over)).doubleValue();
		return BigDecimal.valueOf(ratio).round(new MathContext(3)).doubleValue();
	}

	private static String states(List<McpServerSupervisor> supervisors) {
		return supervisors.stream()
			.map((supervisor) -> supervisor.name() + "=" + supervisor.state())
			.toList()
			.toString();
	}

	private static long liveProcesses() {
		return ProcessHandle.current().descendants().filter(ProcessHandle::isAlive).count();
	}

	private static void delete(Path directory) throws IOException {
		try (Stream<Path> files = Files.walk(directory)) {
			for (Path file : files.sorted(Comparator.reverseOrder()).toList()) {
				Files.delete(file);
			}
		}
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
		 * Sets the options of one server's supervisor.
		 * @param builder the builder, with the scenario's policies set
		 * @param definition the server's definition
		 * @return the builder
		 */
		McpServerSupervisor.Builder options(McpServerSupervisor.Builder builder, StdioServerDefinition definition);

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
	 * Every server started on its first call, its tools listed from the catalog of its
	 * last run without a process, and stopped after {@link #IDLE_TIMEOUT} without a call.
	 * Its catalogs are kept in one directory, as in the application's runtime directory,
	 * each with the server's command line as the fingerprint of its configuration.
	 *
	 * @param directory where the catalogs are kept
	 */
	record Lazy(Path directory) implements Configuration {

		@Override
		public String name() {
			return "lazy";
		}

		@Override
		public McpServerSupervisor.Builder options(McpServerSupervisor.Builder builder,
				StdioServerDefinition definition) {
			List<String> commandLine = new ArrayList<>();
			commandLine.add(definition.command());
			commandLine.addAll(definition.args());
			return builder
				.startOnFirstUse(ToolCatalog.in(this.directory, definition.name(), String.join(" ", commandLine)))
				.idleTimeout(IDLE_TIMEOUT);
		}

		// Waits for the idle timeout to stop the server, its process gone.
		@Override
		public void putToRest(McpServerSupervisor supervisor) throws Exception {
			Long pid = supervisor.status().pid();
			long deadline = System.nanoTime() + IDLE_TIMEOUT.plus(PATIENCE).toNanos();
			while (supervisor.state() != McpServerState.IDLE) {
				if (System.nanoTime() > deadline) {
					throw new IllegalStateException("the server " + supervisor.name() + " is still "
							+ supervisor.state() + " " + IDLE_TIMEOUT.plus(PATIENCE) + " after its last call");
				}
				Thread.sleep(5);
			}
			awaitEnded(pid);
		}

		// The call starts the server.
		@Override
		public void wake(McpServerSupervisor supervisor) {
		}

		@Override
		public String firstCallFigure() {
			return "fleet_lazy_first_call_ms";
		}

		long catalogs() throws IOException {
			try (Stream<Path> files = Files.list(this.directory)) {
				return files.filter((file) -> file.getFileName().toString().endsWith(".json")).count();
			}
		}

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
