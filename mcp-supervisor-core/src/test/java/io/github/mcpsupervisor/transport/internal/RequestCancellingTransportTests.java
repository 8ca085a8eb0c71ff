package io.github.mcpsupervisor.transport.internal;

import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;

import io.modelcontextprotocol.json.TypeRef;
import io.modelcontextprotocol.spec.McpClientTransport;
import io.modelcontextprotocol.spec.McpSchema;
import io.modelcontextprotocol.spec.McpSchema.JSONRPCMessage;
import io.modelcontextprotocol.spec.McpSchema.JSONRPCNotification;
import io.modelcontextprotocol.spec.McpSchema.JSONRPCRequest;
import io.modelcontextprotocol.spec.McpSchema.JSONRPCResponse;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Mono;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

/**
 * Tests for {@link RequestCancellingTransport}.
 */
class RequestCancellingTransportTests {

	private final List<JSONRPCMessage> sent = new CopyOnWriteArrayList<>();

	private final List<JSONRPCMessage> answeredHere = new CopyOnWriteArrayList<>();

	private volatile boolean failSends;

	private final RequestCancellingTransport transport = new RequestCancellingTransport(new McpClientTransport() {

		@Override
		public Mono<Void> connect(java.util.function.Function<Mono<JSONRPCMessage>, Mono<JSONRPCMessage>> handler) {
			return Mono.empty();
		}

		@Override
		public Mono<Void> sendMessage(JSONRPCMessage message) {
			if (RequestCancellingTransportTests.this.failSends && message instanceof JSONRPCRequest) {
				return Mono.error(new IllegalStateException("refused before it was sent"));
			}
			RequestCancellingTransportTests.this.sent.add(message);
			return Mono.empty();
		}

		@Override
		public Mono<Void> closeGracefully() {
			return Mono.empty();
		}

		@Override
		public <T> T unmarshalFrom(Object data, TypeRef<T> typeRef) {
			throw new UnsupportedOperationException();
		}

	}, "demo", (id) -> {
	});

	RequestCancellingTransportTests() {
		this.transport.connect((inbound) -> inbound.doOnNext(this.answeredHere::add)).block();
	}

	@Test
	void anUnansweredRequestIsCancelledWhenItsCallEnds() {
		RequestScope scope = new RequestScope();
		this.transport.sendMessage(request("r-1")).contextWrite(scope).block();
		scope.end("timed out");
		assertThat(this.sent).hasSize(2)
			.last()
			.isInstanceOfSatisfying(JSONRPCNotification.class,
					(notification) -> assertThat(notification.method()).isEqualTo("notifications/cancelled"));
		assertThat(this.answeredHere).singleElement()
			.isInstanceOfSatisfying(JSONRPCResponse.class, (response) -> assertThat(response.id()).isEqualTo("r-1"));
	}

	@Test
	void aRequestThatCouldNotBeSentIsNeitherCancelledNorAnsweredHere() {
		this.failSends = true;
		RequestScope scope = new RequestScope();
		assertThatIllegalStateException()
			.isThrownBy(() -> this.transport.sendMessage(request("r-2")).contextWrite(scope).block());
		scope.end("the call failed");
		assertThat(this.sent).isEmpty();
		assertThat(this.answeredHere).isEmpty();
	}

	private static JSONRPCRequest request(String id) {
		return new JSONRPCRequest(McpSchema.JSONRPC_VERSION, "tools/call", id, Map.of("name", "echo"));
	}

}
