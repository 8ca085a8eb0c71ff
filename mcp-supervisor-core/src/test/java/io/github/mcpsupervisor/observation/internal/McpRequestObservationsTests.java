package io.github.mcpsupervisor.observation.internal;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import brave.Tracing;
import brave.handler.MutableSpan;
import brave.handler.SpanHandler;
import brave.propagation.TraceContext;
import io.github.mcpsupervisor.observation.DefaultMcpRequestObservationConvention;
import io.github.mcpsupervisor.observation.McpRequestObservationContext;
import io.github.mcpsupervisor.supervisor.CallPolicy;
import io.github.mcpsupervisor.supervisor.FakeConnector;
import io.github.mcpsupervisor.supervisor.FakeConnector.FakeConnection;
import io.github.mcpsupervisor.supervisor.McpServerState;
import io.github.mcpsupervisor.supervisor.McpServerSupervisor;
import io.github.mcpsupervisor.supervisor.ReconnectPolicy;
import io.github.mcpsupervisor.supervisor.VirtualScheduler;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationHandler.FirstMatchingCompositeObservationHandler;
import io.micrometer.observation.ObservationRegistry;
import io.micrometer.observation.tck.TestObservationRegistry;
import io.micrometer.observation.tck.TestObservationRegistryAssert;
import io.micrometer.tracing.brave.bridge.BraveBaggageManager;
import io.micrometer.tracing.brave.bridge.BraveCurrentTraceContext;
import io.micrometer.tracing.brave.bridge.BravePropagator;
import io.micrometer.tracing.brave.bridge.BraveTracer;
import io.micrometer.tracing.brave.bridge.W3CPropagation;
import io.micrometer.tracing.handler.DefaultTracingObservationHandler;
import io.micrometer.tracing.handler.PropagatingSenderTracingObservationHandler;
import io.modelcontextprotocol.spec.McpError;
import io.modelcontextprotocol.spec.McpSchema.CallToolRequest;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import io.modelcontextprotocol.spec.McpSchema.JSONRPCResponse.JSONRPCError;
import io.modelcontextprotocol.spec.McpSchema.TextContent;
import io.modelcontextprotocol.spec.McpSchema.Tool;
import io.modelcontextprotocol.spec.McpSchema.ToolAnnotations;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

/**
 * The observation of each request a supervisor routes, on virtual time: its key values,
 * one observation for a retried call, its parent, and the trace context in a tool call's
 * {@code _meta}.
 */
class McpRequestObservationsTests {

	private static final Duration INITIAL = Duration.ofMillis(500);

	private final VirtualScheduler scheduler = new VirtualScheduler();

	private final FakeConnector connector = new FakeConnector();

	private final TestObservationRegistry registry = TestObservationRegistry.create();

	private final List<MutableSpan> spans = new ArrayList<>();

	private Tracing tracing;

	McpRequestObservationsTests() {
		this.connector.serverTools = List.of(Tool.builder("read", Map.of("type", "object"))
			.annotations(ToolAnnotations.builder().readOnlyHint(true).build())
			.build());
	}

	@AfterEach
	void closeTracing() {
		if (this.tracing != null) {
			this.tracing.close();
		}
	}

	@Test
	void aToolCallIsObservedWithItsServerMethodToolGenerationAndOutcome() {
		McpServerSupervisor supervisor = startedSupervisor(observations(this.registry, true));
		call(supervisor, "read", null);
		TestObservationRegistryAssert.assertThat(this.registry)
			.hasNumberOfObservationsWithNameEqualTo("mcp.client.operation", 1)
			.hasObservationWithNameEqualTo("mcp.client.operation")
			.that()
			.hasContextualNameEqualTo("tools/call read")
			.hasLowCardinalityKeyValue("mcp.method.name", "tools/call")
			.hasLowCardinalityKeyValue("gen_ai.tool.name", "read")
			.hasLowCardinalityKeyValue("mcp.supervisor.server", "demo")
			.hasLowCardinalityKeyValue("mcp.supervisor.outcome", "success")
			.hasLowCardinalityKeyValue("mcp.supervisor.retried", "false")
			.hasLowCardinalityKeyValue("error.type", "none")
			.hasHighCardinalityKeyValue("mcp.supervisor.generation", "1")
			.hasBeenStarted()
			.hasBeenStopped();
	}

