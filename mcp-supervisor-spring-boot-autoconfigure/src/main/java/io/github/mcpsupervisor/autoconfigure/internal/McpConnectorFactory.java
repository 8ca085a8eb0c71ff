package io.github.mcpsupervisor.autoconfigure.internal;

import io.github.mcpsupervisor.autoconfigure.properties.internal.McpServerSettings;
import io.github.mcpsupervisor.supervisor.McpConnector;
import io.github.mcpsupervisor.supervisor.ToolCatalog;

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

	/**
	 * Returns where the tools of a server that starts on first use are kept between runs
	 * of the application.
	 * @param server the server's configuration
	 * @return its catalog; by default none, so that such a server is started at each
	 * start of the application to list its tools
	 */
	default ToolCatalog catalog(McpServerSettings server) {
		return ToolCatalog.none();
	}

}
