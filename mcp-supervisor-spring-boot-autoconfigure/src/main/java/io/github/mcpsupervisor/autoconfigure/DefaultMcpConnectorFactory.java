package io.github.mcpsupervisor.autoconfigure;

import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Supplier;

import io.github.mcpsupervisor.autoconfigure.internal.McpConnectorFactory;
import io.github.mcpsupervisor.autoconfigure.properties.internal.McpProtocol;
import io.github.mcpsupervisor.autoconfigure.properties.internal.McpServerSettings;
import io.github.mcpsupervisor.client.internal.McpClientFactory;
import io.github.mcpsupervisor.client.internal.McpServerSessions;
import io.github.mcpsupervisor.supervisor.McpConnector;
import io.github.mcpsupervisor.supervisor.SupervisorScheduler;
import io.github.mcpsupervisor.supervisor.ToolCatalog;
import io.github.mcpsupervisor.transport.internal.Revisions;
import io.github.mcpsupervisor.transport.internal.http.HttpAuthorization;
import io.github.mcpsupervisor.transport.internal.http.HttpAuthorizations;
import io.github.mcpsupervisor.transport.internal.http.HttpClientSettings;
import io.github.mcpsupervisor.transport.internal.http.HttpTls;
import io.github.mcpsupervisor.transport.internal.http.HttpTransportCustomizer;
import io.github.mcpsupervisor.transport.internal.http.SharedHttpClient;
import io.github.mcpsupervisor.transport.internal.http.SharedHttpClients;
import io.github.mcpsupervisor.transport.internal.http.StreamableHttpConnector;
import io.github.mcpsupervisor.transport.internal.http.TransportCustomizerCheck;
import io.github.mcpsupervisor.transport.internal.modern.NegotiatedRevision;
import io.github.mcpsupervisor.transport.internal.modern.NegotiatingConnector;
import io.github.mcpsupervisor.transport.internal.stdio.ProcessRecords;
import io.github.mcpsupervisor.transport.internal.stdio.StartGate;
import io.github.mcpsupervisor.transport.internal.stdio.StdioConnector;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

import org.springframework.beans.factory.DisposableBean;
import org.springframework.util.ClassUtils;

/**
 * Creates the connector of each configured server by its transport, over the JDK HTTP
 * client of the server's HTTP settings, which servers with equal settings share; the
 * stdio servers, those added at runtime too, share one bound on their starts.
 */
final class DefaultMcpConnectorFactory implements McpConnectorFactory, DisposableBean {

	/** A class of the SDK's 2026-07-28 client. */
	static final String MODERN_CLIENT = "io.modelcontextprotocol.modern.client.McpClient";

	/** The first SDK version with a 2026-07-28 client. */
	static final String MODERN_SDK_VERSION = "2.2.0";

	private static final Log logger = LogFactory.getLog(DefaultMcpConnectorFactory.class);

	private final SupervisorScheduler scheduler;

	private final McpClientFactory clientFactory;

	private final McpServerSessions sessions;

	private final HttpTransportCustomizer httpCustomizer;

	private final HttpAuthorizations authorizations;

	// one client per distinct settings, created with the first server that has them
	private final SharedHttpClients httpClients;

	private final boolean ownsHttpClients;

	private final Supplier<ProcessRecords> openRecords;

	// the bound on the starts of all stdio servers of the application
	private final StartGate starts;

	// whether the SDK on the class path has a 2026-07-28 client: Spring AI 2.0.1
	// depends on the SDK 2.0.0, which a build that declares Spring AI's modules before
	// the
	// starter gets unless it manages the SDK itself
	private final boolean modernSdk;

	private final AtomicBoolean legacySdkReported = new AtomicBoolean();

	// opened with the first stdio server: earlier runs' servers are terminated before
	// its first spawn
	private @Nullable ProcessRecords records;

	DefaultMcpConnectorFactory(SupervisorScheduler scheduler, McpClientFactory clientFactory,
			McpServerSessions sessions, HttpTransportCustomizer httpCustomizer) {
		this(scheduler, clientFactory, sessions, httpCustomizer, ProcessRecords::none);
	}

