package io.github.mcpsupervisor.client.internal;

import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.NoSuchElementException;

/**
 * The client sessions of every supervised server, by name.
 *
 * @since 0.1.0
 */
public final class McpServerSessions {

	private final Map<String, McpServerSession> sessions = new LinkedHashMap<>();

	/**
	 * Creates the sessions.
	 * @param sessions the session of each server
	 */
	public McpServerSessions(Collection<McpServerSession> sessions) {
		sessions.forEach((session) -> this.sessions.put(session.server(), session));
	}

	/**
	 * Returns the session of a server.
	 * @param server the server's name
	 * @return its session
	 * @throws NoSuchElementException if no server has that name
	 */
	public McpServerSession session(String server) {
		McpServerSession session = this.sessions.get(server);
		if (session == null) {
			throw new NoSuchElementException(
					"No MCP server named '" + server + "'; configured servers: " + this.sessions.keySet());
		}
		return session;
	}

}
