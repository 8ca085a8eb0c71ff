package io.github.mcpsupervisor.transport.internal.modern;

import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import java.util.function.UnaryOperator;

import io.github.mcpsupervisor.client.internal.McpClientFactory;
import io.github.mcpsupervisor.client.internal.McpServerSession;
import io.github.mcpsupervisor.client.internal.SamplingGate;
import io.github.mcpsupervisor.client.internal.SamplingLimits;
import io.github.mcpsupervisor.transport.internal.CallTimeouts;
import io.github.mcpsupervisor.transport.internal.ClientSetup;
import io.github.mcpsupervisor.transport.internal.GenerationLife;
import io.github.mcpsupervisor.transport.internal.Revisions;
import io.modelcontextprotocol.json.McpJsonDefaults;
import io.modelcontextprotocol.modern.JsonRpc.JSONRPCMessage;
import io.modelcontextprotocol.modern.JsonRpc.JSONRPCResponse;
import io.modelcontextprotocol.modern.JsonRpc.JSONRPCResponse.JSONRPCError;
import io.modelcontextprotocol.modern.client.transport.McpClientTransport;
import io.modelcontextprotocol.modern.client.transport.McpTransportRequest;
import io.modelcontextprotocol.spec.McpError;
import io.modelcontextprotocol.spec.McpSchema.CallToolRequest;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import io.modelcontextprotocol.spec.McpSchema.LoggingLevel;
import io.modelcontextprotocol.spec.McpSchema.LoggingMessageNotification;
import io.modelcontextprotocol.spec.McpSchema.Tool;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.test.scheduler.VirtualTimeScheduler;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

/**
 * Tests for {@link Revision20260728} over a transport that answers as a scripted
 * 2026-07-28 server.
 */
class Revision20260728Tests {

	private final Map<String, Function<Object, Object>> answers = new HashMap<>();

	private final List<String> methods = new ArrayList<>();

	private final AtomicInteger toolsChanged = new AtomicInteger();

	private final AtomicInteger calls = new AtomicInteger();

	@AfterEach
	void resetTime() {
		VirtualTimeScheduler.reset();
	}

	@Test
	void discoveryAnsweredWithAnErrorIsNotAModernServer() {
		this.answers.put("server/discover", (params) -> new JSONRPCError(-32601, "Method not found"));
		assertThatExceptionOfType(NotModernException.class).isThrownBy(() -> open(connection()))
			.withMessageContaining("-32601")
			.satisfies((ex) -> assertThat(ex.isAnswered()).isTrue());
	}

	@Test
	void discoveryNamingOnlyOtherModernRevisionsIsUnsupportedNamingBothSides() {
		this.answers.put("server/discover", (params) -> discovered(List.of("2027-03-01"), Map.of("tools", Map.of())));
		assertThatExceptionOfType(UnsupportedRevisionException.class).isThrownBy(() -> open(connection()))
			.withMessageContaining("[2027-03-01]")
			.withMessageContaining("[2026-07-28, 2025-11-25]");
	}

	@Test
	void discoveryNamingOnly2025FallsBack() {
		this.answers.put("server/discover", (params) -> discovered(List.of("2025-11-25"), Map.of("tools", Map.of())));
		assertThatExceptionOfType(NotModernException.class).isThrownBy(() -> open(connection()));
	}

	@Test
	void toolsAreListedAsTheServerWroteThemAndUnusableNamesLeftOut() {
		Map<String, Object> schema = Map.of("type", "object", "$defs",
				Map.of("point", Map.of("type", "object", "properties", Map.of("x", Map.of("type", "number")))),
				"properties", Map.of("at", Map.of("$ref", "#/$defs/point")));
		this.answers.put("server/discover", (params) -> discovered(List.of("2026-07-28"), Map.of("tools", Map.of())));
		this.answers.put("tools/list",
				(params) -> listing(List.of(tool("locate", schema), tool("bad\nname", Map.of("type", "object"))),
						null));
		Revision20260728 connection = connection();
		open(connection);
		assertThat(connection.tools()).extracting(Tool::name).containsExactly("locate");
		assertThat(connection.tools().get(0).inputSchema()).isEqualTo(schema);
		assertThat(connection.session().protocolVersion()).isEqualTo(Revisions.V2026_07_28);
	}

	@Test
	void anErrorAnsweredToACallIsAnAnswerWithItsMessageOnOneLine() {
		this.answers.put("server/discover", (params) -> discovered(List.of("2026-07-28"), Map.of("tools", Map.of())));
		this.answers.put("tools/list", (params) -> listing(List.of(tool("echo", Map.of("type", "object"))), null));
		this.answers.put("tools/call", (params) -> new JSONRPCError(-32602, "bad\nargument"));
		Revision20260728 connection = connection();
		open(connection);
		assertThatExceptionOfType(McpError.class)
			.isThrownBy(() -> connection.callTool(CallToolRequest.builder("echo").arguments(Map.of()).build()))
			.satisfies((ex) -> assertThat(ex.getJsonRpcError().code()).isEqualTo(-32602))
			.satisfies((ex) -> assertThat(ex.getJsonRpcError().message()).doesNotContain("\n"));
	}