	DefaultMcpConnectorFactory(SupervisorScheduler scheduler, McpClientFactory clientFactory,
			McpServerSessions sessions, HttpTransportCustomizer httpCustomizer, Supplier<ProcessRecords> openRecords) {
		this(scheduler, clientFactory, sessions, httpCustomizer, HttpAuthorizations.NONE, openRecords,
				ClassUtils.isPresent(MODERN_CLIENT, DefaultMcpConnectorFactory.class.getClassLoader()));
	}

	DefaultMcpConnectorFactory(SupervisorScheduler scheduler, McpClientFactory clientFactory,
			McpServerSessions sessions, HttpTransportCustomizer httpCustomizer, HttpAuthorizations authorizations,
			Supplier<ProcessRecords> openRecords) {
		this(scheduler, clientFactory, sessions, httpCustomizer, authorizations, openRecords,
				ClassUtils.isPresent(MODERN_CLIENT, DefaultMcpConnectorFactory.class.getClassLoader()));
	}

	DefaultMcpConnectorFactory(SupervisorScheduler scheduler, McpClientFactory clientFactory,
			McpServerSessions sessions, HttpTransportCustomizer httpCustomizer, HttpAuthorizations authorizations,
			Supplier<ProcessRecords> openRecords, boolean modernSdk) {
		this(scheduler, clientFactory, sessions, httpCustomizer, authorizations, openRecords, modernSdk,
				new SharedHttpClients(HttpTls.Resolver.NONE), true, StartGate.unbounded());
	}

	DefaultMcpConnectorFactory(SupervisorScheduler scheduler, McpClientFactory clientFactory,
			McpServerSessions sessions, HttpTransportCustomizer httpCustomizer, HttpAuthorizations authorizations,
			Supplier<ProcessRecords> openRecords, SharedHttpClients httpClients, StartGate starts) {
		this(scheduler, clientFactory, sessions, httpCustomizer, authorizations, openRecords,
				ClassUtils.isPresent(MODERN_CLIENT, DefaultMcpConnectorFactory.class.getClassLoader()), httpClients,
				false, starts);
	}

	private DefaultMcpConnectorFactory(SupervisorScheduler scheduler, McpClientFactory clientFactory,
			McpServerSessions sessions, HttpTransportCustomizer httpCustomizer, HttpAuthorizations authorizations,
			Supplier<ProcessRecords> openRecords, boolean modernSdk, SharedHttpClients httpClients,
			boolean ownsHttpClients, StartGate starts) {
		this.starts = starts;
		this.httpClients = httpClients;
		this.ownsHttpClients = ownsHttpClients;
		this.authorizations = authorizations;
		this.modernSdk = modernSdk;
		this.openRecords = openRecords;
		this.scheduler = scheduler;
		this.clientFactory = clientFactory;
		this.sessions = sessions;
		this.httpCustomizer = httpCustomizer;
	}

	@Override
	public McpConnector create(McpServerSettings server) {
		if (!this.modernSdk && server.protocol() != McpProtocol.V2025_11_25) {
			return withoutModernSdk(server);
		}
		return switch (server.protocol()) {
			case V2025_11_25 -> legacy(server);
			case V2026_07_28 -> modern(server);
			case AUTO -> negotiating(server);
		};
	}

	private McpConnector negotiating(McpServerSettings server) {
		McpConnector modern = modern(server);
		try {
			NegotiatedRevision revision = negotiatedRevision(server);
			return new NegotiatingConnector(server.name(), modern, legacy(server), revision);
		}
		catch (RuntimeException ex) {
			// the HTTP client the modern connector took is released
			modern.close();
			throw ex;
		}
	}

	// kept in the runtime directory of the stdio servers' records, for the next start
	private NegotiatedRevision negotiatedRevision(McpServerSettings server) {
		return switch (server.transport()) {
			case STDIO -> NegotiatedRevision.keptIn(records().directory(), server.toStdioDefinition());
			case STREAMABLE_HTTP -> NegotiatedRevision.keptIn(records().directory(), server.toHttpDefinition());
		};
	}

