package io.github.mcpsupervisor.transport;

import java.net.http.HttpClient;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicInteger;

import io.github.mcpsupervisor.client.McpClientFactory;
import io.github.mcpsupervisor.client.McpServerSession;
import io.github.mcpsupervisor.supervisor.McpConnection;
import io.github.mcpsupervisor.supervisor.McpConnector;
import io.github.mcpsupervisor.transport.ClientConnection.ClientSetup;
import io.modelcontextprotocol.json.McpJsonDefaults;
import io.modelcontextprotocol.json.McpJsonMapper;
import org.jspecify.annotations.Nullable;

/**
 * Creates the generations of one Streamable HTTP server: each a new client and session,
 * all over the server's one JDK {@link HttpClient}, which resumes the event streams the
 * server closes before their answer. {@link #close() Close} it once its supervisor has
 * stopped.
 */
public final class StreamableHttpConnector implements McpConnector, AutoCloseable {

	/** The connect timeout of the SDK's own clients. */
	static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(10);

	private final StreamableHttpServerDefinition definition;

	private final ExecutorService executor;

	private final McpClientFactory clientFactory;

	private final McpServerSession session;

	private final HttpTransportCustomizer transportCustomizer;

	private final McpJsonMapper jsonMapper = McpJsonDefaults.getMapper();

	private volatile @Nullable HttpClient httpClient;

	/**
	 * Creates a connector whose generations have plain clients.
	 * @param definition how to reach the server
	 */
	public StreamableHttpConnector(StreamableHttpServerDefinition definition) {
		this(definition, McpClientFactory.standard(), new McpServerSession(definition.name(), List.of()));
	}

	/**
	 * Creates a connector.
	 * @param definition how to reach the server
	 * @param clientFactory builds the client of each generation
	 * @param session the server's client session
	 */
	public StreamableHttpConnector(StreamableHttpServerDefinition definition, McpClientFactory clientFactory,
			McpServerSession session) {
		this(definition, clientFactory, session, HttpTransportCustomizer.NONE);
	}

	/**
	 * Creates a connector.
	 * @param definition how to reach the server
	 * @param clientFactory builds the client of each generation
	 * @param session the server's client session
	 * @param transportCustomizer what the application adds to each generation's transport
	 */
	public StreamableHttpConnector(StreamableHttpServerDefinition definition, McpClientFactory clientFactory,
			McpServerSession session, HttpTransportCustomizer transportCustomizer) {
		this.definition = definition;
		this.clientFactory = clientFactory;
		this.session = session;
		this.transportCustomizer = transportCustomizer;
		this.executor = Executors.newCachedThreadPool(daemonThreads("mcp-" + definition.name() + "-http-"));
		this.httpClient = new EventStreamResumingHttpClient(HttpClient.newBuilder()
			.version(HttpClient.Version.HTTP_1_1)
			.connectTimeout(CONNECT_TIMEOUT)
			.executor(this.executor)
			.build(), this.jsonMapper, definition.name());
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
				this.transportCustomizer);
	}

	/**
	 * Releases the HTTP client of the server: the threads of its executor end, and the
	 * selector thread of the JDK's client ends once the client is unreachable (Java 17's
	 * {@link HttpClient} has no {@code close()}; the one of Java 21 waits for exchanges
	 * in flight, which a shutdown should not).
	 */
	@Override
	public void close() {
		this.httpClient = null;
		this.executor.shutdown();
	}

	private static ThreadFactory daemonThreads(String prefix) {
		AtomicInteger count = new AtomicInteger();
		return (task) -> {
			Thread thread = new Thread(task, prefix + count.incrementAndGet());
			thread.setDaemon(true);
			return thread;
		};
	}

}
