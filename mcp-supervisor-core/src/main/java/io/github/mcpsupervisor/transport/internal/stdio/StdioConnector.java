package io.github.mcpsupervisor.transport.internal.stdio;

import java.util.List;
import java.util.concurrent.Executor;

import io.github.mcpsupervisor.client.internal.McpClientFactory;
import io.github.mcpsupervisor.client.internal.McpServerSession;
import io.github.mcpsupervisor.supervisor.McpConnector;
import io.github.mcpsupervisor.supervisor.McpConnector.McpConnection;
import io.github.mcpsupervisor.transport.StdioServerDefinition;
import io.github.mcpsupervisor.transport.internal.CallTimeouts;
import io.github.mcpsupervisor.transport.internal.ClientSetup;
import io.github.mcpsupervisor.transport.internal.GenerationConnection;
import io.github.mcpsupervisor.transport.internal.GenerationLife;
import io.github.mcpsupervisor.transport.internal.Revision20251125;
import io.github.mcpsupervisor.transport.internal.Revisions;
import io.github.mcpsupervisor.transport.internal.modern.Revision20260728;
import io.modelcontextprotocol.json.McpJsonDefaults;
import io.modelcontextprotocol.json.McpJsonMapper;

/**
 * Creates the generations of one stdio server, each a process of its own that speaks the
 * connector's MCP revision.
 *
 * @since 0.1.0
 */
public final class StdioConnector implements McpConnector {

	private final StdioServerDefinition definition;

	private final Executor executor;

	private final McpClientFactory clientFactory;

	private final McpServerSession session;

	private final ProcessRecords records;

	private final String revision;

	private final StartGate starts;

	/**
	 * Creates a connector whose generations have plain 2025-11-25 clients.
	 * @param definition how to run the server
	 * @param executor runs the short reaction to a process exit
	 */
	public StdioConnector(StdioServerDefinition definition, Executor executor) {
		this(definition, executor, Revisions.V2025_11_25);
	}

	/**
	 * Creates a connector whose generations have plain clients.
	 * @param definition how to run the server
	 * @param executor runs the short reaction to a process exit
	 * @param revision the MCP revision the generations speak, one of
	 * {@link Revisions#SUPPORTED}
	 */
	public StdioConnector(StdioServerDefinition definition, Executor executor, String revision) {
		this(definition, executor, McpClientFactory.standard(), new McpServerSession(definition.name(), List.of()),
				ProcessRecords.none(), revision);
	}

	/**
	 * Creates a connector whose generations speak 2025-11-25.
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
	 * Creates a connector whose generations speak 2025-11-25, their processes recorded
	 * until their trees are gone.
	 * @param definition how to run the server
	 * @param executor runs the short reaction to a process exit
	 * @param clientFactory builds the client of each generation
	 * @param session the server's client session
	 * @param records where each generation's process is recorded
	 */
	public StdioConnector(StdioServerDefinition definition, Executor executor, McpClientFactory clientFactory,
			McpServerSession session, ProcessRecords records) {
		this(definition, executor, clientFactory, session, records, Revisions.V2025_11_25);
	}

	/**
	 * Creates a connector whose processes are recorded until their trees are gone.
	 * @param definition how to run the server
	 * @param executor runs the short reaction to a process exit
	 * @param clientFactory builds the client of each generation, and answers what the
	 * server asks of the application
	 * @param session the server's client session
	 * @param records where each generation's process is recorded
	 * @param revision the MCP revision the generations speak, one of
	 * {@link Revisions#SUPPORTED}
	 */
	public StdioConnector(StdioServerDefinition definition, Executor executor, McpClientFactory clientFactory,
			McpServerSession session, ProcessRecords records, String revision) {
		this(definition, executor, clientFactory, session, records, revision, StartGate.unbounded());
	}

	/**
	 * Creates a connector whose processes are recorded until their trees are gone, and
	 * whose generations start within the bound of the application's starts.
	 * @param definition how to run the server
	 * @param executor runs the short reaction to a process exit
	 * @param clientFactory builds the client of each generation, and answers what the
	 * server asks of the application
	 * @param session the server's client session
	 * @param records where each generation's process is recorded
	 * @param revision the MCP revision the generations speak, one of
	 * {@link Revisions#SUPPORTED}
	 * @param starts the bound on the stdio servers the application starts at once, shared
	 * by all its stdio connectors
	 */
	public StdioConnector(StdioServerDefinition definition, Executor executor, McpClientFactory clientFactory,
			McpServerSession session, ProcessRecords records, String revision, StartGate starts) {
		this.definition = definition;
		this.executor = executor;
		this.clientFactory = clientFactory;
		this.session = session;
		this.records = records;
		this.revision = Revisions.require(revision);
		this.starts = starts;
	}

	public StdioServerDefinition definition() {
		return this.definition;
	}

	/**
	 * Returns the MCP revision the generations speak.
	 * @return the revision's date
	 */
	public String revision() {
		return this.revision;
	}

	// the application's subscriptions would lose their updates while it is stopped
	@Override
	public boolean keepsAwake() {
		return !this.session.subscriptions().isEmpty();
	}

	/**
	 * Returns the bound on the starts that the generations start within.
	 * @return the bound, which the application's other stdio connectors share
	 */
	public StartGate starts() {
		return this.starts;
	}

	@Override
	public McpConnection create(int generation, Runnable toolsChanged) {
		GenerationLife life = new GenerationLife(this.definition.name(), generation, "process ended",
				this.definition::redact);
		StdioBinding binding = binding(life,
				new ClientSetup(this.clientFactory, this.session, toolsChanged,
						new CallTimeouts(this.definition.requestTimeout(), this.definition.toolTimeouts()),
						this.definition.initializationTimeout()));
		return new GenerationConnection(life,
				new ProcessCarrier(life, this.definition, this.executor, this.records, binding, this.starts),
				binding.client());
	}

	// The client of the connector's revision over the pipes of the generation's process:
	// a revision's SDK glue is loaded only for a server that speaks it.
	private StdioBinding binding(GenerationLife life, ClientSetup setup) {
		McpJsonMapper jsonMapper = McpJsonDefaults.getMapper();
		return switch (this.revision) {
			case Revisions.V2026_07_28 ->
				new StdioBinding20260728(new Revision20260728(life, setup, jsonMapper), jsonMapper);
			default -> new StdioBinding20251125(new Revision20251125(life, setup), life, jsonMapper);
		};
	}

	@Override
	public String redact(String text) {
		return this.definition.redact(text);
	}

}
