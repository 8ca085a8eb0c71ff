package io.github.mcpsupervisor.client.internal;

import java.util.Collection;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The client sessions of every supervised server, by name.
 *
 * @since 0.1.0
 */
public final class McpServerSessions {

	private final Map<String, McpServerSession> sessions = new ConcurrentHashMap<>();

	/**
	 * Creates the sessions.
	 * @param sessions the session of each server
	 */
	public McpServerSessions(Collection<McpServerSession> sessions) {
		sessions.forEach((session) -> this.sessions.put(session.server(), session));
	}

	/**
	 * Gives a server a new session, in place of the one it had, if any: for a server
	 * added or replaced while the application runs.
	 * @param session the session
	 */
	public void put(McpServerSession session) {
		this.sessions.put(session.server(), session);
	}

	/**
	 * Forgets the session of a server removed from the application.
	 * @param server the server's name
	 */
	public void remove(String server) {
		this.sessions.remove(server);
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
					"No MCP server named '" + server + "'; servers: " + this.sessions.keySet());
		}
		return session;
	}

}
