package io.github.mcpsupervisor.transport.internal;

import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;
import java.util.function.UnaryOperator;

import io.github.mcpsupervisor.internal.RepeatedWarnings;
import io.github.mcpsupervisor.internal.ServerText;
import io.modelcontextprotocol.spec.McpClientTransport;
import io.modelcontextprotocol.spec.McpSchema;
import io.modelcontextprotocol.spec.McpSchema.JSONRPCMessage;
import io.modelcontextprotocol.spec.McpSchema.JSONRPCNotification;
import io.modelcontextprotocol.spec.McpSchema.JSONRPCRequest;
import io.modelcontextprotocol.spec.McpSchema.JSONRPCResponse;
import io.modelcontextprotocol.spec.McpSchema.JSONRPCResponse.JSONRPCError;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;
import reactor.core.publisher.Mono;

/**
 * A transport that bounds the JSON-RPC errors of the server before the SDK's client sees
 * them: the message is cut to {@value ServerText#MAX_MODEL_BYTES} bytes with a marker, as
 * results are, put on one line and the secrets of the configuration masked in it, and
 * {@code data} larger than {@value #MAX_DATA_CHARS} characters is replaced by a note (the
 * strings of smaller data are put on one line and masked too). The client logs every
 * error it is answered with and hands it to the caller (the model, an application) as an
 * {@code McpError}: neither sees more than the bound, and the log line cannot be forged.
 * A tool whose name has control characters or is longer than
 * {@value #MAX_TOOL_NAME_LENGTH} characters is left out of the answers to
 * {@code tools/list} with a warning: the client would log its name whole. A notification
 * the client has no handler for is dropped here, counted at DEBUG: the client would log
 * each one whole at WARN.
 */
final class BoundedAnswerTransport extends DelegatingClientTransport {

	/**
	 * The most characters (of its strings, keys and numbers) of the {@code data} of an
	 * error that is kept: it is for programs, not for the model, and a few pages are
	 * plenty.
	 */
	static final int MAX_DATA_CHARS = 64 * 1024;

	/** The longest tool name kept, as the MCP specification asks of names. */
	static final int MAX_TOOL_NAME_LENGTH = 128;

	/** The notifications of servers that the SDK's client handles. */
	static final Set<String> HANDLED_NOTIFICATIONS = Set.of(McpSchema.METHOD_NOTIFICATION_TOOLS_LIST_CHANGED,
			McpSchema.METHOD_NOTIFICATION_RESOURCES_LIST_CHANGED, McpSchema.METHOD_NOTIFICATION_RESOURCES_UPDATED,
			McpSchema.METHOD_NOTIFICATION_PROMPTS_LIST_CHANGED, McpSchema.METHOD_NOTIFICATION_MESSAGE,
			McpSchema.METHOD_NOTIFICATION_PROGRESS, McpSchema.METHOD_NOTIFICATION_ELICITATION_COMPLETE);

	private static final Log logger = LogFactory.getLog(BoundedAnswerTransport.class);

	private final AtomicLong unhandled = new AtomicLong();

	private final String server;

	private final UnaryOperator<String> redaction;

	// the ids of the tools/list requests waiting for their answers
	private final Set<Object> listings = ConcurrentHashMap.newKeySet();

	BoundedAnswerTransport(McpClientTransport delegate, String server, UnaryOperator<String> redaction) {
		super(delegate);
		this.server = server;
		this.redaction = redaction;
	}

	@Override
	public Mono<Void> sendMessage(JSONRPCMessage message) {
		if (message instanceof JSONRPCRequest request && McpSchema.METHOD_TOOLS_LIST.equals(request.method())) {
			this.listings.add(request.id());
		}
		return this.delegate.sendMessage(message);
	}

	@Override
	public Mono<Void> connect(Function<Mono<JSONRPCMessage>, Mono<JSONRPCMessage>> handler) {
		return this.delegate.connect((message) -> handler.apply(message.filter(this::handled).map(this::bounded)));
	}

	private boolean handled(JSONRPCMessage message) {
		if (!(message instanceof JSONRPCNotification notification)
				|| HANDLED_NOTIFICATIONS.contains(notification.method())) {
			return true;
		}
		long count = this.unhandled.incrementAndGet();
		if (logger.isDebugEnabled() && RepeatedWarnings.isLogged(count)) {
			logger.debug("MCP server '" + this.server + "': ignored " + count
					+ " notification(s) the client does not handle so far, the last one '"
					+ ServerText.forLog(this.redaction.apply(notification.method())) + "'");
		}
		return false;
	}

	JSONRPCMessage bounded(JSONRPCMessage message) {
		if (!(message instanceof JSONRPCResponse response)) {
			return message;
		}
		if (response.id() != null && this.listings.remove(response.id()) && response.error() == null) {
			return withUsableToolNames(response);
		}
		if (response.error() == null) {
			return message;
		}
		JSONRPCError error = response.error();
		String text = (error.message() != null) ? error.message() : "";
		String cut = ServerText.forModel(text, "error message");
		cut = this.redaction.apply(ServerText.singleLine(cut));
		Object data = (chars(error.data(), 0) <= MAX_DATA_CHARS) ? clean(error.data())
				: "[error data left out: more than " + MAX_DATA_CHARS + " characters]";
		if (cut.equals(text) && Objects.equals(data, error.data())) {
			return message;
		}
		return new JSONRPCResponse(response.jsonrpc(), response.id(), null, new JSONRPCError(error.code(), cut, data));
	}

	private JSONRPCResponse withUsableToolNames(JSONRPCResponse response) {
		if (!(response.result() instanceof Map<?, ?> result) || !(result.get("tools") instanceof List<?> tools)) {
			return response;
		}
		List<Object> usable = new ArrayList<>(tools.size());
		for (Object tool : tools) {
			Object name = (tool instanceof Map<?, ?> definition) ? definition.get("name") : null;
			String unusable = (name instanceof String text) ? unusable(text) : null;
			if (unusable == null) {
				usable.add(tool);
			}
			else {
				logger.warn("MCP server '" + this.server + "': tool '"
						+ ServerText.forLog(this.redaction.apply((String) name)) + "' is left out: " + unusable);
			}
		}
		if (usable.size() == tools.size()) {
			return response;
		}
		Map<Object, Object> replaced = new LinkedHashMap<>(result);
		replaced.put("tools", usable);
		return new JSONRPCResponse(response.jsonrpc(), response.id(), replaced, null);
	}

	static @Nullable String unusable(String name) {
		if (name.length() > MAX_TOOL_NAME_LENGTH) {
			return "its name is " + name.length() + " characters long (limit " + MAX_TOOL_NAME_LENGTH + ")";
		}
		return ServerText.singleLine(name).equals(name) ? null : "its name has control characters";
	}

	// The data of an error with each of its strings on one line and the secrets masked:
	// the client logs the whole error.
	private @Nullable Object clean(@Nullable Object value) {
		if (value instanceof String text) {
			return this.redaction.apply(ServerText.singleLine(text));
		}
		if (value instanceof Map<?, ?> map) {
			Map<Object, @Nullable Object> cleaned = new LinkedHashMap<>();
			map.forEach((key, item) -> cleaned.put(clean(key), clean(item)));
			return cleaned;
		}
		if (value instanceof Collection<?> collection) {
			List<@Nullable Object> cleaned = new ArrayList<>(collection.size());
			collection.forEach((item) -> cleaned.add(clean(item)));
			return cleaned;
		}
		return value;
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
