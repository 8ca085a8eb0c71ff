package io.github.mcpsupervisor.autoconfigure;

import java.lang.reflect.Field;
import java.util.function.Function;

import io.modelcontextprotocol.client.McpAsyncClient;
import io.modelcontextprotocol.json.McpJsonDefaults;
import io.modelcontextprotocol.json.TypeRef;
import io.modelcontextprotocol.spec.McpClientTransport;
import io.modelcontextprotocol.spec.McpSchema.ElicitFormRequest;
import io.modelcontextprotocol.spec.McpSchema.ElicitResult;
import io.modelcontextprotocol.spec.McpSchema.JSONRPCMessage;
import org.jspecify.annotations.Nullable;
import reactor.core.publisher.Mono;

import org.springframework.util.ReflectionUtils;

/**
 * Reads the form elicitation handler that a 2025-11-25 client was built with (by
 * annotated handlers or customizers), so that the same handler answers the form
 * elicitations that a 2026-07-28 server asks for as input requests. The client is built
 * over a transport that never connects and is never used otherwise.
 */
final class ElicitationHandlers {

	private static final @Nullable Field FORM_ELICITATION = ReflectionUtils.findField(McpAsyncClient.class,
			"formElicitationHandler", Function.class);

	private ElicitationHandlers() {
	}

	/**
	 * Returns the client's form elicitation handler.
	 * @param client a client built as a generation's is, never connected
	 * @return the handler, or {@code null} when the client has none (or this SDK keeps it
	 * elsewhere)
	 */
	@SuppressWarnings("unchecked")
	static @Nullable Function<ElicitFormRequest, Mono<ElicitResult>> formElicitation(McpAsyncClient client) {
		if (FORM_ELICITATION == null) {
			return null;
		}
		ReflectionUtils.makeAccessible(FORM_ELICITATION);
		return (Function<ElicitFormRequest, Mono<ElicitResult>>) ReflectionUtils.getField(FORM_ELICITATION, client);
	}

	/**
	 * A transport for a client that is built only to be read: it never connects.
	 */
	static final class Unconnected implements McpClientTransport {

		@Override
		public Mono<Void> connect(Function<Mono<JSONRPCMessage>, Mono<JSONRPCMessage>> handler) {
			return Mono.error(new IllegalStateException("this client is never connected"));
		}

		@Override
		public Mono<Void> sendMessage(JSONRPCMessage message) {
			return Mono.error(new IllegalStateException("this client is never connected"));
		}

		@Override
		public Mono<Void> closeGracefully() {
			return Mono.empty();
		}

		@Override
		public <T> T unmarshalFrom(Object data, TypeRef<T> typeRef) {
			return McpJsonDefaults.getMapper().convertValue(data, typeRef);
		}

	}

}
