package io.github.mcpsupervisor.client;

import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import io.github.mcpsupervisor.client.internal.McpServerSessions;
import io.github.mcpsupervisor.supervisor.McpServerSupervisor;
import io.github.mcpsupervisor.supervisor.McpSupervisors;

/**
 * The {@link McpServerClient} of every supervised server: inject it to read resources and
 * prompts, complete arguments, subscribe to resources and set roots, by server name.
 *
 * @since 0.1.0
 */
public final class McpServerClients {

	private final McpSupervisors supervisors;

	private final McpServerSessions sessions;

	// by name, each with the supervisor it was made for: a replaced server gets a new one
	private final Map<String, McpServerClient> clients = new ConcurrentHashMap<>();

	/**
	 * Creates the clients of every supervised server, those added later included.
	 * @param supervisors the supervisors
	 * @param sessions the servers' client sessions
	 */
	public McpServerClients(McpSupervisors supervisors, McpServerSessions sessions) {
		this.supervisors = supervisors;
		this.sessions = sessions;
	}

	/**
	 * Returns the client of a server.
	 * @param server the server's name
	 * @return its client
	 * @throws NoSuchElementException if no server has that name
	 */
	public McpServerClient client(String server) {
		McpServerSupervisor supervisor = this.supervisors.supervisor(server);
		return this.clients.compute(server, (name, client) -> (client != null && client.supervisor() == supervisor)
				? client : new McpServerClient(supervisor, this.sessions.session(name)));
	}

	/**
	 * Returns the clients of every server, in the order of the servers.
	 * @return the clients
	 */
	public List<McpServerClient> clients() {
		List<McpServerSupervisor> all = this.supervisors.supervisors();
		Set<String> names = new HashSet<>();
		all.forEach((supervisor) -> names.add(supervisor.name()));
		this.clients.keySet().retainAll(names);
		return all.stream().map((supervisor) -> client(supervisor.name())).toList();
	}

}
