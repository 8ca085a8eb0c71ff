package io.github.mcpsupervisor.transport;

import java.io.IOException;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;

import io.modelcontextprotocol.client.McpAsyncClient;
import io.modelcontextprotocol.client.transport.HttpClientStreamableHttpTransport;
import io.modelcontextprotocol.client.transport.McpHttpClientTransportAuthorizationException;
import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.spec.McpError;
import io.modelcontextprotocol.spec.McpSchema.CallToolRequest;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import io.modelcontextprotocol.spec.McpSchema.Tool;
import io.modelcontextprotocol.spec.McpTransportException;
import io.modelcontextprotocol.spec.McpTransportSessionNotFoundException;
import org.jspecify.annotations.Nullable;

import io.github.mcpsupervisor.supervisor.ExitStatus;
import io.github.mcpsupervisor.supervisor.McpConnectException;
import io.github.mcpsupervisor.supervisor.McpConnectException.Kind;
import io.github.mcpsupervisor.supervisor.McpConnection;

/**
 * One generation of a Streamable HTTP server: its own client and session. A transport
 * failure (refused or reset connection, lost session) ends the generation at once, so
 * that the supervisor reconnects with a new client and session; an HTTP 401 or 403 is a
 * configuration error.
 */
final class StreamableHttpConnection implements McpConnection {

	private final StreamableHttpServerDefinition definition;

	private final int generation;

	private final Runnable toolsChanged;

	private final McpJsonMapper jsonMapper;

	private final CompletableFuture<ExitStatus> lost = new CompletableFuture<>();

	private volatile @Nullable McpAsyncClient client;

	private volatile String lossReason = "connection closed";

	private volatile List<Tool> tools = List.of();

	StreamableHttpConnection(StreamableHttpServerDefinition definition, int generation, Runnable toolsChanged,
			McpJsonMapper jsonMapper) {
		this.definition = definition;
		this.generation = generation;
		this.toolsChanged = toolsChanged;
		this.jsonMapper = jsonMapper;
	}

	@Override
	public int generation() {
		return this.generation;
	}

	@Override
	public void open() throws McpConnectException {
		URI url = this.definition.url();
		String base = url.getScheme() + "://" + url.getRawAuthority();
		String endpoint = (url.getRawPath() == null || url.getRawPath().isEmpty()) ? "/" : url.getRawPath();
		if (url.getRawQuery() != null) {
			endpoint = endpoint + "?" + url.getRawQuery();
		}
		HttpClientStreamableHttpTransport transport = HttpClientStreamableHttpTransport.builder(base)
			.endpoint(endpoint)
			.jsonMapper(this.jsonMapper)
			.httpRequestCustomizer((request, method, uri, body, context) -> this.definition.headers()
				.forEach(request::header))
			.build();
		McpAsyncClient created = McpClients.create(transport, this.definition.requestTimeout(),
				this.definition.initializationTimeout(), this.toolsChanged);
		this.client = created;
		try {
			created.initialize().block();
			this.tools = McpClients.requireResult(created.listTools().block()).tools();
		}
		catch (RuntimeException ex) {
			closeClient();
			McpHttpClientTransportAuthorizationException denied = McpClients.cause(ex,
					McpHttpClientTransportAuthorizationException.class);
			if (denied != null) {
				throw new McpConnectException(Kind.CONFIGURATION, "HTTP " + denied.getResponseInfo().statusCode()
						+ " from " + url + ": the server refuses these credentials (check the headers)", null, ex);
			}
			throw new McpConnectException(Kind.TRANSIENT,
					"cannot connect to " + url + ": " + McpClients.rootMessage(ex), null, ex);
		}
	}

	@Override
	public List<Tool> tools() {
		return this.tools;
	}

	@Override
	public List<Tool> listTools() {
		try {
			return McpClients.requireResult(requireClient().listTools().block()).tools();
		}
		catch (RuntimeException ex) {
			endIfTransportFailed(ex);
			throw ex;
		}
	}

	@Override
	public CallToolResult callTool(CallToolRequest request) {
		try {
			return McpClients.requireResult(requireClient().callTool(request).block());
		}
		catch (McpError ex) {
			throw ex; // the server answered
		}
		catch (RuntimeException ex) {
			endIfTransportFailed(ex);
			throw ex;
		}
	}

	@Override
	public boolean ping(Duration timeout) {
		McpAsyncClient current = this.client;
		if (current == null || this.lost.isDone()) {
			return false;
		}
		RuntimeException failure = McpClients.ping(current, timeout);
		if (failure != null) {
			endIfTransportFailed(failure);
		}
		return failure == null;
	}

	@Override
	public CompletableFuture<ExitStatus> onLost() {
		return this.lost;
	}

	@Override
	public String lossReason() {
		return this.lossReason;
	}

	@Override
	public void closeClient() {
		McpAsyncClient current = this.client;
		try {
			if (current != null) {
				current.close();
			}
		}
		catch (RuntimeException ex) {
			// the SDK's close can race with a re-initialization a dying call started
		}
	}

	@Override
	public boolean terminate() {
		end("closed by the supervisor");
		return true;
	}

	@Override
	public @Nullable Long pid() {
		return null;
	}

	@Override
	public List<String> stderrTail() {
		return List.of();
	}

	/**
	 * Ends the generation when the failure is the transport's: a refused or reset
	 * connection, a lost session, a refusal of the credentials.
	 */
	private void endIfTransportFailed(RuntimeException ex) {
		McpHttpClientTransportAuthorizationException denied = McpClients.cause(ex,
				McpHttpClientTransportAuthorizationException.class);
		if (denied != null) {
			end("HTTP " + denied.getResponseInfo().statusCode() + " from " + this.definition.url());
		}
		else if (McpClients.cause(ex, McpTransportSessionNotFoundException.class) != null) {
			end("session not found (the server forgot it, e.g. after a restart)");
		}
		else if (McpClients.cause(ex, IOException.class) != null
				|| McpClients.cause(ex, McpTransportException.class) != null) {
			end("transport failure: " + McpClients.rootMessage(ex));
		}
	}

	private void end(String reason) {
		if (!this.lost.isDone()) {
			this.lossReason = reason;
			this.lost.complete(null);
		}
		closeClient();
	}

	private McpAsyncClient requireClient() {
		McpAsyncClient current = this.client;
		if (current == null || this.lost.isDone()) {
			throw new IllegalStateException("generation " + this.generation + " of MCP server '"
					+ this.definition.name() + "' is not connected");
		}
		return current;
	}




}
