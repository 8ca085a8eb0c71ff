package io.github.mcpsupervisor.transport.internal.modern;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicReference;

import io.modelcontextprotocol.json.McpJsonDefaults;
import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.json.TypeRef;
import io.modelcontextprotocol.modern.JsonRpc.JSONRPCMessage;
import io.modelcontextprotocol.modern.JsonRpc.JSONRPCNotification;
import io.modelcontextprotocol.modern.JsonRpc.JSONRPCRequest;
import io.modelcontextprotocol.modern.JsonRpc.JSONRPCResponse;
import io.modelcontextprotocol.modern.client.transport.McpClientTransport;
import io.modelcontextprotocol.modern.client.transport.McpTransportRequest;
import io.modelcontextprotocol.spec.McpSchema.LoggingLevel;
import io.modelcontextprotocol.spec.McpSchema.LoggingMessageNotification;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Flux;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link RequestEnvelope}.
 */
class RequestEnvelopeTests {

	private static final TypeRef<Map<String, Object>> MAP = new TypeRef<>() {
	};

	private final McpJsonMapper jsonMapper = McpJsonDefaults.getMapper();

	private final AtomicReference<McpTransportRequest> sent = new AtomicReference<>();

	private final List<LoggingMessageNotification> logged = new CopyOnWriteArrayList<>();

	private final McpClientTransport server = (request) -> {
		this.sent.set(request);
		return Flux.just(
				new JSONRPCNotification("2.0", "notifications/message",
						Map.of("level", "warning", "data", "disk almost full", "logger", "fs")),
				new JSONRPCNotification("2.0", "notifications/progress", Map.of("progressToken", 1, "progress", 1)),
				new JSONRPCResponse("2.0", request.message().id(), Map.of(), null));
	};

	@Test
	void everyRequestDeclaresTheAddedCapabilitiesAndTheLogLevelBesidesWhatItHad() {
		RequestEnvelope envelope = new RequestEnvelope(this.server, this.jsonMapper, () -> Map.of("sampling", Map.of()),
				"info", this.logged::add);
		List<JSONRPCMessage> received = envelope.exchange(request()).collectList().block(Duration.ofSeconds(5));
		Map<String, Object> params = this.jsonMapper.convertValue(this.sent.get().message().params(), MAP);
		assertThat(params).containsEntry("name", "echo").containsEntry("arguments", Map.of("message", "hi"));
		assertThat(params.get("_meta")).isEqualTo(Map.of("io.modelcontextprotocol/protocolVersion", "2026-07-28",
				"io.modelcontextprotocol/clientCapabilities",
				Map.of("elicitation", Map.of("form", Map.of()), "sampling", Map.of()),
				"io.modelcontextprotocol/logLevel", "info", "trace", "t1"));
		assertThat(this.sent.get().name()).isEqualTo("echo");
		assertThat(this.sent.get().message().id()).isEqualTo(7);
		assertThat(received).as("the log message is the application's, the rest the client's")
			.extracting(JSONRPCMessage.class::cast)
			.hasSize(2)
			.noneMatch((message) -> message instanceof JSONRPCNotification notification
					&& notification.method().equals("notifications/message"));
		assertThat(this.logged).singleElement().satisfies((notification) -> {
			assertThat(notification.level()).isEqualTo(LoggingLevel.WARNING);
			assertThat(notification.data()).isEqualTo("disk almost full");
		});
	}

	@Test
	void aRequestIsSentAsItIsWhenNothingIsAdded() {
		McpTransportRequest request = request();
		new RequestEnvelope(this.server, this.jsonMapper, Map::of, null, this.logged::add).exchange(request)
			.blockLast(Duration.ofSeconds(5));
		assertThat(this.sent.get()).isSameAs(request);
	}

	private McpTransportRequest request() {
		Map<String, Object> meta = Map.of("io.modelcontextprotocol/protocolVersion", "2026-07-28",
				"io.modelcontextprotocol/clientCapabilities", Map.of("elicitation", Map.of("form", Map.of())), "trace",
				"t1");
		return McpTransportRequest
			.builder(new JSONRPCRequest("2.0", "tools/call", 7,
					Map.of("name", "echo", "arguments", Map.of("message", "hi"), "_meta", meta)), "2026-07-28")
			.name("echo")
			.build();
	}

}
