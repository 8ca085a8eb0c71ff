package io.github.mcpsupervisor.transport;

import java.util.function.Function;

import io.modelcontextprotocol.spec.McpClientTransport;
import io.modelcontextprotocol.spec.McpSchema;
import io.modelcontextprotocol.spec.McpSchema.JSONRPCMessage;
import io.modelcontextprotocol.spec.McpSchema.JSONRPCNotification;
import reactor.core.publisher.Mono;

/**
 * A transport that hands the server's {@code notifications/tools/list_changed} to the
 * supervisor instead of the SDK's client: the client would list every tool again for each
 * notification, without coalescing and without a page limit, and the supervisor lists
 * them itself, coalesced. Everything else passes through.
 */
final class ToolsChangeDivertingTransport extends DelegatingClientTransport {

	private final Runnable toolsChanged;

	ToolsChangeDivertingTransport(McpClientTransport delegate, Runnable toolsChanged) {
		super(delegate);
		this.toolsChanged = toolsChanged;
	}

	@Override
	public Mono<Void> connect(Function<Mono<JSONRPCMessage>, Mono<JSONRPCMessage>> handler) {
		return this.delegate.connect((message) -> handler.apply(message.filter(this::isForTheClient)));
	}

	private boolean isForTheClient(JSONRPCMessage message) {
		if (message instanceof JSONRPCNotification notification
				&& McpSchema.METHOD_NOTIFICATION_TOOLS_LIST_CHANGED.equals(notification.method())) {
			this.toolsChanged.run();
			return false;
		}
		return true;
	}

}
