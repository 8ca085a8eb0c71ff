package io.github.mcpsupervisor.transport.internal;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;
import java.util.function.Function;

import io.modelcontextprotocol.spec.McpClientTransport;
import io.modelcontextprotocol.spec.McpSchema;
import io.modelcontextprotocol.spec.McpSchema.ErrorCodes;
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
 * A client transport that cancels the requests their calls gave up on, as the MCP
 * specification asks: the server is sent {@code notifications/cancelled} with the
 * request's id and the reason, the request's exchange is aborted (over HTTP), the SDK's
 * session forgets the request (it keeps every unanswered request until its answer comes,
 * timed out or not: it is answered here with an error that nobody waits for), and an
 * answer that comes after all is dropped. The requests of a call are known from the
 * {@link RequestScope} in its context; {@code initialize} is never cancelled.
 */
final class RequestCancellingTransport extends DelegatingClientTransport {

	/** How many cancelled requests are remembered, to drop their late answers. */
	static final int REMEMBERED = 1024;

	static final String METHOD_NOTIFICATION_CANCELLED = "notifications/cancelled";

	private static final Log logger = LogFactory.getLog(RequestCancellingTransport.class);

	private final String server;

	private final Consumer<Object> abortExchange;

	private final Set<Object> unanswered = ConcurrentHashMap.newKeySet();

	private final Set<Object> cancelled = Collections.synchronizedSet(Collections.newSetFromMap(new LinkedHashMap<>() {

		private static final long serialVersionUID = 1L;

		@Override
		protected boolean removeEldestEntry(Map.Entry<Object, Boolean> eldest) {
			return size() > REMEMBERED;
		}

	}));

	private volatile @Nullable Function<Mono<JSONRPCMessage>, Mono<JSONRPCMessage>> session;

	private volatile boolean closed;

	/**
	 * Creates the transport.
	 * @param delegate the transport that reaches the server
	 * @param server the server's name
	 * @param abortExchange aborts the exchange of a cancelled request, given its id
	 */
	RequestCancellingTransport(McpClientTransport delegate, String server, Consumer<Object> abortExchange) {
		super(delegate);
		this.server = server;
		this.abortExchange = abortExchange;
	}

	@Override
	public Mono<Void> connect(Function<Mono<JSONRPCMessage>, Mono<JSONRPCMessage>> handler) {
		this.session = handler;
		return this.delegate.connect((inbound) -> handler.apply(inbound.filter(this::expected)));
	}

	@Override
	public Mono<Void> sendMessage(JSONRPCMessage message) {
		if (!(message instanceof JSONRPCRequest request) || request.id() == null
				|| McpSchema.METHOD_INITIALIZE.equals(request.method())) {
			return this.delegate.sendMessage(message);
		}
		return Mono.deferContextual((context) -> {
			RequestScope scope = RequestScope.of(context);
			if (scope != null) {
				this.unanswered.add(request.id());
				scope.sent(this, request.id());
			}
			// a request that could not be sent (its token refused before it left, its
			// exchange failed) has nothing to cancel, and the SDK forgot it already
			return this.delegate.sendMessage(message).doOnError((ex) -> this.unanswered.remove(request.id()));
		});
	}

	/**
	 * Cancels a request unless it was answered.
	 * @param requestId its id
	 * @param reason why, as the server is told
	 */
	void cancel(Object requestId, String reason) {
		if (!this.unanswered.remove(requestId) || this.closed) {
			return;
		}
		this.cancelled.add(requestId);
		logger.debug("Cancelling request " + requestId + " to MCP server '" + this.server + "': " + reason);
		this.delegate
			.sendMessage(new JSONRPCNotification(McpSchema.JSONRPC_VERSION, METHOD_NOTIFICATION_CANCELLED,
					Map.of("requestId", requestId, "reason", reason)))
			.subscribe(null, (ex) -> logger.debug("Cancelling request " + requestId + " to MCP server '" + this.server
					+ "' failed: " + ex.getMessage()));
		this.abortExchange.accept(requestId);
		Function<Mono<JSONRPCMessage>, Mono<JSONRPCMessage>> current = this.session;
		if (current != null) {
			current
				.apply(Mono.just(new JSONRPCResponse(McpSchema.JSONRPC_VERSION, requestId, null,
						new JSONRPCError(ErrorCodes.INTERNAL_ERROR, "request cancelled: " + reason, null))))
				.subscribe(null, (ex) -> logger.debug("Forgetting request " + requestId + " failed", ex));
		}
	}

	@Override
	public Mono<Void> closeGracefully() {
		this.closed = true;
		return this.delegate.closeGracefully();
	}

	@Override
	public void close() {
		this.closed = true;
		this.delegate.close();
	}

	// Whether an inbound message is for the session: not the late answer of a request
	// cancelled here.
	private boolean expected(JSONRPCMessage message) {
		if (message instanceof JSONRPCResponse response && response.id() != null) {
			this.unanswered.remove(response.id());
			return !this.cancelled.remove(response.id());
		}
		return true;
	}

}
