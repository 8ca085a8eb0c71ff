package io.github.mcpsupervisor.transport.internal.modern;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Consumer;
import java.util.function.Supplier;

import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.json.TypeRef;
import io.modelcontextprotocol.modern.JsonRpc.JSONRPCMessage;
import io.modelcontextprotocol.modern.JsonRpc.JSONRPCNotification;
import io.modelcontextprotocol.modern.JsonRpc.JSONRPCRequest;
import io.modelcontextprotocol.modern.McpSchema.MetaKeys;
import io.modelcontextprotocol.modern.client.transport.McpClientTransport;
import io.modelcontextprotocol.modern.client.transport.McpTransportRequest;
import io.modelcontextprotocol.spec.McpSchema.LoggingMessageNotification;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;
import reactor.core.publisher.Flux;

/**
 * A transport of the SDK's modern client that completes what every request carries in its
 * {@code _meta} where the client cannot: the client capabilities of the input requests
 * the application answers (the client declares elicitation only) and the level of the log
 * messages asked for; the log messages that come back on a request's stream go to the
 * application, not to the client (which has no use for them).
 */
final class RequestEnvelope implements McpClientTransport {

	private static final Log logger = LogFactory.getLog(RequestEnvelope.class);

	private static final TypeRef<Map<String, Object>> MAP = new TypeRef<>() {
	};

	static final String LOG_MESSAGE = "notifications/message";

	private final McpClientTransport delegate;

	private final McpJsonMapper jsonMapper;

	private final Supplier<Map<String, Object>> capabilities;

	private final @Nullable String logLevel;

	private final Consumer<LoggingMessageNotification> logged;

	/**
	 * Creates the envelope of a transport.
	 * @param delegate the transport
	 * @param jsonMapper reads and writes the messages
	 * @param capabilities the capabilities each request declares besides the client's
	 * own, read for every request
	 * @param logLevel the lowest level of the log messages asked for, or {@code null} to
	 * ask for none
	 * @param logged takes the log messages
	 */
	RequestEnvelope(McpClientTransport delegate, McpJsonMapper jsonMapper, Supplier<Map<String, Object>> capabilities,
			@Nullable String logLevel, Consumer<LoggingMessageNotification> logged) {
		this.delegate = delegate;
		this.jsonMapper = jsonMapper;
		this.capabilities = capabilities;
		this.logLevel = logLevel;
		this.logged = logged;
	}

	@Override
	public Flux<JSONRPCMessage> exchange(McpTransportRequest request) {
		return this.delegate.exchange(enveloped(request)).filter((message) -> !isLogMessage(message));
	}

	@Override
	public boolean mirrorsToolParams() {
		return this.delegate.mirrorsToolParams();
	}

	@SuppressWarnings("deprecation") // 2026-07-28 deprecates logging; its servers may
										// still log
	private McpTransportRequest enveloped(McpTransportRequest request) {
		Map<String, Object> added = this.capabilities.get();
		if (added.isEmpty() && this.logLevel == null) {
			return request;
		}
		JSONRPCRequest message = request.message();
		Map<String, Object> params = (message.params() != null)
				? new LinkedHashMap<>(this.jsonMapper.convertValue(message.params(), MAP)) : new LinkedHashMap<>();
		Map<String, Object> meta = copy(params.get("_meta"));
		Map<String, Object> declared = copy(meta.get(MetaKeys.CLIENT_CAPABILITIES));
		declared.putAll(added);
		meta.put(MetaKeys.CLIENT_CAPABILITIES, declared);
		if (this.logLevel != null) {
			meta.put(MetaKeys.LOG_LEVEL, this.logLevel);
		}
		params.put("_meta", meta);
		McpTransportRequest.Builder builder = McpTransportRequest
			.builder(new JSONRPCRequest(message.jsonrpc(), message.method(), message.id(), params),
					request.protocolVersion())
			.paramHeaders(request.paramHeaders());
		if (request.name() != null) {
			builder.name(request.name());
		}
		if (request.roundTimeout() != null) {
			builder.roundTimeout(request.roundTimeout());
		}
		return builder.build();
	}

	private Map<String, Object> copy(@Nullable Object map) {
		return (map instanceof Map<?, ?>) ? new LinkedHashMap<>(this.jsonMapper.convertValue(map, MAP))
				: new LinkedHashMap<>();
	}

	private boolean isLogMessage(JSONRPCMessage message) {
		if (!(message instanceof JSONRPCNotification notification) || !LOG_MESSAGE.equals(notification.method())) {
			return false;
		}
		try {
			this.logged.accept(this.jsonMapper.convertValue(notification.params(), LoggingMessageNotification.class));
		}
		catch (RuntimeException ex) {
			logger.debug("A log message that is not one was dropped", ex);
		}
		return true;
	}

}
