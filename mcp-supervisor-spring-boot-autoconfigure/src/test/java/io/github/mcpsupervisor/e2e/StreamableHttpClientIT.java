package io.github.mcpsupervisor.e2e;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

import io.github.mcpsupervisor.autoconfigure.McpSupervisorAutoConfiguration;
import io.github.mcpsupervisor.supervisor.CallPolicy;
import io.github.mcpsupervisor.supervisor.HealthCheckPolicy;
import io.github.mcpsupervisor.supervisor.McpServerState;
import io.github.mcpsupervisor.supervisor.McpServerSupervisor;
import io.github.mcpsupervisor.supervisor.McpSupervisors;
import io.github.mcpsupervisor.supervisor.ReconnectPolicy;
import io.github.mcpsupervisor.supervisor.ThreadPoolSupervisorScheduler;
import io.github.mcpsupervisor.transport.StreamableHttpServerDefinition;
import io.github.mcpsupervisor.transport.internal.http.StreamableHttpConnector;
import io.modelcontextprotocol.spec.McpSchema.CallToolRequest;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;
import static org.awaitility.Awaitility.await;

/**
 * The HTTP side of a Streamable HTTP server's generations, against a loopback server: one
 * JDK HTTP client per server, a malformed answer that is not an outage, and an event
 * stream closed before its result that is resumed, not an outage.
 */
class StreamableHttpClientIT {

	private static final Log logger = LogFactory.getLog(StreamableHttpClientIT.class);

	private static final int RESTARTS = 20;

	private final ThreadPoolSupervisorScheduler scheduler = new ThreadPoolSupervisorScheduler();

	private LoopbackMcpHttpServer server;

	private StreamableHttpConnector connector;

	private McpServerSupervisor supervisor;

	@AfterEach
	void stop() throws Exception {
		if (this.supervisor != null) {
			this.supervisor.stop().get(30, TimeUnit.SECONDS);
		}
		if (this.connector != null) {
			this.connector.close();
		}
		this.scheduler.close();
		if (this.server != null) {
			this.server.close();
		}
	}

	@Test
	void generationsShareOneHttpClientWhoseThreadsEndAfterStop() throws Exception {
		long baseline = selectorThreads();
		start();
		for (int restart = 1; restart <= RESTARTS; restart++) {
			int generation = restart + 1;
			this.supervisor.restart();
			await().atMost(TestServers.PATIENCE)
				.until(() -> this.supervisor.status().generation() == generation
						&& this.supervisor.state() == McpServerState.UP);
		}
		long afterRestarts = selectorThreads();
		logger.info("HTTP client selector threads: " + baseline + " before the server started, " + afterRestarts
				+ " after " + RESTARTS + " reconnects");
		assertThat(afterRestarts - baseline).as("HTTP client selector threads added by %d generations", RESTARTS + 1)
			.isLessThanOrEqualTo(1);
		this.supervisor.stop().get(30, TimeUnit.SECONDS);
		this.connector.close();
		this.connector = null;
		await().atMost(TestServers.PATIENCE).until(() -> {
			System.gc(); // the JDK's client ends its selector thread once it is
							// unreachable
			return selectorThreads() <= baseline;
		});
		await().atMost(TestServers.PATIENCE).until(() -> httpThreads().isEmpty());
	}

	@Test
	void runWithSeveralHttpServersShouldShareOneHttpClientAndReleaseItWhenTheContextCloses() throws Exception {
		this.server = new LoopbackMcpHttpServer();
		Set<Thread> before = selectors();
		new ApplicationContextRunner().withConfiguration(AutoConfigurations.of(McpSupervisorAutoConfiguration.class))
			.withPropertyValues(servers("one", "two", "three"))
			.run((context) -> {
				for (String name : List.of("one", "two", "three")) {
					assertThat(context.getBean(McpSupervisors.class).supervisor(name).state())
						.isEqualTo(McpServerState.UP);
				}
				Set<Thread> started = selectors();
				started.removeAll(before);
				assertThat(started).as("HTTP client selector threads started for three servers").hasSize(1);
				assertThat(httpThreads()).as("threads of the shared HTTP client").isNotEmpty();
			});
		await().atMost(TestServers.PATIENCE)
			.untilAsserted(
					() -> assertThat(httpThreads()).as("threads of the shared HTTP client after the close").isEmpty());
	}

