package io.github.mcpsupervisor.transport;

import java.util.Collection;
import java.util.Map;
import java.util.function.Function;

import io.github.mcpsupervisor.supervisor.ServerText;
import io.modelcontextprotocol.spec.McpClientTransport;
import io.modelcontextprotocol.spec.McpSchema.JSONRPCMessage;
import io.modelcontextprotocol.spec.McpSchema.JSONRPCResponse;
import io.modelcontextprotocol.spec.McpSchema.JSONRPCResponse.JSONRPCError;
import org.jspecify.annotations.Nullable;
import reactor.core.publisher.Mono;

/**
 * A transport that bounds the JSON-RPC errors of the server before the SDK's client sees
 * them: the message is cut to {@value ServerText#MAX_MODEL_BYTES} bytes with a marker, as
 * results are, and {@code data} larger than {@value #MAX_DATA_CHARS} characters is
 * replaced by a note of its size. The client logs every error it is answered with and
 * hands it to the caller (the model, an application) as an {@code McpError}; neither sees
 * more than the bound.
 */
final class BoundedErrorTransport extends DelegatingClientTransport {

	/**
	 * The most characters (of its strings, keys and numbers) of the {@code data} of an
	 * error that is kept: it is for programs, not for the model, and a few pages are
	 * plenty.
	 */
	static final int MAX_DATA_CHARS = 64 * 1024;

	BoundedErrorTransport(McpClientTransport delegate) {
		super(delegate);
	}

	@Override
	public Mono<Void> connect(Function<Mono<JSONRPCMessage>, Mono<JSONRPCMessage>> handler) {
		return this.delegate.connect((message) -> handler.apply(message.map(BoundedErrorTransport::bounded)));
	}

	static JSONRPCMessage bounded(JSONRPCMessage message) {
		if (!(message instanceof JSONRPCResponse response) || response.error() == null) {
			return message;
		}
		JSONRPCError error = response.error();
		String text = (error.message() != null) ? error.message() : "";
		String cut = ServerText.forModel(text, "error message");
		long dataChars = chars(error.data(), 0);
		if (cut.equals(text) && dataChars <= MAX_DATA_CHARS) {
			return message;
		}
		Object data = (dataChars <= MAX_DATA_CHARS) ? error.data()
				: "[error data left out: more than " + MAX_DATA_CHARS + " characters]";
		return new JSONRPCResponse(response.jsonrpc(), response.id(), null, new JSONRPCError(error.code(), cut, data));
	}

	// The characters of a JSON value, counted until they exceed the limit.
	private static long chars(@Nullable Object value, long counted) {
		if (counted > MAX_DATA_CHARS || value == null) {
			return counted;
		}
		if (value instanceof Map<?, ?> map) {
			long total = counted;
			for (Map.Entry<?, ?> entry : map.entrySet()) {
				total = chars(entry.getValue(), chars(entry.getKey(), total));
				if (total > MAX_DATA_CHARS) {
					break;
				}
			}
			return total;
		}
		if (value instanceof Collection<?> collection) {
			long total = counted;
			for (Object item : collection) {
				total = chars(item, total);
				if (total > MAX_DATA_CHARS) {
					break;
				}
			}
			return total;
		}
		return counted + String.valueOf(value).length();
	}

}
