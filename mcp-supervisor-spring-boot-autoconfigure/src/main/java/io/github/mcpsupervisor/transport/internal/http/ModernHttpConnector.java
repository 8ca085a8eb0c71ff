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
import io.github.mcpsupervisor.transport.internal.modern.Revision20260728;
import io.modelcontextprotocol.json.McpJsonDefaults;
import io.modelcontextprotocol.json.McpJsonMapper;

/**
 * Creates the generations of a Streamable HTTP server that speaks MCP revision
 * 2026-07-28, over the HTTP client the application's servers share.
 *
 * @since 0.1.0
 */
public final class ModernHttpConnector implements McpConnector, AutoCloseable {

	private final StreamableHttpServerDefinition definition;

	private final McpJsonMapper jsonMapper = McpJsonDefaults.getMapper();

	private final SharedHttpClient sharedClient;

	private final McpClientFactory clientFactory;

	private final McpServerSession session;

	private final boolean ownsClient;

	private final HttpAuthorization authorization;

	private final AtomicBoolean closed = new AtomicBoolean();

	// forget what this connector's supervisor registered with the authorization
	private final List<Runnable> registrations = new CopyOnWriteArrayList<>();

	/**
	 * Creates a connector with an HTTP client of its own, closed with it.
	 * @param definition how to reach the server
	 */
	public ModernHttpConnector(StreamableHttpServerDefinition definition) {
		this(definition, McpClientFactory.standard(), new McpServerSession(definition.name(), List.of()),
				HttpAuthorization.NONE, new SharedHttpClient(), true);
	}

	/**
	 * Creates a connector over the HTTP client the servers share.
	 * @param definition how to reach the server
	 * @param clientFactory what the application answers for the server (its handlers)
	 * @param session the server's client session
	 * @param authorization the token of the server's requests, if it has one
	 * @param httpClient the shared client, closed by its owner
	 */
	public ModernHttpConnector(StreamableHttpServerDefinition definition, McpClientFactory clientFactory,
			McpServerSession session, HttpAuthorization authorization, SharedHttpClient httpClient) {
		this(definition, clientFactory, session, authorization, httpClient, false);
	}

	private ModernHttpConnector(StreamableHttpServerDefinition definition, McpClientFactory clientFactory,
			McpServerSession session, HttpAuthorization authorization, SharedHttpClient httpClient,
			boolean ownsClient) {
		this.definition = definition;
		this.clientFactory = clientFactory;
		this.session = session;
		this.sharedClient = httpClient;
		this.ownsClient = ownsClient;
		this.authorization = authorization;
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
		Revision20260728 client = new Revision20260728(life,
				new ClientSetup(this.clientFactory, this.session, toolsChanged,
						new CallTimeouts(this.definition.requestTimeout(), this.definition.toolTimeouts()),
						this.definition.initializationTimeout()),
				this.jsonMapper);
		HttpCarrier carrier = new HttpCarrier(life, this.definition, this.authorization, current,
				new HttpBinding20260728(client, this.definition, this.jsonMapper, this.authorization));
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
