package io.github.mcpsupervisor.transport.internal.stdio;

import java.util.concurrent.Executor;

import io.github.mcpsupervisor.supervisor.McpConnection;
import io.github.mcpsupervisor.supervisor.McpConnector;
import io.github.mcpsupervisor.transport.StdioServerDefinition;
import io.modelcontextprotocol.json.McpJsonDefaults;

/**
 * Creates the generations of a stdio server that speaks MCP revision 2026-07-28.
 *
 * @since 0.1.0
 */
public final class ModernStdioConnector implements McpConnector {

	private final StdioServerDefinition definition;

	private final Executor executor;

	private final ProcessRecords records;

	/**
	 * Creates a connector whose processes are recorded until their trees are gone.
	 * @param definition how to run the server
	 * @param executor runs the short reaction to a process exit
	 * @param records where each generation's process is recorded
	 */
	public ModernStdioConnector(StdioServerDefinition definition, Executor executor, ProcessRecords records) {
		this.definition = definition;
		this.executor = executor;
		this.records = records;
	}

	@Override
	public McpConnection create(int generation, Runnable toolsChanged) {
		return new ModernStdioConnection(this.definition, generation, toolsChanged, this.executor,
				McpJsonDefaults.getMapper(), this.records);
	}

	@Override
	public String redact(String text) {
		return this.definition.redact(text);
	}

}
