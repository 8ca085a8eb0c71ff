package io.github.mcpsupervisor.connector;

import java.util.List;

import io.github.mcpsupervisor.client.internal.McpClientFactory;
import io.github.mcpsupervisor.client.internal.McpServerSession;
import io.github.mcpsupervisor.supervisor.McpConnector;
import io.github.mcpsupervisor.supervisor.McpServerSupervisor;
import io.github.mcpsupervisor.supervisor.SupervisorScheduler;
import io.github.mcpsupervisor.transport.StdioServerDefinition;
import io.github.mcpsupervisor.transport.StreamableHttpServerDefinition;
import io.github.mcpsupervisor.transport.internal.Revisions;
import io.github.mcpsupervisor.transport.internal.http.HttpAuthorization;
import io.github.mcpsupervisor.transport.internal.http.HttpTransportCustomizer;
import io.github.mcpsupervisor.transport.internal.http.SharedHttpClient;
import io.github.mcpsupervisor.transport.internal.http.StreamableHttpConnector;
import io.github.mcpsupervisor.transport.internal.modern.NegotiatingConnector;
import io.github.mcpsupervisor.transport.internal.stdio.ProcessRecords;
import io.github.mcpsupervisor.transport.internal.stdio.StartGate;
import io.github.mcpsupervisor.transport.internal.stdio.StdioConnector;

import org.springframework.util.ClassUtils;

/**
 * Makes the connector of a server from its definition, for an application that builds its
 * {@link McpServerSupervisor supervisors} itself, without Spring Boot. Its generations
 * have the client the auto-configuration gives a server without customizers, roots,
 * sampling or elicitation handlers: they answer what the server asks of the application
 * as a client that declares none of those. A stdio server's processes are not recorded
 * for the next start of the application, the revision a server configured
 * {@link Protocol#AUTO auto} speaks is kept in memory only, and a Streamable HTTP server
 * is reached without authorization, over an HTTP client of its own with the default
 * settings.
 * <p>
 * Give the connectors of all stdio servers one {@link StdioStarts} so that they do not
 * all start in the same instant (the auto-configuration starts at most
 * {@value StdioStarts#DEFAULT_LIMIT} at once); without one, each starts at once.
 * <p>
 * {@link McpConnector#close() Close} a connector that a supervisor no longer uses: a
 * supervisor's {@link McpServerSupervisor#retire() retire()} does.
 *
 * @since 0.1.0
 */
public final class McpConnectors {

	// a class of the SDK's 2026-07-28 client, which SDKs before 2.2.0 do not have
	private static final String MODERN_CLIENT = "io.modelcontextprotocol.modern.client.McpClient";

	private McpConnectors() {
	}

	/**
	 * Returns the connector of a stdio server that speaks the MCP revision the server
	 * does ({@link Protocol#AUTO}).
	 * @param server how to run the server
	 * @param scheduler the scheduler of the server's supervisor, which runs the short
	 * reaction to a process's exit
	 * @return the connector
	 */
	public static McpConnector stdio(StdioServerDefinition server, SupervisorScheduler scheduler) {
		return stdio(server, scheduler, Protocol.AUTO);
	}

	/**
	 * Returns the connector of a stdio server: each generation a process of its own.
	 * @param server how to run the server
	 * @param scheduler the scheduler of the server's supervisor, which runs the short
	 * reaction to a process's exit
	 * @param protocol the MCP revision the generations speak
	 * @return the connector
	 * @throws IllegalStateException if the revision is 2026-07-28 and the MCP Java SDK on
	 * the class path has no client of it
	 */
	public static McpConnector stdio(StdioServerDefinition server, SupervisorScheduler scheduler, Protocol protocol) {
		return stdio(server, scheduler, protocol, StartGate.unbounded());
	}

	/**
	 * Returns the connector of a stdio server whose generations start within a bound that
	 * the connectors of the application's other stdio servers share: each generation a
	 * process of its own, spawned once the bound has a place for it.
	 * @param server how to run the server
	 * @param scheduler the scheduler of the server's supervisor, which runs the short
	 * reaction to a process's exit
	 * @param protocol the MCP revision the generations speak
	 * @param starts the bound on the stdio servers the application starts at once: the
	 * same instance for all of them
	 * @return the connector
	 * @throws IllegalStateException if the revision is 2026-07-28 and the MCP Java SDK on
	 * the class path has no client of it
	 * @since 0.1.0
	 */
	public static McpConnector stdio(StdioServerDefinition server, SupervisorScheduler scheduler, Protocol protocol,
			StdioStarts starts) {
		return stdio(server, scheduler, protocol, starts.gate());
	}

