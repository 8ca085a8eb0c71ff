package io.github.mcpsupervisor.e2e;

import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import com.sun.management.ThreadMXBean;
import io.github.mcpsupervisor.supervisor.HealthCheckPolicy;
import io.github.mcpsupervisor.supervisor.McpServerState;
import io.github.mcpsupervisor.supervisor.McpServerStateChange;
import io.github.mcpsupervisor.supervisor.McpServerStatus;
import io.github.mcpsupervisor.supervisor.McpServerSupervisor;
import io.github.mcpsupervisor.supervisor.McpSupervisors;
import io.github.mcpsupervisor.supervisor.McpSupervisors.SupervisedServer;
import io.github.mcpsupervisor.supervisor.ReconnectPolicy;
import io.github.mcpsupervisor.supervisor.SupervisorListener;
import io.github.mcpsupervisor.supervisor.ThreadPoolSupervisorScheduler;
import io.github.mcpsupervisor.testsupport.CapturedOutput;
import io.github.mcpsupervisor.testsupport.OutputCaptureExtension;
import io.github.mcpsupervisor.tool.McpSupervisorToolCallbackProvider;
import io.github.mcpsupervisor.transport.StdioServerDefinition;
import io.github.mcpsupervisor.transport.internal.stdio.StdioConnector;
import io.modelcontextprotocol.spec.McpError;
import io.modelcontextprotocol.spec.McpSchema.CallToolRequest;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.api.extension.ExtendWith;
import org.slf4j.LoggerFactory;

import org.springframework.ai.tool.ToolCallback;
import org.springframework.ai.tool.execution.ToolExecutionException;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

/**
 * Real servers that misbehave the way third-party servers do by accident: each may cost
 * the application that server, never its memory, threads or other servers.
 */
@ExtendWith(OutputCaptureExtension.class)
@Tag("boot-independent")
class HostileServerIT {

	private static final Log logger = LogFactory.getLog(HostileServerIT.class);

	private static final ReconnectPolicy FAST = ReconnectPolicy.builder()
		.initialDelay(Duration.ofMillis(100))
		.maxDelay(Duration.ofSeconds(5))
		.maxAttempts(5)
		.jitter(0)
		.build();

	private static final long MB = 1024 * 1024;

	private final ThreadPoolSupervisorScheduler scheduler = new ThreadPoolSupervisorScheduler();

	private final List<McpServerStateChange> changes = new CopyOnWriteArrayList<>();

	private final List<Long> helpers = new CopyOnWriteArrayList<>();

	private McpServerSupervisor supervisor;

	@AfterEach
	void stop() throws Exception {
		if (this.supervisor != null) {
			this.supervisor.stop().get(30, TimeUnit.SECONDS);
		}
		// helpers the tests had a server start, should a test fail to see them killed
		this.helpers.forEach((pid) -> ProcessHandle.of(pid).ifPresent(ProcessHandle::destroyForcibly));
		this.scheduler.close();
		await().atMost(TestServers.PATIENCE).until(() -> ProcessHandle.current().descendants().findAny().isEmpty());
	}

	@Test
	void aStderrLineWithoutEndCostsABoundedBufferAndTheServerKeepsWorking(CapturedOutput output) {
		start(TestServers.demo("flood", Map.of()));
		long before = allocatedBy("mcp-stderr-pump");
		assertThat(TestServers.text(call("flood-stderr", Map.of("megabytes", 256))))
			.isEqualTo("wrote 256 MB to stderr");
		await().atMost(TestServers.PATIENCE).until(() -> this.supervisor.status().stderrTail().contains("flood done"));
		long allocated = allocatedBy("mcp-stderr-pump") - before;
		logger.info("a 256 MB stderr line cost its reader " + allocated / MB + " MB of allocations");
		assertThat(allocated).as("bytes allocated by the stderr reader for a 256 MB line").isLessThan(32 * MB);
		assertThat(this.supervisor.status().stderrTail()).anySatisfy((line) -> assertThat(line).startsWith("xxxx"));
		assertThat(output).contains("cut 1 stderr line(s) longer than 8192 bytes so far");
		assertThat(TestServers.text(call("echo", Map.of("message", "still here")))).isEqualTo("still here");
		assertThat(this.supervisor.status().generation()).isOne();
	}

