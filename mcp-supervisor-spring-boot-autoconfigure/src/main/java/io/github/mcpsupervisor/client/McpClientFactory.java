package io.github.mcpsupervisor.client;

import java.time.Duration;

import io.modelcontextprotocol.client.McpAsyncClient;
import io.modelcontextprotocol.client.McpClient;
import io.modelcontextprotocol.spec.McpClientTransport;

/**
 * Builds the SDK client of every generation of a server. The transport and the timeouts
 * are the supervisor's: an implementation adds capabilities, handlers and consumers, and
 * must build on that transport with those timeouts.
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
	McpAsyncClient create(McpClientSession session, McpClientTransport transport, Duration requestTimeout,
			Duration initializationTimeout);

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
