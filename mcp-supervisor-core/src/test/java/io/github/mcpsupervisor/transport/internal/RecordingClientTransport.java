package io.github.mcpsupervisor.transport.internal;

import java.util.List;
import java.util.Objects;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Function;

import io.modelcontextprotocol.json.TypeRef;
import io.modelcontextprotocol.spec.McpClientTransport;
import io.modelcontextprotocol.spec.McpSchema.JSONRPCMessage;
import org.jspecify.annotations.Nullable;
import reactor.core.publisher.Mono;

/**
 * A transport under test of the wrappers above it: it records what is sent to the server
 * and hands the wrappers what a test makes the server send.
 */
final class RecordingClientTransport implements McpClientTransport {

	final List<JSONRPCMessage> sent = new CopyOnWriteArrayList<>();

	private @Nullable Function<Mono<JSONRPCMessage>, Mono<JSONRPCMessage>> handler;

	void receive(JSONRPCMessage message) {
		Objects.requireNonNull(this.handler, "not connected").apply(Mono.just(message)).block();
	}

	@Override
	public Mono<Void> connect(Function<Mono<JSONRPCMessage>, Mono<JSONRPCMessage>> handler) {
		this.handler = handler;
		return Mono.empty();
	}

	@Override
	public Mono<Void> closeGracefully() {
		return Mono.empty();
	}

	@Override
	public Mono<Void> sendMessage(JSONRPCMessage message) {
		this.sent.add(message);
		return Mono.empty();
	}

	@Override
	public <T> T unmarshalFrom(Object data, TypeRef<T> typeRef) {
		throw new UnsupportedOperationException();
	}

}