	@Test
	void twentyBusyServersShareAFewCallbackThreads() throws Exception {
		this.server = new LoopbackMcpHttpServer();
		String[] names = IntStream.rangeClosed(1, 20).mapToObj((i) -> "s" + i).toArray(String[]::new);
		new ApplicationContextRunner().withConfiguration(AutoConfigurations.of(McpSupervisorAutoConfiguration.class))
			.withPropertyValues(servers(names))
			.run((context) -> {
				McpSupervisors supervisors = context.getBean(McpSupervisors.class);
				AtomicInteger most = new AtomicInteger();
				AtomicInteger mostSenders = new AtomicInteger();
				ExecutorService callers = Executors.newFixedThreadPool(names.length);
				try {
					List<Future<?>> calls = new ArrayList<>();
					for (String name : names) {
						calls.add(callers.submit(() -> {
							for (int i = 0; i < 20; i++) {
								supervisors.supervisor(name)
									.callTool(CallToolRequest.builder("echo")
										.arguments(Map.of("message", name + i))
										.build());
								most.accumulateAndGet(callbackThreads().size(), Math::max);
								mostSenders.accumulateAndGet(senderThreads().size(), Math::max);
							}
							return null;
						}));
					}
					for (Future<?> call : calls) {
						call.get(60, TimeUnit.SECONDS);
					}
				}
				finally {
					callers.shutdownNow();
				}
				logger.info("HTTP callback threads with " + names.length + " busy servers: at most " + most.get()
						+ ", sender threads at most " + mostSenders.get());
				assertThat(most.get()).as("callback threads of %d busy servers", names.length).isLessThanOrEqualTo(8);
				// one per exchange waiting for its headers, and one still handing on the
				// answer that came with its headers, per caller: they grow with the
				// exchanges in flight, not with anything else
				assertThat(mostSenders.get()).as("sender threads of %d busy servers", names.length)
					.isLessThanOrEqualTo(3 * names.length);
			});
	}

	private String[] servers(String... names) {
		List<String> properties = new ArrayList<>();
		for (String name : names) {
			properties.add("mcp.servers." + name + ".transport=streamable-http");
			properties.add("mcp.servers." + name + ".url=" + this.server.url(null));
		}
		return properties.toArray(String[]::new);
	}

	@Test
	void aMalformedJsonAnswerFailsItsCallOnlyAndTheSessionGoesOn() throws Exception {
		aMalformedAnswerFailsItsCallOnlyAndTheSessionGoesOn(false);
	}

	@Test
	void aMalformedEventStreamAnswerFailsItsCallOnlyAndTheSessionGoesOn() throws Exception {
		aMalformedAnswerFailsItsCallOnlyAndTheSessionGoesOn(true);
	}

	private void aMalformedAnswerFailsItsCallOnlyAndTheSessionGoesOn(boolean eventStream) throws Exception {
		start();
		this.server.answerMalformed(1, eventStream);
		long started = System.nanoTime();
		Throwable malformed = catchThrowable(() -> call("first"));
		long failedAfter = TestServers.millis(System.nanoTime() - started);
		assertThat(TestServers.text(call("second"))).isEqualTo("second");
		assertThat(this.supervisor.status().generation()).as("generation after a malformed answer").isOne();
		assertThat(this.server.initializations()).as("sessions initialized").isOne();
		assertThat(this.supervisor.state()).isEqualTo(McpServerState.UP);
		assertThat(failedAfter).as("ms until the call with a malformed answer failed (request timeout 10 s)")
			.isLessThan(5000);
		assertThat(malformed).hasMessageContaining("MCP server 'remote'")
			.hasMessageContaining("not a valid JSON-RPC message")
			.hasMessageNotContaining("oops");
	}

