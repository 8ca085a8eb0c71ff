package io.github.mcpsupervisor.client.internal;

import java.time.Duration;
import java.util.List;

import io.modelcontextprotocol.client.McpAsyncClient;
import io.modelcontextprotocol.client.McpClient;
import io.modelcontextprotocol.spec.McpClientTransport;
import io.modelcontextprotocol.spec.McpSchema.LoggingMessageNotification;
import io.modelcontextprotocol.spec.McpSchema.Prompt;
import io.modelcontextprotocol.spec.McpSchema.Resource;
import io.modelcontextprotocol.spec.McpSchema.ResourceContents;

/**
 * Builds the SDK client of every generation of a server. The transport and the timeouts
 * are the supervisor's: an implementation adds capabilities, handlers and consumers, and
 * must build on that transport with those timeouts.
 *
 * @since 0.1.0
 */
@FunctionalInterface
public interface McpClientFactory {

	/**
	 * Builds the client of one generation.
	 * @param session the server's client session: its name, roots and subscriptions
	 * @param transport the generation's transport
	 * @param requestTimeout the SDK's timeout of every request
	 * @param initializationTimeout the SDK's timeout of the initialize handshake
	 * @return the client, not yet initialized
	 */
	McpAsyncClient create(McpServerSession session, McpClientTransport transport, Duration requestTimeout,
			Duration initializationTimeout);

	/**
	 * Takes a server's new list of resources, listed after it announced a change (the
	 * SDK's client never sees those announcements).
	 * @param session the server's client session
	 * @param resources every resource it now lists
	 */
	default void resourcesChanged(McpServerSession session, List<Resource> resources) {
	}

	/**
	 * Takes a server's new list of prompts, listed after it announced a change.
	 * @param session the server's client session
	 * @param prompts every prompt it now lists
	 */
	default void promptsChanged(McpServerSession session, List<Prompt> prompts) {
	}

	/**
	 * Takes the new contents of a resource subscribed to, read after the server announced
	 * its update (the SDK's client never sees those announcements).
	 * @param session the server's client session
	 * @param uri the resource's URI
	 * @param contents its contents as read
	 */
	default void resourceUpdated(McpServerSession session, String uri, List<ResourceContents> contents) {
	}

	/**
	 * Returns how the application answers a server's requests for input that arrive as
	 * input requests of MCP revision 2026-07-28 (multi-round-trip results): the same
	 * handlers that answer the sampling and elicitation requests of 2025-11-25.
	 * @param session the server's client session
	 * @return the handlers, {@link ClientHandlers#NONE} when the application answers none
	 */
	default ClientHandlers handlers(McpServerSession session) {
		return ClientHandlers.NONE;
	}

	/**
	 * Takes a log message that a server of MCP revision 2026-07-28 sent while answering a
	 * request (a 2025-11-25 client's logging consumers take those of its revision).
	 * @param session the server's client session
	 * @param notification the message
	 */
	default void logged(McpServerSession session, LoggingMessageNotification notification) {
	}

	/**
	 * Returns the factory of plain clients: the supervisor's client info, the timeouts,
	 * and the session's roots (with the roots capability when it has any).
	 * @return the factory
	 */
	static McpClientFactory standard() {
		return (session, transport, requestTimeout, initializationTimeout) -> McpClient.async(transport)
			.requestTimeout(requestTimeout)
			.initializationTimeout(initializationTimeout)
			.clientInfo(ClientSpecs.clientInfo(session.server()))
			.capabilities(ClientSpecs.capabilities(session, null))
			.roots(session.roots())
			.build();
	}

}
