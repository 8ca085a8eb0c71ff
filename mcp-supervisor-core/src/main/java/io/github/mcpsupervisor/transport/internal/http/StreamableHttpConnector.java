package io.github.mcpsupervisor.transport.internal.http;

import java.net.http.HttpClient;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;

import io.github.mcpsupervisor.client.internal.McpClientFactory;
import io.github.mcpsupervisor.client.internal.McpServerSession;
import io.github.mcpsupervisor.supervisor.McpConnector;
import io.github.mcpsupervisor.supervisor.McpConnector.McpConnection;
import io.github.mcpsupervisor.transport.StreamableHttpServerDefinition;
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
 * Creates the generations of one Streamable HTTP server: each a new client (and, in
 * 2025-11-25, a new session) in the connector's MCP revision, all over the application's
 * shared JDK {@link HttpClient}. {@link #close() Close} it once its supervisor has
 * stopped.
 *
 * @since 0.1.0
 */
public final class StreamableHttpConnector implements McpConnector, AutoCloseable {

	private final StreamableHttpServerDefinition definition;

	private final McpClientFactory clientFactory;

	private final McpServerSession session;

	private final HttpTransportCustomizer transportCustomizer;

	private final HttpAuthorization authorization;

	private final McpJsonMapper jsonMapper = McpJsonDefaults.getMapper();

	private final SharedHttpClient sharedClient;

	private final boolean ownsClient;

	private final AtomicBoolean closed = new AtomicBoolean();

	// forget what this connector's supervisor registered with the authorization
	private final List<Runnable> registrations = new CopyOnWriteArrayList<>();

	private final String revision;

	/**
	 * Creates a connector whose generations have plain 2025-11-25 clients, over an HTTP
	 * client of its own.
	 * @param definition how to reach the server
	 */
	public StreamableHttpConnector(StreamableHttpServerDefinition definition) {
		this(definition, Revisions.V2025_11_25);
	}

	/**
	 * Creates a connector whose generations have plain clients, over an HTTP client of
	 * its own.
	 * @param definition how to reach the server
	 * @param revision the MCP revision the generations speak, one of
	 * {@link Revisions#SUPPORTED}
	 */
	public StreamableHttpConnector(StreamableHttpServerDefinition definition, String revision) {
		this(definition, McpClientFactory.standard(), new McpServerSession(definition.name(), List.of()),
				HttpTransportCustomizer.NONE, HttpAuthorization.NONE, new SharedHttpClient(), revision, true);
	}

	/**
	 * Creates a connector whose generations speak 2025-11-25, over an HTTP client of its
	 * own.
	 * @param definition how to reach the server
	 * @param clientFactory builds the client of each generation
	 * @param session the server's client session
	 */
	public StreamableHttpConnector(StreamableHttpServerDefinition definition, McpClientFactory clientFactory,
			McpServerSession session) {
		this(definition, clientFactory, session, HttpTransportCustomizer.NONE, HttpAuthorization.NONE,
				new SharedHttpClient(), Revisions.V2025_11_25, true);
	}

	/**
	 * Creates a connector whose generations speak 2025-11-25, over the application's
	 * shared HTTP client, which it does not close.
	 * @param definition how to reach the server
	 * @param clientFactory builds the client of each generation
	 * @param session the server's client session
	 * @param transportCustomizer what the application adds to each generation's transport
	 * @param authorization the token of the server's requests, if it has one
	 * @param httpClient the HTTP client shared by the servers
	 */
	public StreamableHttpConnector(StreamableHttpServerDefinition definition, McpClientFactory clientFactory,
			McpServerSession session, HttpTransportCustomizer transportCustomizer, HttpAuthorization authorization,
			SharedHttpClient httpClient) {
		this(definition, clientFactory, session, transportCustomizer, authorization, httpClient, Revisions.V2025_11_25,
				false);
	}

	/**
	 * Creates a connector over the application's shared HTTP client, which it does not
	 * close.
	 * @param definition how to reach the server
	 * @param clientFactory builds the client of each generation, and answers what the
	 * server asks of the application
	 * @param session the server's client session
	 * @param transportCustomizer what the application adds to each generation's
	 * transport, which only the 2025-11-25 transport takes
	 * @param authorization the token of the server's requests, if it has one
	 * @param httpClient the HTTP client shared by the servers
	 * @param revision the MCP revision the generations speak, one of
	 * {@link Revisions#SUPPORTED}
	 */
	public StreamableHttpConnector(StreamableHttpServerDefinition definition, McpClientFactory clientFactory,
			McpServerSession session, HttpTransportCustomizer transportCustomizer, HttpAuthorization authorization,
			SharedHttpClient httpClient, String revision) {
		this(definition, clientFactory, session, transportCustomizer, authorization, httpClient, revision, false);
	}

	private StreamableHttpConnector(StreamableHttpServerDefinition definition, McpClientFactory clientFactory,
			McpServerSession session, HttpTransportCustomizer transportCustomizer, HttpAuthorization authorization,
			SharedHttpClient httpClient, String revision, boolean ownsClient) {
		this.definition = definition;
		this.clientFactory = clientFactory;
		this.session = session;
		this.transportCustomizer = transportCustomizer;
		this.authorization = authorization;
		this.sharedClient = httpClient;
		this.revision = Revisions.require(revision);
		this.ownsClient = ownsClient;
	}

	public StreamableHttpServerDefinition definition() {
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

	@Override
	public McpConnection create(int generation, Runnable toolsChanged) {
		if (this.closed.get()) {
			throw new IllegalStateException("The connector of MCP server '" + this.definition.name() + "' is closed");
		}
		// the shared client is asked each time: once it is closed, nothing here keeps
		// its selector thread reachable
		HttpClient current = this.sharedClient.client();
		GenerationLife life = new GenerationLife(this.definition.name(), generation, "connection closed",
				this.definition::redact);
		HttpBinding binding = binding(life,
				new ClientSetup(this.clientFactory, this.session, toolsChanged,
						new CallTimeouts(this.definition.requestTimeout(), this.definition.toolTimeouts()),
						this.definition.initializationTimeout()));
		return new GenerationConnection(life,
				new HttpCarrier(life, this.definition, this.authorization, current, binding), binding.client());
	}

	// The client of the connector's revision over the generation's HTTP client: a
	// revision's SDK glue is loaded only for a server that speaks it.
	private HttpBinding binding(GenerationLife life, ClientSetup setup) {
		return switch (this.revision) {
			case Revisions.V2026_07_28 -> new HttpBinding20260728(new Revision20260728(life, setup, this.jsonMapper),
					this.definition, this.jsonMapper, this.authorization);
			default -> new HttpBinding20251125(new Revision20251125(life, setup), life, this.definition,
					this.jsonMapper, this.transportCustomizer, this.authorization);
		};
	}

	/**
	 * Closes the connector: no generation is created any more, what its supervisor
	 * registered with the server's authorization is forgotten, an HTTP client of its own
	 * is closed and a shared one released.
	 */
	@Override
	public void close() {
		if (!this.closed.compareAndSet(false, true)) {
			return;
		}
		this.registrations.forEach(Runnable::run);
		this.registrations.clear();
		if (this.ownsClient) {
			this.sharedClient.close();
		}
		else {
			this.sharedClient.release();
		}
	}

	@Override
	public void whenAuthorized(Runnable authorized) {
		this.registrations.add(this.authorization.whenAuthorized(authorized));
	}

	@Override
	public String redact(String text) {
		return this.definition.redact(text);
	}

}
