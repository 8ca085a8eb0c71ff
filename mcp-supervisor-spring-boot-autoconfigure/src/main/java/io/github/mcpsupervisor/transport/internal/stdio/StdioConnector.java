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
import io.github.mcpsupervisor.transport.internal.Revision20251125;
import io.modelcontextprotocol.json.McpJsonDefaults;

/**
 * Creates the generations of one stdio server.
 *
 * @since 0.1.0
 */
public final class StdioConnector implements McpConnector {

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
	public StdioConnector(StdioServerDefinition definition, Executor executor) {
		this(definition, executor, McpClientFactory.standard(), new McpServerSession(definition.name(), List.of()));
	}

	/**
	 * Creates a connector.
	 * @param definition how to run the server
	 * @param executor runs the short reaction to a process exit
	 * @param clientFactory builds the client of each generation
	 * @param session the server's client session
	 */
	public StdioConnector(StdioServerDefinition definition, Executor executor, McpClientFactory clientFactory,
			McpServerSession session) {
		this(definition, executor, clientFactory, session, ProcessRecords.none());
	}

	/**
	 * Creates a connector whose processes are recorded until their trees are gone.
	 * @param definition how to run the server
	 * @param executor runs the short reaction to a process exit
	 * @param clientFactory builds the client of each generation
	 * @param session the server's client session
	 * @param records where each generation's process is recorded
	 */
	public StdioConnector(StdioServerDefinition definition, Executor executor, McpClientFactory clientFactory,
			McpServerSession session, ProcessRecords records) {
		this.records = records;
		this.definition = definition;
		this.executor = executor;
		this.clientFactory = clientFactory;
		this.session = session;
	}

	public StdioServerDefinition definition() {
		return this.definition;
	}

	@Override
	public McpConnection create(int generation, Runnable toolsChanged) {
		GenerationLife life = new GenerationLife(this.definition.name(), generation, "process ended",
				this.definition::redact);
		Revision20251125 client = new Revision20251125(life,
				new ClientSetup(this.clientFactory, this.session, toolsChanged,
						new CallTimeouts(this.definition.requestTimeout(), this.definition.toolTimeouts()),
						this.definition.initializationTimeout()));
		ProcessCarrier carrier = new ProcessCarrier(life, this.definition, this.executor, this.records,
				new StdioBinding20251125(client, life, McpJsonDefaults.getMapper()));
		return new GenerationConnection(life, carrier, client);
	}

	@Override
	public String redact(String text) {
		return this.definition.redact(text);
	}

}
