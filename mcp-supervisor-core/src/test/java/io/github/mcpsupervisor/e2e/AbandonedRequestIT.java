package io.github.mcpsupervisor.e2e;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import io.github.mcpsupervisor.client.McpServerClient;
import io.github.mcpsupervisor.client.internal.McpClientFactory;
import io.github.mcpsupervisor.client.internal.McpServerSession;
import io.github.mcpsupervisor.supervisor.CallPolicy;
import io.github.mcpsupervisor.supervisor.HealthCheckPolicy;
import io.github.mcpsupervisor.supervisor.McpConnector;
import io.github.mcpsupervisor.supervisor.McpServerState;
import io.github.mcpsupervisor.supervisor.McpServerSupervisor;
import io.github.mcpsupervisor.supervisor.ReconnectPolicy;
import io.github.mcpsupervisor.supervisor.ThreadPoolSupervisorScheduler;
import io.github.mcpsupervisor.testsupport.CapturedOutput;
import io.github.mcpsupervisor.testsupport.OutputCaptureExtension;
import io.github.mcpsupervisor.transport.StdioServerDefinition;
import io.github.mcpsupervisor.transport.StreamableHttpServerDefinition;
import io.github.mcpsupervisor.transport.internal.http.StreamableHttpConnector;
import io.github.mcpsupervisor.transport.internal.stdio.StdioConnector;
import io.modelcontextprotocol.spec.McpSchema.CallToolRequest;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.slf4j.LoggerFactory;
import tools.jackson.databind.JsonNode;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;
import static org.awaitility.Awaitility.await;

/**
 * A request that its call gave up on (it timed out, or its generation ended) ends with
 * it: the server is sent {@code notifications/cancelled}, over HTTP its exchange is
 * aborted and its connection closed, and the SDK's session forgets it. So do the requests
 * that the supervisor sends on its own: listings, reads and subscriptions.
 */
@ExtendWith(OutputCaptureExtension.class)
@Tag("boot-independent")
class AbandonedRequestIT {

	private static final Log logger = LogFactory.getLog(AbandonedRequestIT.class);

	// the loopback server answers in the test's JVM: half a second is ample
	private static final Duration REQUEST_TIMEOUT = Duration.ofMillis(500);

	// a server's cold JVM answers its first calls slower
	private static final Duration STDIO_REQUEST_TIMEOUT = Duration.ofSeconds(1);

	private static final String TIMED_OUT = "timed out after " + REQUEST_TIMEOUT.toMillis() + " ms";

	private static final int CALLS = 10;

	private static final int ANNOUNCEMENTS = 8;

	private static final String RESOURCE = "test://resource";

	// requests in flight at once in these tests (a call, its listings and reads, their
	// cancellations): at most as many connections stay idle in the pool
	private static final int IDLE_CONNECTIONS = 8;

	// what the SDK's session logs, at its close, for each request it still waits for
	private static final String PENDING_AT_CLOSE = "Abruptly terminating exchange for request";

	private final ThreadPoolSupervisorScheduler scheduler = new ThreadPoolSupervisorScheduler();

	private final List<AutoCloseable> closeables = new ArrayList<>();

	private final Logger sessionLogger = (Logger) LoggerFactory
		.getLogger("io.modelcontextprotocol.spec.McpClientSession");

	private Level sessionLevel;

	private LoopbackMcpHttpServer server;

	private McpServerSupervisor supervisor;

	@BeforeEach
	void logPendingRequests() {
		this.sessionLevel = this.sessionLogger.getLevel();
		this.sessionLogger.setLevel(Level.INFO);
	}

	@AfterEach
	void stop() throws Exception {
		if (this.supervisor != null) {
			this.supervisor.stop().get(30, TimeUnit.SECONDS);
		}
		for (AutoCloseable closeable : this.closeables) {
			closeable.close();
		}
		this.scheduler.close();
		if (this.server != null) {
			this.server.close();
		}
		this.sessionLogger.setLevel(this.sessionLevel);
	}

	@ParameterizedTest(name = "answer headers sent first: {0}")
	@ValueSource(booleans = { false, true })
	void callsToAServerThatNeverAnswersLeaveNoConnectionBehind(boolean afterHeaders) throws Exception {
		startHttp(REQUEST_TIMEOUT);
		this.server.hangCalls(afterHeaders);
		int before = this.server.openConnections();
		for (int i = 0; i < CALLS; i++) {
			assertThat(catchThrowable(() -> call("echo"))).as("call %d to a server that never answers", i).isNotNull();
		}
		assertThat(this.server.hungCallIds()).as("calls the server left unanswered").hasSize(CALLS);
		Object pong = this.supervisor.request("ping", (client) -> client.ping());
		assertThat(pong).as("the server still answers pings").isNotNull();
		await().atMost(TestServers.PATIENCE)
			.untilAsserted(() -> assertThat(this.server.openConnections())
				.as("connections open after %d abandoned calls", CALLS)
				.isLessThanOrEqualTo(2));
		logger.info("Connections to a server that never answers: " + before + " before " + CALLS + " abandoned calls, "
				+ this.server.openConnections() + " after");
		assertThat(this.supervisor.state()).isEqualTo(McpServerState.UP);
		assertThat(this.supervisor.status().generation()).isOne();
	}