	@Test
	void aListingWithATtlIsListedAgainWhenItRunsOutAndNoSoonerThanTheMinimum() {
		VirtualTimeScheduler time = VirtualTimeScheduler.getOrSet();
		this.answers.put("server/discover", (params) -> discovered(List.of("2026-07-28"), Map.of("tools", Map.of())));
		this.answers.put("tools/list", (params) -> listing(List.of(tool("echo", Map.of("type", "object"))), 1000L));
		Revision20260728 connection = connection();
		open(connection);
		time.advanceTimeBy(Revision20260728.MIN_RELISTING_INTERVAL.minusMillis(1));
		assertThat(this.toolsChanged).hasValue(0);
		time.advanceTimeBy(Duration.ofMillis(1));
		assertThat(this.toolsChanged).hasValue(1);
		connection.listTools();
		connection.close();
		time.advanceTimeBy(Revision20260728.MIN_RELISTING_INTERVAL.multipliedBy(2));
		assertThat(this.toolsChanged).hasValue(1);
	}

	@Test
	void aListingKeptForeverIsListedAgainAfterADay() {
		VirtualTimeScheduler time = VirtualTimeScheduler.getOrSet();
		this.answers.put("server/discover", (params) -> discovered(List.of("2026-07-28"), Map.of("tools", Map.of())));
		this.answers.put("tools/list",
				(params) -> listing(List.of(tool("echo", Map.of("type", "object"))), 9007199254740991L));
		open(connection());
		time.advanceTimeBy(Revision20260728.MAX_RELISTING_INTERVAL);
		assertThat(this.toolsChanged).hasValue(1);
	}

	@Test
	void aListingWithoutATtlIsNotListedAgainByTime() {
		VirtualTimeScheduler time = VirtualTimeScheduler.getOrSet();
		this.answers.put("server/discover", (params) -> discovered(List.of("2026-07-28"), Map.of("tools", Map.of())));
		this.answers.put("tools/list", (params) -> listing(List.of(tool("echo", Map.of("type", "object"))), null));
		open(connection());
		time.advanceTimeBy(Duration.ofHours(1));
		assertThat(this.toolsChanged).hasValue(0);
	}

	private void open(Revision20260728 connection) {
		connection.connect(new ScriptedTransport());
		connection.open((ex) -> {
		});
	}

	@Test
	void logMessagesOnStdoutAreTakenAndOnlyThoseAskedForReachTheHandlers() {
		List<String> logged = new CopyOnWriteArrayList<>();
		McpClientFactory factory = new McpClientFactory() {

			@Override
			public io.modelcontextprotocol.client.McpAsyncClient create(McpServerSession session,
					io.modelcontextprotocol.spec.McpClientTransport transport, Duration requestTimeout,
					Duration initializationTimeout) {
				return McpClientFactory.standard().create(session, transport, requestTimeout, initializationTimeout);
			}

			@Override
			public void logged(McpServerSession session, LoggingMessageNotification notification) {
				logged.add(notification.level() + " " + notification.data());
			}

		};
		Revision20260728 unasked = connection(setup(factory, new McpServerSession("scripted", List.of()),
				new CallTimeouts(Duration.ofSeconds(5), Map.of())));
		assertThat(unasked.takeLogMessage(log("error", "unasked"))).isTrue();
		Revision20260728 asked = connection(setup(factory,
				new McpServerSession("scripted", List.of(),
						new SamplingGate("scripted", SamplingLimits.DEFAULT, Clock.systemUTC()), LoggingLevel.WARNING),
				new CallTimeouts(Duration.ofSeconds(5), Map.of())));
		assertThat(asked.takeLogMessage(log("info", "below"))).isTrue();
		assertThat(asked.takeLogMessage(log("error", "disk full"))).isTrue();
		assertThat(asked.takeLogMessage(bytes("{\"jsonrpc\":\"2.0\",\"id\":3,\"result\":{\"content\":[{\"type\":"
				+ "\"text\",\"text\":\"notifications/message\"}]}}")))
			.as("an answer that quotes the method is the client's")
			.isFalse();
		assertThat(logged).containsExactly("ERROR disk full");
	}

	private static byte[] log(String level, String data) {
		return bytes("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/message\",\"params\":{\"level\":\"" + level
				+ "\",\"data\":\"" + data + "\"}}\n");
	}

	private static byte[] bytes(String text) {
		return text.getBytes(StandardCharsets.UTF_8);
	}

	private Revision20260728 connection() {
		return connection(setup());
	}

