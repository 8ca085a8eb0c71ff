package io.github.mcpsupervisor.client;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;

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

	private final Map<String, McpServerClient> clients = new LinkedHashMap<>();

	/**
	 * Creates the clients of every supervised server.
	 * @param supervisors the supervisors
	 * @param sessions the servers' client sessions
	 */
	public McpServerClients(McpSupervisors supervisors, McpServerSessions sessions) {
		for (McpServerSupervisor supervisor : supervisors.supervisors()) {
			this.clients.put(supervisor.name(), new McpServerClient(supervisor, sessions.session(supervisor.name())));
		}
	}

	/**
	 * Returns the client of a server.
	 * @param server the server's name
	 * @return its client
	 * @throws NoSuchElementException if no server has that name
	 */
	public McpServerClient client(String server) {
		McpServerClient client = this.clients.get(server);
		if (client == null) {
			throw new NoSuchElementException(
					"No MCP server named '" + server + "'; configured servers: " + this.clients.keySet());
		}
		return client;
	}

	/**
	 * Returns the clients of every server, in the order of their names.
	 * @return the clients
	 */
	public List<McpServerClient> clients() {
		return List.copyOf(this.clients.values());
	}

}