	@Test
	void aTimedOutHttpCallIsCancelledAtTheServerAndForgotten(CapturedOutput output) throws Exception {
		startHttp(REQUEST_TIMEOUT);
		this.server.hangCalls(false);
		long started = System.nanoTime();
		catchThrowable(() -> call("echo"));
		long timedOut = started + REQUEST_TIMEOUT.toNanos();
		await().atMost(TestServers.PATIENCE).until(() -> !cancellations().isEmpty());
		LoopbackMcpHttpServer.Notification cancelled = cancellations().get(0);
		logger.info("notifications/cancelled arrived " + TestServers.millis(cancelled.nanoTime() - timedOut)
				+ " ms after the call timed out");
		assertThat(this.server.hungCallIds()).hasSize(1);
		assertThat(cancelled.params().get("requestId")).isEqualTo(this.server.hungCallIds().get(0));
		assertThat(cancelled.params().get("reason").asString()).isEqualTo(TIMED_OUT);
		this.supervisor.stop().get(30, TimeUnit.SECONDS);
		this.supervisor = null;
		assertThat(output).as("requests the SDK still waited for at its close").doesNotContain(PENDING_AT_CLOSE);
	}

	@ParameterizedTest(name = "answer headers sent first: {0}")
	@ValueSource(booleans = { false, true })
	void aCallWhoseGenerationEndsLeavesNoConnectionBehind(boolean afterHeaders) throws Exception {
		// calls wait longer than the test: the generation's end is what ends this one
		startHttp(Duration.ofMinutes(5));
		this.server.hangCalls(afterHeaders);
		int before = this.server.openConnections();
		CompletableFuture<Throwable> pending = CompletableFuture.supplyAsync(() -> catchThrowable(() -> call("echo")));
		await().atMost(TestServers.PATIENCE).until(() -> !this.server.hungCallIds().isEmpty());
		this.supervisor.restart();
		assertThat(pending.get(30, TimeUnit.SECONDS)).isNotNull();
		await().atMost(TestServers.PATIENCE)
			.until(() -> this.supervisor.state() == McpServerState.UP && this.supervisor.status().generation() == 2);
		await().atMost(TestServers.PATIENCE)
			.untilAsserted(() -> assertThat(this.server.openConnections())
				.as("connections open after the generation of a pending call ended (%d before)", before)
				.isLessThanOrEqualTo(2));
	}

	@Test
	void aTimedOutStdioCallIsCancelledAtTheServerAndForgotten(CapturedOutput output) throws Exception {
		StdioServerDefinition definition = new StdioServerDefinition("recording", TestServers.java(),
				TestServers.javaServerArgs(CancellationRecordingMcpServer.class), Map.of(), null, STDIO_REQUEST_TIMEOUT,
				Duration.ofSeconds(20), Duration.ofSeconds(1));
		start(new StdioConnector(definition, this.scheduler::execute));
		for (int i = 0; i < 3; i++) {
			assertThat(catchThrowable(() -> call("hang"))).isNotNull();
		}
		long timedOut = System.nanoTime();
		String cancellations = TestServers.text(call("cancellations"));
		logger.info("notifications/cancelled of a stdio call received within "
				+ TestServers.millis(System.nanoTime() - timedOut) + " ms after its timeout: " + cancellations);
		assertThat(cancellations.lines()).hasSize(3)
			.allSatisfy((line) -> assertThat(line).contains("\"requestId\":\"")
				.contains("\"reason\":\"timed out after " + STDIO_REQUEST_TIMEOUT.toMillis() + " ms\""));
		assertThat(this.supervisor.status().generation()).isOne();
		this.supervisor.stop().get(30, TimeUnit.SECONDS);
		this.supervisor = null;
		assertThat(output).as("requests the SDK still waited for at its close").doesNotContain(PENDING_AT_CLOSE);
	}

