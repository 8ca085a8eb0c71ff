package io.github.mcpsupervisor.transport.internal.http;

import java.io.IOException;
import java.net.http.HttpRequest;
import java.net.http.HttpRequest.BodyPublisher;
import java.net.http.HttpRequest.BodyPublishers;
import java.nio.ByteBuffer;
import java.util.concurrent.Flow;

import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.spec.McpSchema;
import io.modelcontextprotocol.spec.McpSchema.JSONRPCRequest;
import org.jspecify.annotations.Nullable;

/**
 * The body of a POST that carries a JSON-RPC request, which knows the request's id: so
 * that the HTTP client can tell which exchange a cancelled request is.
 */
final class JsonRpcRequestBody implements BodyPublisher {

	private final BodyPublisher body;

	private final Object requestId;

	private JsonRpcRequestBody(String body, Object requestId) {
		this.body = BodyPublishers.ofString(body);
		this.requestId = requestId;
	}

	/**
	 * Returns the body of a request that carries the given message, if it is a JSON-RPC
	 * request.
	 * @param jsonMapper reads the message
	 * @param body the message as sent
	 * @return its body, or {@code null} if it is not a request
	 */
	static @Nullable JsonRpcRequestBody of(McpJsonMapper jsonMapper, String body) {
		try {
			if (McpSchema.deserializeJsonRpcMessage(jsonMapper, body) instanceof JSONRPCRequest request
					&& request.id() != null) {
				return new JsonRpcRequestBody(body, request.id());
			}
		}
		catch (IOException | IllegalArgumentException ex) {
			// not one: the server tells why
		}
		return null;
	}

	/**
	 * Returns the id of the JSON-RPC request that an HTTP request carries.
	 * @param request the HTTP request
	 * @return the id, or {@code null} if it carries none
	 */
	static @Nullable Object requestId(HttpRequest request) {
		return request.bodyPublisher()
			.filter(JsonRpcRequestBody.class::isInstance)
			.map((body) -> ((JsonRpcRequestBody) body).requestId)
			.orElse(null);
	}

	@Override
	public long contentLength() {
		return this.body.contentLength();
	}

	@Override
	public void subscribe(Flow.Subscriber<? super ByteBuffer> subscriber) {
		this.body.subscribe(subscriber);
	}

}
