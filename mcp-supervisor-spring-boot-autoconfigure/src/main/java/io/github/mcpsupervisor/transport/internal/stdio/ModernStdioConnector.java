package io.github.mcpsupervisor.transport.internal.stdio;

import java.util.List;
import java.util.concurrent.Executor;

import io.github.mcpsupervisor.client.internal.McpClientFactory;
import io.github.mcpsupervisor.client.internal.McpServerSession;
import io.github.mcpsupervisor.supervisor.McpConnection;
import io.github.mcpsupervisor.supervisor.McpConnector;
import io.github.mcpsupervisor.transport.StdioServerDefinition;
import io.github.mcpsupervisor.transport.internal.CallTimeouts;
import io.github.mcpsupervisor.transport.internal.ClientSetup;
import io.github.mcpsupervisor.transport.internal.GenerationConnection;
import io.github.mcpsupervisor.transport.internal.GenerationLife;
import io.github.mcpsupervisor.transport.internal.modern.Revision20260728;
import io.modelcontextprotocol.json.McpJsonDefaults;
import io.modelcontextprotocol.json.McpJsonMapper;

/**
 * Creates the generations of a stdio server that speaks MCP revision 2026-07-28.
 *
 * @since 0.1.0
 */
public final class ModernStdioConnector implements McpConnector {

	private final StdioServerDefinition definition;

	private final Executor executor;

	private final McpClientFactory clientFactory;

	private final McpServerSession session;

	private final ProcessRecords records;

	/**
	 * Creates a connector whose generations have plain clients.
	 * @param definition how to run the server
	 * @param executor runs the short reaction to a process exit
	 */
	public ModernStdioConnector(StdioServerDefinition definition, Executor executor) {
		this(definition, executor, McpClientFactory.standard(), new McpServerSession(definition.name(), List.of()),
				ProcessRecords.none());
	}

	/**
	 * Creates a connector whose processes are recorded until their trees are gone.
	 * @param definition how to run the server
	 * @param executor runs the short reaction to a process exit
	 * @param clientFactory what the application answers for the server (its handlers)
	 * @param session the server's client session
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
		GenerationLife life = new GenerationLife(this.definition.name(), generation, "process ended",
				this.definition::redact);
		McpJsonMapper jsonMapper = McpJsonDefaults.getMapper();
		Revision20260728 client = new Revision20260728(life,
				new ClientSetup(this.clientFactory, this.session, toolsChanged,
						new CallTimeouts(this.definition.requestTimeout(), this.definition.toolTimeouts()),
						this.definition.initializationTimeout()),
				jsonMapper);
		ProcessCarrier carrier = new ProcessCarrier(life, this.definition, this.executor, this.records,
				new StdioBinding20260728(client, jsonMapper));
		return new GenerationConnection(life, carrier, client);
	}

	@Override
	public String redact(String text) {
		return this.definition.redact(text);
	}

}
