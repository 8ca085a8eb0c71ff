package io.github.mcpsupervisor.transport;

import java.util.concurrent.Executor;

import io.github.mcpsupervisor.supervisor.McpConnection;
import io.github.mcpsupervisor.supervisor.McpConnector;
import io.modelcontextprotocol.json.McpJsonDefaults;

/**
 * Creates the generations of one stdio server.
 */
public final class StdioConnector implements McpConnector {

	private final StdioServerDefinition definition;

	private final Executor executor;

	/**
	 * Creates a connector.
	 * @param definition how to run the server
	 * @param executor runs the short reaction to a process exit
	 */
	public StdioConnector(StdioServerDefinition definition, Executor executor) {
		this.definition = definition;
		this.executor = executor;
	}

	public StdioServerDefinition definition() {
		return this.definition;
	}

	@Override
	public McpConnection create(int generation, Runnable toolsChanged) {
		return new StdioConnection(this.definition, generation, toolsChanged, this.executor,
				McpJsonDefaults.getMapper());
	}

}
