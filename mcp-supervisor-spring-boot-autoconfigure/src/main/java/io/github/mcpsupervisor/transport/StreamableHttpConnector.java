package io.github.mcpsupervisor.transport;

import io.github.mcpsupervisor.supervisor.McpConnection;
import io.github.mcpsupervisor.supervisor.McpConnector;
import io.modelcontextprotocol.json.McpJsonDefaults;

/**
 * Creates the generations of one Streamable HTTP server: each a new client and session.
 */
public final class StreamableHttpConnector implements McpConnector {

	private final StreamableHttpServerDefinition definition;

	public StreamableHttpConnector(StreamableHttpServerDefinition definition) {
		this.definition = definition;
	}

	public StreamableHttpServerDefinition definition() {
		return this.definition;
	}

	@Override
	public McpConnection create(int generation, Runnable toolsChanged) {
		return new StreamableHttpConnection(this.definition, generation, toolsChanged, McpJsonDefaults.getMapper());
	}

}