	@Test
	void anEndlessStdoutLineEndsTheGenerationAndTheServerRecovers() {
		start(TestServers.demo("flood", Map.of()));
		CompletableFuture.runAsync(() -> call("flood-stdout", Map.of()));
		McpServerStateChange loss = await().atMost(TestServers.PATIENCE)
			.until(() -> this.changes.stream().filter((change) -> change.from() == McpServerState.UP).findFirst(),
					(found) -> found.isPresent())
			.orElseThrow();
		assertThat(loss.cause()).contains("stdout line longer than 16777216 bytes");
		await().atMost(TestServers.PATIENCE)
			.until(() -> this.supervisor.status().state() == McpServerState.UP
					&& this.supervisor.status().generation() == 2);
		assertThat(TestServers.text(call("echo", Map.of("message", "back")))).isEqualTo("back");
	}

	@Test
	void aHelperStartedAfterTheLastTreeWalkDiesWithItsServer() {
		start(TestServers.demo("browser", Map.of()));
		long helper = Long.parseLong(TestServers.text(call("spawn-helper", Map.of())));
		this.helpers.add(helper);
		assertThat(TestServers.isRunning(helper)).isTrue();
		assertThat(TestServers.text(call("crash", Map.of()))).startsWith("crashing");
		await().atMost(TestServers.PATIENCE)
			.until(() -> this.supervisor.status().state() == McpServerState.UP
					&& this.supervisor.status().generation() == 2);
		await().atMost(Duration.ofSeconds(10)).until(() -> !TestServers.isRunning(helper));
	}