	@Test
	void anErrorCodeNoSpecificationDefinesIsObservedAsOther() {
		// a server's own codes would make a timer each: one error.type holds them all
		McpServerSupervisor supervisor = startedSupervisor(observations(this.registry, true));
		this.connector.last().onCall = (request) -> {
			throw new McpError(new JSONRPCError(1234, "a code of its own", null));
		};
		assertThatExceptionOfType(McpError.class).isThrownBy(() -> call(supervisor, "read", null));
		TestObservationRegistryAssert.assertThat(this.registry)
			.hasObservationWithNameEqualTo("mcp.client.operation")
			.that()
			.hasLowCardinalityKeyValue("mcp.supervisor.outcome", "error")
			.hasLowCardinalityKeyValue("error.type", "other");
	}

	@Test
	void aServerHasAtMostAHundredToolNamesOfItsOwnAndTheCallsOfItsOtherToolsAreObservedAsOther() {
		// a server chooses its tool names: each distinct one would be a timer of its own
		DefaultMcpRequestObservationConvention convention = new DefaultMcpRequestObservationConvention();
		for (int i = 0; i < 100; i++) {
			assertThat(toolName(convention, "demo", "tool-" + i)).isEqualTo("tool-" + i);
		}
		assertThat(toolName(convention, "demo", "tool-100")).isEqualTo("other");
		assertThat(toolName(convention, "demo", "tool-0")).as("a name it has keeps it").isEqualTo("tool-0");
		assertThat(toolName(convention, "files", "tool-100")).as("another server's own names").isEqualTo("tool-100");
		assertThat(convention
			.getContextualName(new McpRequestObservationContext("demo", "tools/call", "tool-100", null, false)))
			.as("the span keeps the tool's name")
			.isEqualTo("tools/call tool-100");
	}

	private static String toolName(DefaultMcpRequestObservationConvention convention, String server, String tool) {
		McpRequestObservationContext context = new McpRequestObservationContext(server, "tools/call", tool, null,
				false);
		return convention.getLowCardinalityKeyValues(context)
			.stream()
			.filter((keyValue) -> keyValue.getKey().equals("gen_ai.tool.name"))
			.findFirst()
			.orElseThrow()
			.getValue();
	}

	@Test
	void anErrorAnswerIsObservedAsAnErrorWithItsJsonRpcCode() {
		McpServerSupervisor supervisor = startedSupervisor(observations(this.registry, true));
		this.connector.last().onCall = (request) -> {
			throw new McpError(new JSONRPCError(-32602, "bad arguments", null));
		};
		assertThatExceptionOfType(McpError.class).isThrownBy(() -> call(supervisor, "read", null));
		TestObservationRegistryAssert.assertThat(this.registry)
			.hasObservationWithNameEqualTo("mcp.client.operation")
			.that()
			.hasLowCardinalityKeyValue("mcp.supervisor.outcome", "error")
			.hasLowCardinalityKeyValue("error.type", "-32602")
			.assertThatError()
			.isInstanceOf(McpError.class);
	}

	@Test
	void anErrorResultOfAToolIsObservedAsAToolError() {
		McpServerSupervisor supervisor = startedSupervisor(observations(this.registry, true));
		this.connector.last().onCall = (request) -> CallToolResult.builder()
			.content(List.of(TextContent.builder("no").build()))
			.isError(true)
			.build();
		call(supervisor, "read", null);
		TestObservationRegistryAssert.assertThat(this.registry)
			.hasObservationWithNameEqualTo("mcp.client.operation")
			.that()
			.hasLowCardinalityKeyValue("mcp.supervisor.outcome", "error")
			.hasLowCardinalityKeyValue("error.type", "tool_error");
	}

