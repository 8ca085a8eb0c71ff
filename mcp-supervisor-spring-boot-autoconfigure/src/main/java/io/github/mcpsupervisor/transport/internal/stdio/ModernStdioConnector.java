package io.github.mcpsupervisor.transport.internal.stdio;

import java.util.List;
import java.util.concurrent.Executor;

import io.github.mcpsupervisor.client.internal.McpClientFactory;
import io.github.mcpsupervisor.client.internal.McpServerSession;
import io.github.mcpsupervisor.supervisor.McpConnection;
import io.github.mcpsupervisor.supervisor.McpConnector;
import io.github.mcpsupervisor.transport.StdioServerDefinition;
import io.github.mcpsupervisor.transport.internal.ClientConnection.ClientSetup;
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

	private final McpClientFactory clientFactory;

	private final McpServerSession session;

	/**
	 * Creates a connector whose processes are recorded until their trees are gone, for a
	 * server whose client session is its own and whose lists and updates go nowhere.
	 * @param definition how to run the server
	 * @param executor runs the short reaction to a process exit
	 * @param records where each generation's process is recorded
	 */
	public ModernStdioConnector(StdioServerDefinition definition, Executor executor, ProcessRecords records) {
		this(definition, executor, McpClientFactory.standard(), new McpServerSession(definition.name(), List.of()),
				records);
	}

	/**
	 * Creates a connector whose processes are recorded until their trees are gone.
	 * @param definition how to run the server
	 * @param executor runs the short reaction to a process exit
	 * @param clientFactory told of the server's new lists and updated resources
	 * @param session the server's client session: what every generation listens for
	 * @param records where each generation's process is recorded
	 */
	public ModernStdioConnector(StdioServerDefinition definition, Executor executor, McpClientFactory clientFactory,
			McpServerSession session, ProcessRecords records) {
		this.definition = definition;
		this.executor = executor;
		this.clientFactory = clientFactory;
		this.session = session;
		this.records = records;
	}

	@Override
	public McpConnection create(int generation, Runnable toolsChanged) {
		return new ModernStdioConnection(this.definition, generation,
				new ClientSetup(this.clientFactory, this.session, toolsChanged), this.executor,
				McpJsonDefaults.getMapper(), this.records);
	}

	@Override
	public String redact(String text) {
		return this.definition.redact(text);
	}

}
