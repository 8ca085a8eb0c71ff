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
 * Creates the generations of a Streamable HTTP server that speaks MCP revision
 * 2026-07-28, over the HTTP client the application's servers share.
 *
 * @since 0.1.0
 */
public final class ModernHttpConnector implements McpConnector, AutoCloseable {

	private final StreamableHttpServerDefinition definition;

	private final McpJsonMapper jsonMapper = McpJsonDefaults.getMapper();

	private final SharedHttpClient sharedClient;

	private final boolean ownsClient;

	private final McpClientFactory clientFactory;

	private final McpServerSession session;

	private volatile @Nullable HttpClient httpClient;

	/**
	 * Creates a connector with an HTTP client of its own, closed with it, for a server
	 * whose client session is its own and whose lists and updates go nowhere.
	 * @param definition how to reach the server
	 */
	public ModernHttpConnector(StreamableHttpServerDefinition definition) {
		this(definition, McpClientFactory.standard(), new McpServerSession(definition.name(), List.of()),
				new SharedHttpClient(), true);
	}

	/**
	 * Creates a connector over the HTTP client the servers share, for a server whose
	 * client session is its own and whose lists and updates go nowhere.
	 * @param definition how to reach the server
	 * @param httpClient the shared client, closed by its owner
	 */
	public ModernHttpConnector(StreamableHttpServerDefinition definition, SharedHttpClient httpClient) {
		this(definition, McpClientFactory.standard(), new McpServerSession(definition.name(), List.of()), httpClient,
				false);
	}

	/**
	 * Creates a connector over the HTTP client the servers share.
	 * @param definition how to reach the server
	 * @param clientFactory told of the server's new lists and updated resources
	 * @param session the server's client session: what every generation listens for
	 * @param httpClient the shared client, closed by its owner
	 */
	public ModernHttpConnector(StreamableHttpServerDefinition definition, McpClientFactory clientFactory,
			McpServerSession session, SharedHttpClient httpClient) {
		this(definition, clientFactory, session, httpClient, false);
	}

	private ModernHttpConnector(StreamableHttpServerDefinition definition, McpClientFactory clientFactory,
			McpServerSession session, SharedHttpClient httpClient, boolean ownsClient) {
		this.definition = definition;
		this.clientFactory = clientFactory;
		this.session = session;
		this.sharedClient = httpClient;
		this.ownsClient = ownsClient;
		this.httpClient = httpClient.client();
	}

	@Override
	public McpConnection create(int generation, Runnable toolsChanged) {
		HttpClient current = this.httpClient;
		if (current == null) {
			throw new IllegalStateException("The connector of MCP server '" + this.definition.name() + "' is closed");
		}
		return new ModernHttpConnection(this.definition, generation,
				new ClientSetup(this.clientFactory, this.session, toolsChanged), this.jsonMapper, current);
	}

	@Override
	public void close() {
		this.httpClient = null;
		if (this.ownsClient) {
			this.sharedClient.close();
		}
	}

	@Override
	public String redact(String text) {
		return this.definition.redact(text);
	}

}