	private Revision20260728 connection(ClientSetup setup) {
		return new Revision20260728(new GenerationLife("scripted", 1, "ended", UnaryOperator.identity()), setup,
				McpJsonDefaults.getMapper());
	}

	private ClientSetup setup() {
		return setup(McpClientFactory.standard(), new McpServerSession("scripted", List.of()),
				new CallTimeouts(Duration.ofSeconds(5), Map.of()));
	}

	private ClientSetup setup(McpClientFactory factory, McpServerSession session, CallTimeouts timeouts) {
		return new ClientSetup(factory, session, this.toolsChanged::incrementAndGet, timeouts, Duration.ofSeconds(5));
	}

	@Test
	void aToolCallHasItsToolsOwnTimeoutInPlaceOfTheRequestTimeout() throws Exception {
		VirtualTimeScheduler time = VirtualTimeScheduler.getOrSet();
		this.answers.put("server/discover", (params) -> discovered(List.of("2026-07-28"), Map.of("tools", Map.of())));
		this.answers.put("tools/list",
				(params) -> listing(
						List.of(tool("run", Map.of("type", "object")), tool("lookup", Map.of("type", "object"))),
						null));
		this.answers.put("tools/call",
				(params) -> String.valueOf(params).contains("run") ? new Later(
						Map.of("content", List.of(Map.of("type", "text", "text", "ran")), "resultType", "complete"),
						Duration.ofSeconds(30)) : new Later(null, null));
		Revision20260728 connection = connection(setup(McpClientFactory.standard(),
				new McpServerSession("scripted", List.of()), new CallTimeouts(Duration.ofSeconds(5),
						Map.of("run", Duration.ofSeconds(60), "lookup", Duration.ofSeconds(1)))));
		open(connection);
		ExecutorService caller = Executors.newSingleThreadExecutor();
		try {
			Future<CallToolResult> run = caller
				.submit(() -> connection.callTool(CallToolRequest.builder("run").arguments(Map.of()).build()));
			await().atMost(Duration.ofSeconds(10)).until(() -> this.calls.get() == 1);
			// six request timeouts: the client's round timer and the wait for the call
			// have the tool's
			time.advanceTimeBy(Duration.ofSeconds(30));
			assertThat(run.get(10, TimeUnit.SECONDS).content().toString()).contains("ran");
			Future<CallToolResult> lookup = caller
				.submit(() -> connection.callTool(CallToolRequest.builder("lookup").arguments(Map.of()).build()));
			await().atMost(Duration.ofSeconds(10)).until(() -> this.calls.get() == 2);
			time.advanceTimeBy(Duration.ofSeconds(1));
			assertThatExceptionOfType(ExecutionException.class).isThrownBy(() -> lookup.get(10, TimeUnit.SECONDS))
				.havingCause()
				.withMessage("MCP server 'scripted': tool 'lookup' timed out after 1000 ms");
		}
		finally {
			caller.shutdownNow();
		}
	}

	private static Map<String, Object> discovered(List<String> versions, Map<String, Object> capabilities) {
		return Map.of("supportedVersions", versions, "capabilities", capabilities, "resultType", "complete");
	}

	private static Map<String, Object> listing(List<Map<String, Object>> tools, @Nullable Long ttlMs) {
		Map<String, Object> result = new HashMap<>(Map.of("tools", tools, "resultType", "complete"));
		if (ttlMs != null) {
			result.put("ttlMs", ttlMs);
		}
		return result;
	}

	private static Map<String, Object> tool(String name, Map<String, Object> inputSchema) {
		return Map.of("name", name, "inputSchema", inputSchema);
	}

	private final class ScriptedTransport implements McpClientTransport {

		@Override
		public Flux<JSONRPCMessage> exchange(McpTransportRequest request) {
			String method = request.message().method();
			Revision20260728Tests.this.methods.add(method);
			Function<Object, Object> answer = Revision20260728Tests.this.answers.get(method);
			if (answer == null) {
				return Flux.just(JSONRPCResponse.error(request.message().id(),
						new JSONRPCError(-32601, "Method not found: " + method)));
			}
			Object answered = answer.apply(request.message().params());
			if ("tools/call".equals(method)) {
				Revision20260728Tests.this.calls.incrementAndGet();
			}
			if (answered instanceof Later later) {
				return (later.after() == null) ? Flux.never() : Mono.delay(later.after())
					.thenMany(Flux.just(JSONRPCResponse.result(request.message().id(), later.answer())));
			}
			if (answered instanceof JSONRPCError error) {
				return Flux.just(JSONRPCResponse.error(request.message().id(), error));
			}
			return Flux.just(JSONRPCResponse.result(request.message().id(), answered));
		}

	}

	/** An answer sent after a while, or never. */
	private record Later(@Nullable Object answer, @Nullable Duration after) {

	}

}