	@Test
	void aCallOfAStoppedServerIsObservedAsUnavailableOnNoGeneration() {
		McpServerSupervisor supervisor = supervisor(observations(this.registry, true));
		assertThatExceptionOfType(RuntimeException.class).isThrownBy(() -> call(supervisor, "read", null));
		TestObservationRegistryAssert.assertThat(this.registry)
			.hasObservationWithNameEqualTo("mcp.client.operation")
			.that()
			.hasLowCardinalityKeyValue("mcp.supervisor.outcome", "unavailable")
			.hasLowCardinalityKeyValue("error.type", "McpServerUnavailableException")
			.hasHighCardinalityKeyValue("mcp.supervisor.generation", "none");
	}

	@Test
	void aCallRetriedOnTheNextGenerationIsOneObservationMarkedRetried() throws Exception {
		McpServerSupervisor supervisor = startedSupervisor(observations(this.registry, true));
		FakeConnection first = this.connector.last();
		first.onCall = (request) -> {
			first.crash(137);
			throw new IllegalStateException("MCP session with server terminated");
		};
		CompletableFuture<CallToolResult> call = CompletableFuture.supplyAsync(() -> call(supervisor, "read", null));
		// the loss is seen, and the next generation started, on virtual time
		await().atMost(Duration.ofSeconds(10)).until(() -> {
			this.scheduler.runReady();
			this.scheduler.advance(INITIAL);
			return call.isDone();
		});
		assertThat(call.get(10, TimeUnit.SECONDS).content().toString()).contains("read from g2");
		TestObservationRegistryAssert.assertThat(this.registry)
			.hasNumberOfObservationsWithNameEqualTo("mcp.client.operation", 1)
			.hasObservationWithNameEqualTo("mcp.client.operation")
			.that()
			.hasLowCardinalityKeyValue("mcp.supervisor.retried", "true")
			.hasLowCardinalityKeyValue("mcp.supervisor.outcome", "success")
			.hasHighCardinalityKeyValue("mcp.supervisor.generation", "2");
	}

	@Test
	void aRequestOtherThanAToolCallIsObservedWithItsMethodAndNoTool() {
		McpServerSupervisor supervisor = startedSupervisor(observations(this.registry, true));
		this.connector.last().onRequest = (method) -> "read";
		assertThat((Object) supervisor.request("resources/read", (client) -> null)).isEqualTo("read");
		TestObservationRegistryAssert.assertThat(this.registry)
			.hasObservationWithNameEqualTo("mcp.client.operation")
			.that()
			.hasContextualNameEqualTo("resources/read")
			.hasLowCardinalityKeyValue("mcp.method.name", "resources/read")
			.hasLowCardinalityKeyValue("gen_ai.tool.name", "none")
			.hasLowCardinalityKeyValue("mcp.supervisor.outcome", "success");
	}

	@Test
	void theObservationIsAChildOfTheCallersCurrentObservation() {
		McpServerSupervisor supervisor = startedSupervisor(observations(this.registry, true));
		Observation parent = Observation.start("spring.ai.tool", this.registry);
		try (Observation.Scope scope = parent.openScope()) {
			call(supervisor, "read", null);
		}
		parent.stop();
		TestObservationRegistryAssert.assertThat(this.registry)
			.hasObservationWithNameEqualTo("mcp.client.operation")
			.that()
			.hasParentObservationEqualTo(parent);
	}

	@Test
	void withoutATracerTheApplicationsMetaIsSentAsItIs() {
		McpServerSupervisor supervisor = startedSupervisor(observations(this.registry, true));
		Map<String, Object> sent = sentMeta(supervisor, Map.of("user", "alice"));
		assertThat(sent).isEqualTo(Map.of("user", "alice"));
		assertThat(sentMeta(supervisor, null)).isNull();
	}