	private static McpConnector stdio(StdioServerDefinition server, SupervisorScheduler scheduler, Protocol protocol,
			StartGate starts) {
		McpServerSession session = new McpServerSession(server.name(), List.of());
		return connector(server.name(), protocol, (revision) -> new StdioConnector(server, scheduler::execute,
				McpClientFactory.standard(), session, ProcessRecords.none(), revision, starts), () -> {
				});
	}

	/**
	 * Returns the connector of a Streamable HTTP server that speaks the MCP revision the
	 * server does ({@link Protocol#AUTO}).
	 * @param server how to reach the server
	 * @return the connector
	 */
	public static McpConnector streamableHttp(StreamableHttpServerDefinition server) {
		return streamableHttp(server, Protocol.AUTO);
	}

	/**
	 * Returns the connector of a Streamable HTTP server: each generation a new client
	 * (and, in 2025-11-25, a new session), all over one HTTP client that closes with the
	 * connector.
	 * @param server how to reach the server
	 * @param protocol the MCP revision the generations speak
	 * @return the connector
	 * @throws IllegalStateException if the revision is 2026-07-28 and the MCP Java SDK on
	 * the class path has no client of it
	 */
	public static McpConnector streamableHttp(StreamableHttpServerDefinition server, Protocol protocol) {
		McpServerSession session = new McpServerSession(server.name(), List.of());
		SharedHttpClient httpClient = new SharedHttpClient();
		try {
			return connector(server.name(), protocol,
					(revision) -> new StreamableHttpConnector(server, McpClientFactory.standard(), session,
							HttpTransportCustomizer.NONE, HttpAuthorization.NONE, httpClient, revision),
					httpClient::close);
		}
		catch (RuntimeException ex) {
			httpClient.close();
			throw ex;
		}
	}

	private static McpConnector connector(String server, Protocol protocol, Revision revision, Runnable closed) {
		boolean modernSdk = ClassUtils.isPresent(MODERN_CLIENT, McpConnectors.class.getClassLoader());
		if (protocol == Protocol.V2026_07_28 && !modernSdk) {
			throw new IllegalStateException("MCP server '" + server
					+ "' is to speak 2026-07-28, but the MCP Java SDK on the class path has no client of it (it needs"
					+ " 2.2.0 or later)");
		}
		McpConnector connector = switch (protocol) {
			case V2025_11_25 -> revision.connector(Revisions.V2025_11_25);
			case V2026_07_28 -> revision.connector(Revisions.V2026_07_28);
			case AUTO -> modernSdk ? new NegotiatingConnector(server, revision.connector(Revisions.V2026_07_28),
					revision.connector(Revisions.V2025_11_25)) : revision.connector(Revisions.V2025_11_25);
		};
		return new ClosingConnector(connector, closed);
	}

	/**
	 * The MCP revision the generations of a server speak.
	 *
	 * @since 0.1.0
	 */
	public enum Protocol {

		/**
		 * The revision the server speaks: each generation asks {@code server/discover} as
		 * a 2026-07-28 client first, and connects as a 2025-11-25 client when the answer
		 * is not a 2026-07-28 one; the outcome is kept for the later generations. A
		 * 2025-11-25 client only when the SDK has no 2026-07-28 client.
		 */
		AUTO,

		/** Revision 2025-11-25: {@code initialize}, and a session per generation. */
		V2025_11_25,

		/** Revision 2026-07-28: stateless, {@code server/discover}. */
		V2026_07_28

	}

	/** Makes the connector of one revision. */
	@FunctionalInterface
	private interface Revision {

		McpConnector connector(String revision);

	}

	/** A connector that releases what the connectors of its revisions share. */
	private static final class ClosingConnector implements McpConnector {

		private final McpConnector connector;

		private final Runnable closed;

		ClosingConnector(McpConnector connector, Runnable closed) {
			this.connector = connector;
			this.closed = closed;
		}

		@Override
		public McpConnection create(int generation, Runnable toolsChanged) {
			return this.connector.create(generation, toolsChanged);
		}

		@Override
		public String redact(String text) {
			return this.connector.redact(text);
		}

		@Override
		public void whenAuthorized(Runnable authorized) {
			this.connector.whenAuthorized(authorized);
		}

		@Override
		public boolean keepsAwake() {
			return this.connector.keepsAwake();
		}

		@Override
		public void close() {
			try {
				this.connector.close();
			}
			finally {
				this.closed.run();
			}
		}

	}

}