	@Test
	void listingsAndReadsAfterChangeNotificationsThatNeverEndLeaveNoConnectionBehind(CapturedOutput output)
			throws Exception {
		McpServerSession session = new McpServerSession("remote", List.of());
		startHttp(REQUEST_TIMEOUT, session);
		new McpServerClient(this.supervisor, session).subscribe(RESOURCE);
		int before = this.server.openConnections();
		this.server.hang(true, Set.of("tools/list", "resources/list", "prompts/list", "resources/read"));
		this.server.announceChanges(RESOURCE);
		for (int i = 1; i <= ANNOUNCEMENTS; i++) {
			assertThat(TestServers.text(call("echo"))).isEmpty();
			int announced = i;
			// each announcement's listings and read start once those before timed out
			await().atMost(TestServers.PATIENCE)
				.until(() -> hung("resources/list") >= announced && hung("prompts/list") >= announced
						&& hung("resources/read") >= announced && hung("tools/list") >= 1);
		}
		await().atMost(TestServers.PATIENCE).untilAsserted(() -> {
			assertThat(cancelledIds()).as("requests cancelled").containsAll(hungIds());
			assertThat(this.server.openConnections())
				.as("connections open after %d announcements whose listings never ended (%d before)", ANNOUNCEMENTS,
						before)
				.isLessThanOrEqualTo(IDLE_CONNECTIONS);
		});
		logger.info("Connections to a server whose listings never end: " + before + " before " + ANNOUNCEMENTS
				+ " announcements, " + this.server.openConnections() + " after " + this.server.hungRequests().size()
				+ " timed-out listings and reads");
		assertThat(cancellations())
			.allSatisfy((cancelled) -> assertThat(cancelled.params().get("reason").asString()).isEqualTo(TIMED_OUT));
		assertThat(this.supervisor.status().generation()).isOne();
		this.supervisor.stop().get(30, TimeUnit.SECONDS);
		this.supervisor = null;
		assertThat(output).as("requests the SDK still waited for at its close").doesNotContain(PENDING_AT_CLOSE);
	}

	@Test
	void aSubscriptionThatANewGenerationCannotRestoreIsCancelled(CapturedOutput output) throws Exception {
		McpServerSession session = new McpServerSession("remote", List.of());
		startHttp(REQUEST_TIMEOUT, session);
		new McpServerClient(this.supervisor, session).subscribe(RESOURCE);
		this.server.hang(true, Set.of("resources/subscribe"));
		this.supervisor.restart();
		await().atMost(TestServers.PATIENCE)
			.until(() -> this.supervisor.state() == McpServerState.UP && this.supervisor.status().generation() == 2);
		assertThat(hung("resources/subscribe")).isOne();
		await().atMost(TestServers.PATIENCE)
			.untilAsserted(() -> assertThat(cancelledIds()).as("requests cancelled").containsAll(hungIds()));
		this.supervisor.stop().get(30, TimeUnit.SECONDS);
		this.supervisor = null;
		assertThat(output).as("requests the SDK still waited for at its close").doesNotContain(PENDING_AT_CLOSE);
	}

	private long hung(String method) {
		return this.server.hungRequests().stream().filter((request) -> method.equals(request.method())).count();
	}

	private List<JsonNode> hungIds() {
		return this.server.hungRequests().stream().map(LoopbackMcpHttpServer.Hung::id).toList();
	}

	private List<JsonNode> cancelledIds() {
		return cancellations().stream().map((cancelled) -> cancelled.params().get("requestId")).toList();
	}

	private List<LoopbackMcpHttpServer.Notification> cancellations() {
		return this.server.notifications()
			.stream()
			.filter((notification) -> "notifications/cancelled".equals(notification.method()))
			.toList();
	}

	private void startHttp(Duration requestTimeout) throws Exception {
		startHttp(requestTimeout, new McpServerSession("remote", List.of()));
	}

	private void startHttp(Duration requestTimeout, McpServerSession session) throws Exception {
		this.server = new LoopbackMcpHttpServer();
		StreamableHttpServerDefinition definition = new StreamableHttpServerDefinition("remote", this.server.url(null),
				Map.of(), requestTimeout, Duration.ofSeconds(10));
		StreamableHttpConnector connector = new StreamableHttpConnector(definition, McpClientFactory.standard(),
				session);
		this.closeables.add(connector);
		start(connector);
	}

	private void start(McpConnector connector) {
		this.supervisor = McpServerSupervisor.builder("remote", connector, this.scheduler)
			.reconnect(ReconnectPolicy.builder()
				.initialDelay(Duration.ofMillis(50))
				.maxDelay(Duration.ofSeconds(2))
				.maxAttempts(10)
				.jitter(0)
				.build())
			.calls(CallPolicy.builder().waitForRecovery(Duration.ZERO).retry(CallPolicy.Retry.NEVER).build())
			.healthCheck(HealthCheckPolicy.disabled(Duration.ofSeconds(2)))
			.build();
		assertThat(this.supervisor.start().join().state()).isEqualTo(McpServerState.UP);
	}

	private CallToolResult call(String tool) {
		return this.supervisor.callTool(CallToolRequest.builder(tool).arguments(Map.of()).build());
	}

}
