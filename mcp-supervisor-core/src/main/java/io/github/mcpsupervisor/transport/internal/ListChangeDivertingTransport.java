package io.github.mcpsupervisor.transport.internal;

import java.util.function.Consumer;
import java.util.function.Function;

import io.github.mcpsupervisor.client.internal.ListChanges;
import io.modelcontextprotocol.spec.McpClientTransport;
import io.modelcontextprotocol.spec.McpSchema;
import io.modelcontextprotocol.spec.McpSchema.JSONRPCMessage;
import io.modelcontextprotocol.spec.McpSchema.JSONRPCNotification;
import reactor.core.publisher.Mono;

/**
 * A transport that hands the server's announcements of changed lists of tools, resources
 * and prompts, and of updated resources, to the supervisor instead of the SDK's client:
 * the client would list or read them again for each notification, without coalescing and
 * without a page limit, and the supervisor does it itself, filtered, coalesced and
 * bounded. Everything else passes through.
 */
final class ListChangeDivertingTransport extends DelegatingClientTransport {

	private final Runnable toolsChanged;

	private final Consumer<JSONRPCNotification> otherListChanged;

	ListChangeDivertingTransport(McpClientTransport delegate, Runnable toolsChanged,
			Consumer<JSONRPCNotification> otherListChanged) {
		super(delegate);
		this.toolsChanged = toolsChanged;
		this.otherListChanged = otherListChanged;
	}

	@Override
	public Mono<Void> connect(Function<Mono<JSONRPCMessage>, Mono<JSONRPCMessage>> handler) {
		return this.delegate.connect((message) -> handler.apply(message.filter(this::isForTheClient)));
	}

	private boolean isForTheClient(JSONRPCMessage message) {
		if (message instanceof JSONRPCNotification notification) {
			if (McpSchema.METHOD_NOTIFICATION_TOOLS_LIST_CHANGED.equals(notification.method())) {
				this.toolsChanged.run();
				return false;
			}
			if (ListChanges.handles(notification.method())) {
				this.otherListChanged.accept(notification);
				return false;
			}
		}
		return true;
	}

}