	@Test
	@EnabledOnOs(OS.LINUX)
	void aWrappedServerRecoversWhenTheApplicationIsPid1AndReapsNoOrphans() throws Exception {
		List<String> command = new ArrayList<>(List.of("unshare", "--fork", "--pid", "--mount-proc"));
		command.add(TestServers.java());
		command.addAll(TestServers.javaServerArgs(Pid1Application.class));
		Process application = new ProcessBuilder(command).redirectErrorStream(true).start();
		String output = new String(application.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
		assertThat(application.waitFor(120, TimeUnit.SECONDS)).isTrue();
		logger.info("the application as PID 1: "
				+ output.lines().filter((line) -> line.matches("^(pid|started|state)=.*")).toList());
		assertThat(output).contains("pid=1\n").contains("started=UP").contains("state=UP generation=2");
		assertThat(application.exitValue()).isZero();
	}

	@Test
	void aServerThatStopsReadingItsInputCannotBlockItsTermination() throws Exception {
		start(TestServers.demo("frozen", Map.of()));
		long pid = this.supervisor.status().pid();
		assertThat(TestServers.text(call("freeze", Map.of()))).isEqualTo("frozen");
		// a request larger than the pipe's buffer: its write blocks, holding the stream
		CompletableFuture.runAsync(() -> call("echo", Map.of("message", "x".repeat(1024 * 1024))));
		await().atMost(TestServers.PATIENCE).until(HostileServerIT::isAWriteBlocked);
		long stopping = System.nanoTime();
		this.supervisor.stop().get(30, TimeUnit.SECONDS);
		long took = TestServers.millis(System.nanoTime() - stopping);
		logger.info("a server blocked on its full stdin pipe was stopped in " + took + " ms (grace 1000 ms)");
		assertThat(took).isLessThan(1000 + 2000 + 2000);
		assertThat(TestServers.isRunning(pid)).isFalse();
	}

	@Test
	void aServerThatStopsReadingItsInputDelaysNoOtherServersWrites() throws Exception {
		start(TestServers.demo("frozen", Map.of()));
		McpServerSupervisor other = builder(TestServers.demo("other", Map.of()),
				HealthCheckPolicy.disabled(Duration.ofSeconds(5)))
			.build();
		try {
			assertThat(other.start().join().state()).isEqualTo(McpServerState.UP);
			assertThat(TestServers.text(call("freeze", Map.of()))).isEqualTo("frozen");
			// writes to stdin run on threads shared by all servers: this one blocks one
			CompletableFuture.runAsync(() -> call("echo", Map.of("message", "x".repeat(1024 * 1024))));
			await().atMost(TestServers.PATIENCE).until(HostileServerIT::isAWriteBlocked);
			for (int i = 0; i < 20; i++) {
				CallToolResult answer = other
					.callTool(CallToolRequest.builder("echo").arguments(Map.of("message", "still here " + i)).build());
				assertThat(TestServers.text(answer)).isEqualTo("still here " + i);
			}
		}
		finally {
			other.stop().get(30, TimeUnit.SECONDS);
		}
	}

	@Test
	void aSingleThreadedServerBusyInALongCallIsNotTakenForDead() {
		StdioServerDefinition busy = TestServers.definition("busy", TestServers.java(),
				TestServers.javaServerArgs(SingleThreadedMcpServer.class), Map.of());
		// pings every 500 ms, each unanswered after 200 ms: two in a row, 1.2 s into the
		// call, would end a generation that is only busy
		start(busy,
				HealthCheckPolicy.builder()
					.interval(Duration.ofMillis(500))
					.timeout(Duration.ofMillis(200))
					.failureThreshold(2)
					.build());
		assertThat(TestServers.text(call("busy", Map.of("millis", 2000)))).isEqualTo("done after 2000 ms");
		assertThat(this.supervisor.status().generation()).isOne();
		assertThat(this.changes).noneMatch((change) -> change.from() == McpServerState.UP);
	}

	@Test
	void aSecretOfTheConfigurationThatAServerPrintsIsMaskedInTheDebugLog(CapturedOutput output) {
		Logger processLogger = (Logger) LoggerFactory.getLogger("io.github.mcpsupervisor.stderr");
		Level level = processLogger.getLevel();
		processLogger.setLevel(Level.DEBUG);
		try {
			// $0 of the script is the secret-carrying argument
			String script = "echo \"starting with $0\" >&2; exec " + TestServers.demoShellCommand();
			start(TestServers.definition("chatty", "sh", List.of("-c", script, "--token=SECRET456"), Map.of()));
			await().atMost(TestServers.PATIENCE).until(() -> output.toString().contains("starting with"));
			assertThat(output).contains("starting with --token=").doesNotContain("SECRET456");
		}
		finally {
			processLogger.setLevel(level);
		}
	}

	@Test
	void toolNamesAndErrorsOfAServerCannotForgeLogLinesNorShowItsSecrets(CapturedOutput output) {
		start(TestServers.definition("forging", TestServers.java(),
				TestServers.javaServerArgs(ListingMcpServer.class, "forging"), Map.of("API_TOKEN", "tok-8f3a9c2e71")));
		assertThat(TestServers.text(call("poke", Map.of()))).isEqualTo("poked");
		await().atMost(TestServers.PATIENCE)
			.until(() -> output.toString().contains("re-listing tools after a change notification failed"));
		assertThat(output).contains("tool 'evil\\n2026-12-01 ERROR forged ******' is left out: its name has control")
			.contains("cannot list 2026-12-01 ERROR forged ******")
			.doesNotContain("\n2026-12-01 ERROR forged")
			.doesNotContain("tok-8f3a9c2e71")
			.doesNotContain("x".repeat(64 * 1024));
	}

	@Test
	void aServerWithoutTheToolsCapabilityConnectsWithNoTools() throws Exception {
		McpServerStatus status = supervise(listing("prompts", Duration.ofSeconds(20), "prompts-only"));
		assertThat(status.state()).isEqualTo(McpServerState.UP);
		assertThat(this.supervisor.tools().names()).isEmpty();
	}

	@Test
	void aFloodOfResourceListChangesIsListedTwiceWithinThePageLimit() throws Exception {
		// 1,000 announcements, each of a list whose pages never end: one listing runs,
		// one
		// waits, each stopped at 100 pages
		supervise(listing("flood", Duration.ofSeconds(20), "resources-flood"));
		assertThat(TestServers.text(call("flood", Map.of()))).isEqualTo("flooded");
		await().atMost(TestServers.PATIENCE).until(() -> resourceListings() >= 200);
		await().during(Duration.ofSeconds(1)).atMost(Duration.ofSeconds(5)).until(() -> resourceListings() == 200);
		assertThat(this.supervisor.state()).isEqualTo(McpServerState.UP);
	}

	private int resourceListings() {
		return Integer.parseInt(TestServers.text(call("count", Map.of())));
	}

	@Test
	void linesThatAreNotJsonAreCountedAtWarnWithoutTheirContent(CapturedOutput output) {
		start(TestServers.demo("noisy", Map.of()));
		for (int i = 0; i < 12; i++) {
			assertThat(TestServers.text(call("garbage", Map.of()))).isEqualTo("garbage written");
		}
		assertThat(output).contains("ignored 1 stdout line(s) that are not JSON-RPC so far")
			.contains("ignored 10 stdout line(s) that are not JSON-RPC so far")
			.doesNotContain("ignored 2 stdout line(s)")
			.doesNotContain("ignored 12 stdout line(s)")
			.doesNotContain("this line is not JSON-RPC");
	}

	@Test
	void aToolListThatNeverEndsFailsTheConnectionAtThePageLimit() throws Exception {
		McpServerStatus status = supervise(listing("endless", Duration.ofSeconds(20), "endless"));
		assertThat(status.state()).isNotEqualTo(McpServerState.UP);
		assertThat(status.lastError()).contains("tools/list returned more than 100 pages");
	}

	@Test
	void aToolListWhoseCursorsCycleFailsTheConnection() throws Exception {
		McpServerStatus status = supervise(listing("cycle", Duration.ofSeconds(20), "cycle"));
		assertThat(status.state()).isNotEqualTo(McpServerState.UP);
		assertThat(status.lastError()).contains("tools/list repeated the cursor 'a'");
	}

	@Test
	void aToolListSlowerThanTheRequestTimeoutFailsTheConnection() throws Exception {
		McpServerStatus status = supervise(listing("slow", Duration.ofSeconds(1), "endless", "50"));
		assertThat(status.state()).isNotEqualTo(McpServerState.UP);
		assertThat(status.lastError()).contains("listing the tools took longer than the request timeout (1000 ms)");
	}

	@Test
	void aServerWithMoreToolsThanTheLimitFailsToConnect() throws Exception {
		McpServerStatus status = supervise(listing("many", Duration.ofSeconds(20), "many", "1001", "100"));
		assertThat(status.state()).isNotEqualTo(McpServerState.UP);
		assertThat(status.lastError()).contains("the server listed more than 1000 tools");
	}

	@Test
	void aServerWithAsManyToolsAsTheLimitConnects() throws Exception {
		McpServerStatus status = supervise(listing("many", Duration.ofSeconds(20), "many", "1000", "10"));
		assertThat(status.state()).isEqualTo(McpServerState.UP);
		assertThat(status.tools()).hasSize(1000);
	}

	@Test
	void aToolWhoseDescriptionOrSchemaIsOverItsLimitIsLeftOutWithAWarning(CapturedOutput output) throws Exception {
		McpServerStatus status = supervise(listing("big", Duration.ofSeconds(20), "big-tools", String.valueOf(4 * MB)));
		assertThat(status.state()).isEqualTo(McpServerState.UP);
		assertThat(status.tools()).containsExactly("small");
		assertThat(output).contains("MCP server 'big': tool 'wordy' is left out: its description is 4 MB (limit 16 KB)")
			.contains("MCP server 'big': tool 'schematic' is left out: its input schema is 4 MB (limit 64 KB)")
			.doesNotContain("yyyyyyyy");
	}

	@Test
	void aToolListingLargerThanItsLimitFailsTheConnection() throws Exception {
		McpServerStatus status = supervise(
				listing("fat", Duration.ofSeconds(20), "fat-cursors", String.valueOf(MB), "20"));
		assertThat(status.state()).isNotEqualTo(McpServerState.UP);
		assertThat(status.lastError()).contains("the tool listing is larger than 16 MB (the limit), cursors included");
	}

	@Test
	void aToolChangeNotificationCostsOneListing() {
		start(TestServers.demo("changing", Map.of()));
		long before = listRequests();
		assertThat(TestServers.text(call("add-tool", Map.of("name", "late")))).isEqualTo("added late");
		await().atMost(TestServers.PATIENCE).until(() -> this.supervisor.tools().find("late") != null);
		assertThat(listRequests() - before).as("tools/list requests for one notification").isOne();
	}

	@Test
	void aFloodOfToolChangeNotificationsCostsAFewListingsPerSecond() {
		start(TestServers.demo("notifying", Map.of()));
		long before = listRequests();
		long started = System.nanoTime();
		String sent = TestServers.text(call("notify-flood", Map.of("seconds", 3)));
		long took = TestServers.millis(System.nanoTime() - started);
		long listings = listRequests() - before;
		logger.info("a tools/list_changed flood (" + sent + " in " + took + " ms) cost " + listings
				+ " tools/list requests, " + (listings * 1000 / took) + " per second");
		assertThat(listings).as("tools/list requests during a 3 s flood").isLessThanOrEqualTo(3 * 10 + 5);
		assertThat(this.supervisor.status().generation()).isOne();
		assertThat(TestServers.text(call("echo", Map.of("message", "still here")))).isEqualTo("still here");
	}

	@Test
	void aResultLargerThanTheLimitReachesTheModelTruncatedWithAMarker() {
		start(TestServers.demo("big", Map.of()));
		ToolCallback bigResult = Arrays.stream(callbacks())
			.filter((callback) -> callback.getToolDefinition().name().equals("big_big-result"))
			.findFirst()
			.orElseThrow();
		String result = bigResult.call("{\"megabytes\": 12}");
		assertThat(result).endsWith("…[truncated: 12 MB result, limit 1 MB]");
		assertThat(result.getBytes(StandardCharsets.UTF_8).length).isLessThanOrEqualTo((int) MB + 100);
	}

	@Test
	void aJsonRpcErrorLargerThanTheLimitReachesTheModelAndTheLogsCut(CapturedOutput output) {
		start(listing("erring", Duration.ofSeconds(20), "error", String.valueOf(8 * MB)));
		int logged = output.length();
		ToolCallback fail = callbacks()[0];
		assertThatExceptionOfType(ToolExecutionException.class).isThrownBy(() -> fail.call("{}"))
			.satisfies((ex) -> assertThat(ex.getMessage().getBytes(StandardCharsets.UTF_8).length)
				.as("bytes of the error the model reads")
				.isLessThanOrEqualTo((int) MB + 200))
			.withMessageEndingWith("x…[truncated: 8 MB error message, limit 1 MB]");
		assertThatExceptionOfType(McpError.class).isThrownBy(() -> call("fail", Map.of()))
			.satisfies((ex) -> assertThat(ex.getMessage().getBytes(StandardCharsets.UTF_8).length)
				.as("bytes of the error an application's request gets")
				.isLessThanOrEqualTo((int) MB + 200));
		logger.info("two 8 MiB JSON-RPC errors logged " + (output.length() - logged) + " characters");
		assertThat(output.length() - logged).as("characters logged for two 8 MiB errors").isLessThan((int) (3 * MB));
	}

	private ToolCallback[] callbacks() {
		return new McpSupervisorToolCallbackProvider(new McpSupervisors(List
			.of(new SupervisedServer(this.supervisor, false, false, Duration.ofSeconds(1), Duration.ofSeconds(1)))))
			.getToolCallbacks();
	}

	private long listRequests() {
		return Long.parseLong(TestServers.text(call("list-requests", Map.of())));
	}

	private static StdioServerDefinition listing(String name, Duration requestTimeout, String... args) {
		return new StdioServerDefinition(name, TestServers.java(),
				TestServers.javaServerArgs(ListingMcpServer.class, args), Map.of(), null, requestTimeout,
				Duration.ofSeconds(20), Duration.ofSeconds(1));
	}

	// Supervises the server and returns its status after the first attempt.
	private McpServerStatus supervise(StdioServerDefinition definition) throws Exception {
		this.supervisor = builder(definition, HealthCheckPolicy.disabled(Duration.ofSeconds(5))).build();
		return this.supervisor.start().get(TestServers.PATIENCE.toSeconds(), TimeUnit.SECONDS);
	}

	// Whether a thread is blocked writing a message to a server's stdin.
	private static boolean isAWriteBlocked() {
		return Thread.getAllStackTraces().values().stream().anyMatch((frames) -> {
			List<String> methods = Arrays.stream(frames)
				.map((frame) -> frame.getClassName() + "." + frame.getMethodName())
				.toList();
			return methods.stream().anyMatch((method) -> method.endsWith(".writeBytes"))
					&& methods.contains("io.github.mcpsupervisor.transport.internal.stdio.ProcessStdioTransport.write");
		});
	}

	// Bytes the named live thread has allocated so far.
	private static long allocatedBy(String threadName) {
		Thread thread = Thread.getAllStackTraces()
			.keySet()
			.stream()
			.filter((candidate) -> candidate.getName().equals(threadName))
			.findFirst()
			.orElseThrow(() -> new IllegalStateException("no thread " + threadName));
		return ((ThreadMXBean) ManagementFactory.getThreadMXBean()).getThreadAllocatedBytes(thread.getId());
	}

	private void start(StdioServerDefinition definition) {
		start(definition, HealthCheckPolicy.disabled(Duration.ofSeconds(5)));
	}

	private void start(StdioServerDefinition definition, HealthCheckPolicy healthCheck) {
		this.supervisor = builder(definition, healthCheck).build();
		assertThat(this.supervisor.start().join().state()).isEqualTo(McpServerState.UP);
	}

	private McpServerSupervisor.Builder builder(StdioServerDefinition definition, HealthCheckPolicy healthCheck) {
		return McpServerSupervisor
			.builder(definition.name(), new StdioConnector(definition, this.scheduler::execute), this.scheduler)
			.reconnect(FAST)
			.calls(TestServers.NO_WAIT)
			.healthCheck(healthCheck)
			.listener(new SupervisorListener() {

				@Override
				public void stateChanged(McpServerStateChange change) {
					HostileServerIT.this.changes.add(change);
				}

			});
	}

	private CallToolResult call(String tool, Map<String, Object> arguments) {
		return this.supervisor.callTool(CallToolRequest.builder(tool).arguments(arguments).build());
	}

}