	private McpConnector withoutModernSdk(McpServerSettings server) {
		String missing = "the MCP Java SDK on the class path has no 2026-07-28 client (it needs " + MODERN_SDK_VERSION
				+ " or later; Spring AI 2.0.1 depends on 2.0.0): manage io.modelcontextprotocol.sdk:mcp, mcp-core and"
				+ " mcp-json-jackson3 at " + MODERN_SDK_VERSION + " or later in the build";
		if (server.protocol() == McpProtocol.V2026_07_28) {
			throw new IllegalStateException(
					"MCP server '" + server.name() + "' is set to protocol 2026-07-28, but " + missing);
		}
		if (this.legacySdkReported.compareAndSet(false, true)) {
			logger.warn("MCP servers set to protocol auto are spoken to in 2025-11-25 only: " + missing);
		}
		return legacy(server);
	}

	private McpConnector modern(McpServerSettings server) {
		return switch (server.transport()) {
			case STDIO -> new StdioConnector(server.toStdioDefinition(), this.scheduler::execute, this.clientFactory,
					this.sessions.session(server.name()), records(), Revisions.V2026_07_28, this.starts);
			case STREAMABLE_HTTP -> new StreamableHttpConnector(server.toHttpDefinition(), this.clientFactory,
					this.sessions.session(server.name()), HttpTransportCustomizer.NONE, authorization(server),
					httpClient(server), Revisions.V2026_07_28);
		};
	}

	private McpConnector legacy(McpServerSettings server) {
		return switch (server.transport()) {
			case STDIO -> new StdioConnector(server.toStdioDefinition(), this.scheduler::execute, this.clientFactory,
					this.sessions.session(server.name()), records(), Revisions.V2025_11_25, this.starts);
			case STREAMABLE_HTTP -> {
				TransportCustomizerCheck.check(server.name(), server.url(), this.httpCustomizer);
				HttpAuthorization authorization = authorization(server);
				yield new StreamableHttpConnector(server.toHttpDefinition(), this.clientFactory,
						this.sessions.session(server.name()), this.httpCustomizer, authorization, httpClient(server));
			}
		};
	}

	private HttpAuthorization authorization(McpServerSettings server) {
		if (!server.oauth().isEnabled()) {
			// never the authorization of a server that had the name before
			return HttpAuthorization.NONE;
		}
		HttpAuthorization authorization = this.authorizations.authorization(server.name());
		if (server.oauth().isEnabled() && authorization == HttpAuthorization.NONE) {
			throw new IllegalStateException("MCP server '" + server.name() + "' has mcp.servers." + server.name()
					+ ".oauth set, but Spring Security's OAuth2 client is not on the class path:"
					+ " add spring-boot-starter-security-oauth2-client");
		}
		return authorization;
	}

	// kept in the runtime directory, for the fingerprint of what reaches the server:
	// hashed, never written as it is
	@Override
	public ToolCatalog catalog(McpServerSettings server) {
		Path directory = records().directory();
		return (directory != null) ? ToolCatalog.in(directory, server.name(), server.fingerprint())
				: ToolCatalog.none();
	}

	private synchronized ProcessRecords records() {
		ProcessRecords current = this.records;
		if (current == null) {
			current = this.openRecords.get();
			this.records = current;
		}
		return current;
	}

	private SharedHttpClient httpClient(McpServerSettings server) {
		return this.httpClients.client(server.name(), httpClientSettings(server));
	}

	static HttpClientSettings httpClientSettings(McpServerSettings server) {
		return HttpClientSettings.of(server.http().connectTimeout(), server.http().version().version(),
				server.http().proxy().host(), server.http().proxy().port(), server.http().ssl().bundle());
	}

	@Override
	public synchronized void destroy() {
		// the supervisors depend on this factory: they have stopped by now. The
		// connectors ask for the JDK clients at each generation: once closed, nothing
		// keeps their selector threads reachable
		if (this.ownsHttpClients) {
			this.httpClients.close();
		}
	}

}
