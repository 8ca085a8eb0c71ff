package io.github.mcpsupervisor.transport.internal.http;

import java.net.http.HttpClient;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;

import io.github.mcpsupervisor.client.internal.McpClientFactory;
import io.github.mcpsupervisor.client.internal.McpServerSession;
import io.github.mcpsupervisor.supervisor.McpConnection;
import io.github.mcpsupervisor.supervisor.McpConnector;
import io.github.mcpsupervisor.transport.StreamableHttpServerDefinition;
import io.github.mcpsupervisor.transport.internal.CallTimeouts;
import io.github.mcpsupervisor.transport.internal.ClientSetup;
import io.github.mcpsupervisor.transport.internal.GenerationConnection;
import io.github.mcpsupervisor.transport.internal.GenerationLife;
import io.github.mcpsupervisor.transport.internal.Revision20251125;
import io.modelcontextprotocol.json.McpJsonDefaults;
import io.modelcontextprotocol.json.McpJsonMapper;

/**
 * Creates the generations of one Streamable HTTP server: each a new client and session,
 * all over the application's shared JDK {@link HttpClient}, through a view of it that
 * resumes the event streams this server closes before their answer. {@link #close()
 * Close} it once its supervisor has stopped.
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

	/**
	 * Creates a connector whose generations have plain clients, over an HTTP client of
	 * its own.
	 * @param definition how to reach the server
	 */
	public StreamableHttpConnector(StreamableHttpServerDefinition definition) {
		this(definition, McpClientFactory.standard(), new McpServerSession(definition.name(), List.of()));
	}

	/**
	 * Creates a connector over an HTTP client of its own.
	 * @param definition how to reach the server
	 * @param clientFactory builds the client of each generation
	 * @param session the server's client session
	 */
	public StreamableHttpConnector(StreamableHttpServerDefinition definition, McpClientFactory clientFactory,
			McpServerSession session) {
		this(definition, clientFactory, session, HttpTransportCustomizer.NONE, HttpAuthorization.NONE,
				new SharedHttpClient(), true);
	}

	/**
	 * Creates a connector over the application's shared HTTP client, which it does not
	 * close.
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
		this(definition, clientFactory, session, transportCustomizer, authorization, httpClient, false);
	}

	private StreamableHttpConnector(StreamableHttpServerDefinition definition, McpClientFactory clientFactory,
			McpServerSession session, HttpTransportCustomizer transportCustomizer, HttpAuthorization authorization,
			SharedHttpClient httpClient, boolean ownsClient) {
		this.definition = definition;
		this.clientFactory = clientFactory;
		this.session = session;
		this.transportCustomizer = transportCustomizer;
		this.authorization = authorization;
		this.sharedClient = httpClient;
		this.ownsClient = ownsClient;
	}

	public StreamableHttpServerDefinition definition() {
		return this.definition;
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
		Revision20251125 client = new Revision20251125(life,
				new ClientSetup(this.clientFactory, this.session, toolsChanged,
						new CallTimeouts(this.definition.requestTimeout(), this.definition.toolTimeouts()),
						this.definition.initializationTimeout()));
		HttpCarrier carrier = new HttpCarrier(life, this.definition, this.authorization, current,
				new HttpBinding20251125(client, life, this.definition, this.jsonMapper, this.transportCustomizer,
						this.authorization));
		return new GenerationConnection(life, carrier, client);
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
