package io.github.mcpsupervisor.e2e;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import brave.handler.MutableSpan;
import brave.handler.SpanHandler;
import brave.propagation.TraceContext;
import io.github.mcpsupervisor.autoconfigure.McpSupervisorAutoConfiguration;
import io.github.mcpsupervisor.autoconfigure.observation.McpObservationAutoConfiguration;
import io.micrometer.observation.ObservationRegistry;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import org.springframework.ai.chat.client.ChatClient;
import org.springframework.ai.model.tool.ToolCallingManager;
import org.springframework.ai.model.tool.autoconfigure.ToolCallingAutoConfiguration;
import org.springframework.ai.tool.ToolCallbackProvider;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.micrometer.observation.autoconfigure.ObservationAutoConfiguration;
import org.springframework.boot.micrometer.tracing.autoconfigure.MicrometerTracingAutoConfiguration;
import org.springframework.boot.micrometer.tracing.brave.autoconfigure.BraveAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A tool the model calls through a real ChatClient, traced by Boot's Brave tracing: the
 * MCP request's span is a child of Spring AI's tool call span, and a real server receives
 * the span's trace context in the call's {@code _meta}.
 */
class McpObservationIT {

	private final SpanHandler spans = new RecordingSpanHandler();

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withConfiguration(
				AutoConfigurations.of(McpSupervisorAutoConfiguration.class, McpObservationAutoConfiguration.class,
						ToolCallingAutoConfiguration.class, ObservationAutoConfiguration.class,
						MicrometerTracingAutoConfiguration.class, BraveAutoConfiguration.class))
		.withBean(SpanHandler.class, () -> this.spans)
		.withPropertyValues("management.tracing.sampling.probability=1.0")
		.withPropertyValues(metaServerProperties("m"));

	@AfterEach
	void noChildIsLeftAfterTheContextCloses() {
		await().atMost(Duration.ofSeconds(30)).until(() -> ProcessHandle.current().children().findAny().isEmpty());
	}

	@Test
	void theRequestIsAChildOfSpringAisToolCallAndTheServerReceivesItsTraceContext() {
		this.contextRunner.run((context) -> {
			ChatClient chatClient = ChatClient
				.builder(
						new ScriptedChatModel(context.getBean(ToolCallingManager.class),
								ScriptedChatModel.toolCall("m_meta", "{}")),
						context.getBean(ObservationRegistry.class), null, null)
				.defaultTools(context.getBean(ToolCallbackProvider.class))
				.build();
			String answer = chatClient.prompt("meta?").call().content();
			MutableSpan request = span("tools/call meta");
			MutableSpan toolCall = spans().stream()
				.filter((span) -> span.id().equals(request.parentId()))
				.findFirst()
				.orElseThrow(() -> new AssertionError("no parent of " + request + " in " + spans()));
			assertThat(toolCall.tags()).containsEntry("spring.ai.tool.definition.name", "m_meta");
			assertThat(request.traceId()).isEqualTo(toolCall.traceId());
			assertThat(request.kind()).isEqualTo(brave.Span.Kind.CLIENT);
			assertThat(request.tags()).containsEntry("mcp.method.name", "tools/call")
				.containsEntry("gen_ai.tool.name", "meta")
				.containsEntry("mcp.supervisor.server", "m")
				.containsEntry("mcp.supervisor.outcome", "success")
				.containsEntry("mcp.supervisor.generation", "1");
			// what the server received, as it answered it
			assertThat(answer).contains("traceparent").contains("00-" + request.traceId() + "-" + request.id() + "-01");
		});
	}

	@Test
	void withPropagationOffTheServerReceivesNoTraceContextButTheRequestIsTraced() {
		this.contextRunner.withPropertyValues("management.observations.mcp.propagate-trace-context=false")
			.run((context) -> {
				ChatClient chatClient = ChatClient
					.builder(
							new ScriptedChatModel(context.getBean(ToolCallingManager.class),
									ScriptedChatModel.toolCall("m_meta", "{}")),
							context.getBean(ObservationRegistry.class), null, null)
					.defaultTools(context.getBean(ToolCallbackProvider.class))
					.build();
				assertThat(chatClient.prompt("meta?").call().content()).doesNotContain("traceparent");
				assertThat(span("tools/call meta").parentId()).isNotNull();
			});
	}

	private MutableSpan span(String name) {
		return spans().stream()
			.filter((span) -> name.equals(span.name()))
			.findFirst()
			.orElseThrow(() -> new AssertionError("no span " + name + " in " + spans()));
	}

	private List<MutableSpan> spans() {
		return ((RecordingSpanHandler) this.spans).spans;
	}

	// A ListingMcpServer in mode meta as mcp.servers.<name>.
	private static String[] metaServerProperties(String name) {
		String prefix = "mcp.servers." + name + ".";
		List<String> args = TestServers.javaServerArgs(ListingMcpServer.class, "meta");
		List<String> properties = new ArrayList<>();
		properties.add(prefix + "command=" + TestServers.java());
		for (int i = 0; i < args.size(); i++) {
			properties.add(prefix + "args[" + i + "]=" + args.get(i));
		}
		properties.add(prefix + "termination-grace-period=1s");
		properties.add(prefix + "protocol=2025-11-25");
		return properties.toArray(String[]::new);
	}

	private static final class RecordingSpanHandler extends SpanHandler {

		private final List<MutableSpan> spans = new CopyOnWriteArrayList<>();

		@Override
		public boolean end(TraceContext context, MutableSpan span, Cause cause) {
			this.spans.add(span);
			return true;
		}

	}

}
