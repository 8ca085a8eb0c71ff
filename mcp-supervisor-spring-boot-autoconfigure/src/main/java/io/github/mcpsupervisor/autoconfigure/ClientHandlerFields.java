package io.github.mcpsupervisor.autoconfigure;

import java.lang.reflect.Field;
import java.util.function.Function;

import io.github.mcpsupervisor.client.internal.ClientHandlers;
import io.modelcontextprotocol.client.McpAsyncClient;
import io.modelcontextprotocol.json.McpJsonDefaults;
import io.modelcontextprotocol.json.TypeRef;
import io.modelcontextprotocol.spec.McpClientTransport;
import io.modelcontextprotocol.spec.McpSchema.JSONRPCMessage;
import org.jspecify.annotations.Nullable;
import reactor.core.publisher.Mono;

import org.springframework.util.ReflectionUtils;

/**
 * Reads the handlers that a 2025-11-25 client was built with (by annotated handlers or
 * customizers), so that the same handlers answer the input requests of 2026-07-28
 * servers. The client is built over a transport that never connects and is never used
 * otherwise. The SDK keeps the handlers in private fields: a field this SDK does not have
 * reads as no handler.
 */
final class ClientHandlerFields {

	private static final @Nullable Field SAMPLING = ReflectionUtils.findField(McpAsyncClient.class, "samplingHandler",
			Function.class);

	private static final @Nullable Field FORM_ELICITATION = ReflectionUtils.findField(McpAsyncClient.class,
			"formElicitationHandler", Function.class);

	private static final @Nullable Field URL_ELICITATION = ReflectionUtils.findField(McpAsyncClient.class,
			"urlElicitationHandler", Function.class);

	private static final @Nullable Field ELICITATION_DEFAULTS = ReflectionUtils.findField(McpAsyncClient.class,
			"applyElicitationDefaults", boolean.class);

	private ClientHandlerFields() {
	}

	/**
	 * Returns the client's handlers for the capabilities it declares.
	 * @param client a client built as a generation's is, never connected
	 * @return the handlers
	 */
	static ClientHandlers of(McpAsyncClient client) {
		return ClientHandlers.declared(client.getClientCapabilities(), read(SAMPLING, client),
				read(FORM_ELICITATION, client), read(URL_ELICITATION, client), appliesDefaults(client));
	}

	private static boolean appliesDefaults(McpAsyncClient client) {
		if (ELICITATION_DEFAULTS == null) {
			return false;
		}
		ReflectionUtils.makeAccessible(ELICITATION_DEFAULTS);
		return Boolean.TRUE.equals(ReflectionUtils.getField(ELICITATION_DEFAULTS, client));
	}

	@SuppressWarnings("unchecked")
	private static <F extends Function<?, ?>> @Nullable F read(@Nullable Field field, McpAsyncClient client) {
		if (field == null) {
			return null;
		}
		ReflectionUtils.makeAccessible(field);
		return (F) ReflectionUtils.getField(field, client);
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
