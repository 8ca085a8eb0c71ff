package io.github.mcpsupervisor.transport.internal.http;

import java.net.http.HttpClient;
import java.util.List;

import io.github.mcpsupervisor.client.internal.McpClientFactory;
import io.github.mcpsupervisor.client.internal.McpServerSession;
import io.github.mcpsupervisor.supervisor.McpConnection;
import io.github.mcpsupervisor.supervisor.McpConnector;
import io.github.mcpsupervisor.transport.StreamableHttpServerDefinition;
import io.github.mcpsupervisor.transport.internal.ClientConnection.ClientSetup;
import io.modelcontextprotocol.json.McpJsonDefaults;
import io.modelcontextprotocol.json.McpJsonMapper;
import org.jspecify.annotations.Nullable;

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

	// released at close: the JDK client's selector thread ends once it is unreachable
	private volatile @Nullable HttpClient httpClient;

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
		this.httpClient = new EventStreamResumingHttpClient(httpClient.client(), this.jsonMapper, definition.name());
	}

	public StreamableHttpServerDefinition definition() {
		return this.definition;
	}

	@Override
	public McpConnection create(int generation, Runnable toolsChanged) {
		HttpClient current = this.httpClient;
		if (current == null) {
			throw new IllegalStateException("The connector of MCP server '" + this.definition.name() + "' is closed");
		}
		return new StreamableHttpConnection(this.definition, generation,
				new ClientSetup(this.clientFactory, this.session, toolsChanged), this.jsonMapper, current,
				this.transportCustomizer, this.authorization);
	}

	/**
	 * Closes the connector: no generation is created any more, and an HTTP client of its
	 * own is released.
	 */
	@Override
	public void close() {
		this.httpClient = null;
		if (this.ownsClient) {
			this.sharedClient.close();
		}
	}

	@Override
	public void whenAuthorized(Runnable authorized) {
		this.authorization.whenAuthorized(authorized);
	}

	@Override
	public String redact(String text) {
		return this.definition.redact(text);
	}

}
