package io.github.mcpsupervisor.autoconfigure;

import java.net.URI;
import java.time.Duration;

import io.github.mcpsupervisor.authorization.McpUserResolver;
import io.github.mcpsupervisor.autoconfigure.internal.McpConnectorFactory;
import io.github.mcpsupervisor.autoconfigure.properties.internal.McpServerSettings;
import io.github.mcpsupervisor.client.internal.McpServerSession;
import io.github.mcpsupervisor.client.internal.McpServerSessions;
import io.github.mcpsupervisor.client.internal.RequestGate;
import io.github.mcpsupervisor.client.internal.SamplingGate;
import io.github.mcpsupervisor.internal.McpRequestObserver;
import io.github.mcpsupervisor.supervisor.McpConnector;
import io.github.mcpsupervisor.supervisor.McpServerSupervisor;
import io.github.mcpsupervisor.supervisor.McpSupervisors.SupervisedServer;
import io.github.mcpsupervisor.supervisor.SupervisorListener;
import io.github.mcpsupervisor.supervisor.SupervisorScheduler;
import io.modelcontextprotocol.spec.McpSchema.Root;

/**
 * Builds the supervised server of a server's settings, with its client session: the same
 * way for the servers the application starts with and for those added later.
 */
final class McpServerFactory {

	/** Margin over the bounded steps of an attempt or a termination. */
	private static final Duration MARGIN = Duration.ofSeconds(3);

	private final SupervisorScheduler scheduler;

	private final McpConnectorFactory connectorFactory;

	private final McpServerSessions sessions;

	private final SupervisorListener listener;

	private final McpRequestObserver requestObserver;

	private final McpUserResolver users;

	McpServerFactory(SupervisorScheduler scheduler, McpConnectorFactory connectorFactory, McpServerSessions sessions,
			SupervisorListener listener, McpRequestObserver requestObserver, McpUserResolver users) {
		this.scheduler = scheduler;
		this.connectorFactory = connectorFactory;
		this.sessions = sessions;
		this.listener = listener;
		this.requestObserver = requestObserver;
		this.users = users;
	}

	/**
	 * Returns what every supervisor tells of itself, the application's listeners.
	 * @return the listener
	 */
	SupervisorListener listener() {
		return this.listener;
	}

	/**
	 * Gives the server a new session and builds its supervisor, not started.
	 * @param server the server's settings
	 * @return the supervised server
	 */
	SupervisedServer create(McpServerSettings server) {
		this.sessions.put(session(server, this.scheduler));
		McpConnector connector = this.connectorFactory.create(server);
		McpServerSupervisor supervisor;
		try {
			McpServerSupervisor.Builder builder = McpServerSupervisor.builder(server.name(), connector, this.scheduler)
				.reconnect(server.reconnect())
				.calls(server.call())
				.healthCheck(server.healthCheck())
				.listener(this.listener)
				.requestObserver(this.requestObserver)
				.toolsWhenDown(server.toolsWhenDown())
				.standby(server.standby())
				.users(this.users)
				.idleTimeout(server.idleTimeout());
			if (server.startOnFirstUse()) {
				builder.startOnFirstUse(this.connectorFactory.catalog(server));
			}
			supervisor = builder.build();
		}
		catch (RuntimeException ex) {
			// what the connector took (a shared HTTP client, an authorization) is given
			// back
			connector.close();
			throw ex;
		}
		Duration stop = server.terminationGracePeriod().plus(MARGIN);
		// the first attempt: spawn, initialize, list the tools, or fail and be terminated
		Duration startup = server.initializationTimeout().plus(server.requestTimeout()).plus(stop);
		return new SupervisedServer(supervisor, server.required(), server.failOnStartupError(), startup, stop);
	}

	static McpServerSession session(McpServerSettings server, SupervisorScheduler scheduler) {
		return new McpServerSession(server.name(),
				server.roots().stream().map((uri) -> new Root(uri.toString(), rootName(uri))).toList(),
				new SamplingGate(server.name(), server.sampling(), scheduler.clock()),
				RequestGate.elicitation(server.name(), server.elicitation(), scheduler.clock()), server.logLevel());
	}

	// The last segment of the path, or the whole path for the root directory.
	private static String rootName(URI uri) {
		String path = uri.getPath();
		String trimmed = (path.length() > 1 && path.endsWith("/")) ? path.substring(0, path.length() - 1) : path;
		String name = trimmed.substring(trimmed.lastIndexOf('/') + 1);
		return name.isEmpty() ? path : name;
	}

}
