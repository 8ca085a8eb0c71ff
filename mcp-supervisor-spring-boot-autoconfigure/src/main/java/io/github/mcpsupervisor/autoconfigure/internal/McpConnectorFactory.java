package io.github.mcpsupervisor.autoconfigure.internal;

import io.github.mcpsupervisor.autoconfigure.properties.internal.McpServerSettings;
import io.github.mcpsupervisor.supervisor.McpConnector;

/**
 * Creates the connector of each configured server. Define a bean of this type to change
 * how servers are reached.
 *
 * @since 0.1.0
 */
@FunctionalInterface
public interface McpConnectorFactory {

	/**
	 * Creates the connector of a server.
	 * @param server the server's configuration
	 * @return its connector
	 */
	McpConnector create(McpServerSettings server);

}
