package io.github.mcpsupervisor.e2e;

import java.io.IOException;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import io.github.mcpsupervisor.client.internal.McpClientFactory;
import io.github.mcpsupervisor.client.internal.McpServerSession;
import io.github.mcpsupervisor.supervisor.CallPolicy;
import io.github.mcpsupervisor.supervisor.HealthCheckPolicy;
import io.github.mcpsupervisor.supervisor.McpConnector;
import io.github.mcpsupervisor.supervisor.McpServerState;
import io.github.mcpsupervisor.supervisor.McpServerSupervisor;
import io.github.mcpsupervisor.supervisor.ReconnectPolicy;
import io.github.mcpsupervisor.supervisor.ThreadPoolSupervisorScheduler;
import io.github.mcpsupervisor.transport.StreamableHttpServerDefinition;
import io.github.mcpsupervisor.transport.internal.Revisions;
import io.github.mcpsupervisor.transport.internal.http.StreamableHttpConnector;
import io.modelcontextprotocol.spec.McpSchema.CallToolRequest;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;
import static org.awaitility.Awaitility.await;

/**
 * The HTTP exchange of a call ends with the call, not at the HTTP timeout of its request:
 * calls to a server that accepts them and never answers, bounded by a tool timeout far
 * below the request timeout, leave no connection open once they have failed, in both
 * revisions. The server side follows the connections that carried a tool call (a proxy
 * that sees the client's close); the others, those of the cancellation notice and of the
 * ping that checks the server after a timed-out call, are answered and kept alive in the
 * client's pool, as the JDK keeps every idle connection.
 */
@Tag("boot-independent")
class HttpExchangeLifetimeIT {

	private static final Log logger = LogFactory.getLog(HttpExchangeLifetimeIT.class);

	// the SDK's bound, and each exchange's HTTP timeout a second longer: what a call
	// would leave its connection open for if its exchange outlived it
	private static final Duration REQUEST_TIMEOUT = Duration.ofSeconds(10);

	private static final Duration TOOL_TIMEOUT = Duration.ofMillis(300);

	// far below the request timeout, ample on a loaded machine
	private static final Duration CLOSED_WITHIN = Duration.ofSeconds(2);

	private static final int CALLS = 10;

	private static final String TOOL_CALL = "\"method\":\"tools/call\"";

	private final ThreadPoolSupervisorScheduler scheduler = new ThreadPoolSupervisorScheduler();

	private final List<AutoCloseable> closeables = new ArrayList<>();

	private McpServerSupervisor supervisor;

	private Process modernServer;

	@AfterEach
	void stop() throws Exception {
		if (this.supervisor != null) {
			this.supervisor.stop().get(30, TimeUnit.SECONDS);
		}
		for (AutoCloseable closeable : this.closeables) {
			closeable.close();
		}
		this.scheduler.close();
		if (this.modernServer != null) {
			this.modernServer.destroyForcibly().waitFor(30, TimeUnit.SECONDS);
		}
	}

	@ParameterizedTest(name = "answer headers sent first: {0}")
	@ValueSource(booleans = { false, true })
	void theConnectionOfA2025CallThatTimedOutClosesWithTheCall(boolean afterHeaders) throws Exception {
		LoopbackMcpHttpServer server = new LoopbackMcpHttpServer();
		this.closeables.add(server);
		server.hangCalls(afterHeaders);
		StreamableHttpConnector connector = new StreamableHttpConnector(definition(server.url(null), "echo"),
				McpClientFactory.standard(), new McpServerSession("remote", List.of()));
		this.closeables.add(connector);
		start(connector);
		server.connections().watch(TOOL_CALL);
		List<Long> lived = callsThatTimeOut("echo", server.connections());
		logger.info("2025-11-25, headers first " + afterHeaders + ": connections of " + CALLS
				+ " timed-out calls lived " + lived + " ms after their call failed");
		assertThat(lived).allSatisfy((millis) -> assertThat(millis).isLessThan(CLOSED_WITHIN.toMillis()));
	}

	@Test
	void theConnectionOfA2026CallThatTimedOutClosesWithTheCall() throws Exception {
		ModernContentHttpMcpServer.Started server = ModernContentHttpMcpServer.start("hang-touch");
		this.modernServer = server.process();
		CountingProxy proxy = new CountingProxy(server.port());
		this.closeables.add(proxy);
		// the generation's own requests (its listen stream, discoveries) keep theirs
		proxy.watch(TOOL_CALL);
		StreamableHttpConnector connector = new StreamableHttpConnector(
				definition(URI.create("http://127.0.0.1:" + proxy.port() + "/mcp"), "touch"), Revisions.V2026_07_28);
		this.closeables.add(connector);
		start(connector);
		List<Long> lived = callsThatTimeOut("touch", proxy);
		logger.info("2026-07-28: connections of " + CALLS + " timed-out calls lived " + lived
				+ " ms after their call failed");
		assertThat(lived).allSatisfy((millis) -> assertThat(millis).isLessThan(CLOSED_WITHIN.toMillis()));
	}

	// How long, in ms, the connection of each call stayed open after it failed.
	private List<Long> callsThatTimeOut(String tool, CountingProxy connections) {
		List<Long> lived = new ArrayList<>();
		for (int i = 0; i < CALLS; i++) {
			long started = System.nanoTime();
			Throwable failure = catchThrowable(
					() -> this.supervisor.callTool(CallToolRequest.builder(tool).arguments(Map.of()).build()));
			long failed = System.nanoTime();
			assertThat(failure).as("call %d to a server that never answers", i).isNotNull();
			assertThat(Duration.ofNanos(failed - started)).as("call %d ended by the tool's timeout", i)
				.isLessThan(REQUEST_TIMEOUT);
			assertThat(connections.connectionsCarrying(TOOL_CALL)).as("connections that carried the calls")
				.isEqualTo(i + 1);
			await().atMost(TestServers.PATIENCE)
				.pollInterval(Duration.ofMillis(10))
				.until(() -> connections.openConnectionsCarrying(TOOL_CALL) == 0);
			lived.add(TestServers.millis(System.nanoTime() - failed));
		}
		assertThat(this.supervisor.state()).isEqualTo(McpServerState.UP);
		return lived;
	}

	private static StreamableHttpServerDefinition definition(URI url, String tool) {
		return new StreamableHttpServerDefinition("remote", url, Map.of(), REQUEST_TIMEOUT, Duration.ofSeconds(20),
				Map.of(tool, TOOL_TIMEOUT));
	}

	private void start(McpConnector connector) throws IOException {
		this.supervisor = McpServerSupervisor.builder("remote", connector, this.scheduler)
			.reconnect(ReconnectPolicy.builder().enabled(false).build())
			.calls(CallPolicy.builder().waitForRecovery(Duration.ZERO).retry(CallPolicy.Retry.NEVER).build())
			.healthCheck(HealthCheckPolicy.disabled(Duration.ofSeconds(2)))
			.build();
		assertThat(this.supervisor.start().join().state()).isEqualTo(McpServerState.UP);
	}

}