	@Test
	void withATracerAToolCallCarriesItsObservationsTraceContextBesideTheApplicationsMeta() {
		McpServerSupervisor supervisor = startedSupervisor(observations(tracingRegistry(), true));
		Map<String, Object> sent = sentMeta(supervisor, Map.of("user", "alice"));
		assertThat(this.spans).hasSize(1);
		MutableSpan span = this.spans.get(0);
		assertThat(span.name()).isEqualTo("tools/call read");
		assertThat(sent).containsEntry("user", "alice")
			.containsEntry("traceparent", "00-" + span.traceId() + "-" + span.id() + "-01");
	}

	@Test
	void aTraceparentTheApplicationSetIsNeverReplaced() {
		McpServerSupervisor supervisor = startedSupervisor(observations(tracingRegistry(), true));
		String own = "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01";
		assertThat(sentMeta(supervisor, Map.of("traceparent", own))).containsEntry("traceparent", own);
	}

	@Test
	void withPropagationOffNoTraceContextIsSent() {
		McpServerSupervisor supervisor = startedSupervisor(observations(tracingRegistry(), false));
		assertThat(sentMeta(supervisor, Map.of("user", "alice"))).isEqualTo(Map.of("user", "alice"));
		assertThat(this.spans).hasSize(1);
	}

	private Map<String, Object> sentMeta(McpServerSupervisor supervisor, Map<String, Object> meta) {
		AtomicReference<Map<String, Object>> sent = new AtomicReference<>();
		FakeConnection live = this.connector.last();
		live.onCall = (request) -> {
			sent.set(request.meta());
			return CallToolResult.builder().content(List.of(TextContent.builder("ok").build())).build();
		};
		call(supervisor, "read", meta);
		return sent.get();
	}

	private ObservationRegistry tracingRegistry() {
		this.tracing = Tracing.newBuilder()
			.traceId128Bit(true)
			.propagationFactory(new W3CPropagation())
			.addSpanHandler(new SpanHandler() {

				@Override
				public boolean end(TraceContext context, MutableSpan span, Cause cause) {
					McpRequestObservationsTests.this.spans.add(span);
					return true;
				}

			})
			.build();
		BraveTracer tracer = new BraveTracer(this.tracing.tracer(),
				new BraveCurrentTraceContext(this.tracing.currentTraceContext()), new BraveBaggageManager());
		ObservationRegistry tracingRegistry = ObservationRegistry.create();
		tracingRegistry.observationConfig()
			.observationHandler(new FirstMatchingCompositeObservationHandler(
					new PropagatingSenderTracingObservationHandler<>(tracer, new BravePropagator(this.tracing)),
					new DefaultTracingObservationHandler(tracer)));
		return tracingRegistry;
	}

	private static McpRequestObservations observations(ObservationRegistry registry, boolean propagate) {
		return new McpRequestObservations(registry, null, propagate);
	}

	private static CallToolResult call(McpServerSupervisor supervisor, String tool, Map<String, Object> meta) {
		return supervisor.callTool(CallToolRequest.builder(tool).arguments(Map.of()).meta(meta).build());
	}

	private McpServerSupervisor startedSupervisor(McpRequestObservations observations) {
		McpServerSupervisor supervisor = supervisor(observations);
		supervisor.start();
		this.scheduler.runReady();
		assertThat(supervisor.state()).isEqualTo(McpServerState.UP);
		return supervisor;
	}

	private McpServerSupervisor supervisor(McpRequestObservations observations) {
		return McpServerSupervisor.builder("demo", this.connector, this.scheduler)
			.reconnect(ReconnectPolicy.builder().initialDelay(INITIAL).maxAttempts(4).jitter(0).build())
			.calls(CallPolicy.builder().waitForRecovery(Duration.ofSeconds(5)).build())
			.requestObserver(observations)
			.build();
	}

}