	@Test
	void aCallWhoseEventStreamClosesBeforeTheResultIsResumedAfterTheRetryInterval() throws Exception {
		start(new LoopbackMcpHttpServer(true));
		Duration retry = Duration.ofMillis(500);
		this.server.interruptNextCall(retry);
		long started = System.nanoTime();
		CallToolResult result = call("resumed");
		long tookMillis = TestServers.millis(System.nanoTime() - started);
		assertThat(TestServers.text(result)).isEqualTo("resumed");
		assertThat(this.server.resumptions()).singleElement().satisfies((resumption) -> {
			logger.info("Interrupted call: resumed " + resumption.millisAfterClose() + " ms after its stream closed ("
					+ "retry " + retry.toMillis() + " ms), result after " + tookMillis + " ms");
			assertThat(resumption.lastEventId()).isEqualTo(this.server.interruptedEventId());
			assertThat(resumption.sessionId()).isEqualTo(this.server.sessionId());
			assertThat(resumption.millisAfterClose()).as("ms from the stream's close to the GET that resumed it")
				.isGreaterThanOrEqualTo(retry.toMillis());
		});
		assertThat(this.supervisor.state()).isEqualTo(McpServerState.UP);
		assertThat(this.supervisor.status().generation()).as("generation after a resumed stream").isOne();
		assertThat(this.server.initializations()).as("sessions initialized").isOne();
		assertThat(TestServers.text(call("after"))).isEqualTo("after");
	}

	private void start() throws Exception {
		start(new LoopbackMcpHttpServer());
	}

	private void start(LoopbackMcpHttpServer server) throws Exception {
		this.server = server;
		StreamableHttpServerDefinition definition = new StreamableHttpServerDefinition("remote", this.server.url(null),
				Map.of(), Duration.ofSeconds(10), Duration.ofSeconds(10));
		this.connector = new StreamableHttpConnector(definition);
		this.supervisor = McpServerSupervisor.builder("remote", this.connector, this.scheduler)
			.reconnect(ReconnectPolicy.builder()
				.initialDelay(Duration.ofMillis(50))
				.maxDelay(Duration.ofSeconds(2))
				.maxAttempts(10)
				.jitter(0)
				.build())
			.calls(CallPolicy.builder().waitForRecovery(Duration.ofSeconds(20)).retry(CallPolicy.Retry.NEVER).build())
			.healthCheck(HealthCheckPolicy.disabled(Duration.ofSeconds(2)))
			.build();
		assertThat(this.supervisor.start().join().state()).isEqualTo(McpServerState.UP);
	}

	private CallToolResult call(String message) {
		return this.supervisor.callTool(CallToolRequest.builder("echo").arguments(Map.of("message", message)).build());
	}

	private static List<String> callbackThreads() {
		return httpThreads().stream().filter((name) -> name.matches("mcp-http-\\d+")).toList();
	}

	private static List<String> senderThreads() {
		return httpThreads().stream().filter((name) -> name.startsWith("mcp-http-send-")).toList();
	}

	private static List<String> httpThreads() {
		return Thread.getAllStackTraces()
			.keySet()
			.stream()
			.filter(Thread::isAlive)
			.map(Thread::getName)
			.filter((name) -> name.startsWith("mcp-http-"))
			.toList();
	}

	private static Set<Thread> selectors() {
		return Thread.getAllStackTraces()
			.keySet()
			.stream()
			.filter((thread) -> thread.isAlive() && thread.getName().startsWith("HttpClient-")
					&& thread.getName().endsWith("-SelectorManager"))
			.collect(Collectors.toCollection(HashSet::new));
	}

	private static long selectorThreads() {
		return Thread.getAllStackTraces()
			.keySet()
			.stream()
			.filter((thread) -> thread.getName().startsWith("HttpClient-")
					&& thread.getName().endsWith("-SelectorManager"))
			.count();
	}

}
