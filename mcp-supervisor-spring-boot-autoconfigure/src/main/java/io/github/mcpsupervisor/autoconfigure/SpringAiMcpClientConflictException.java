package io.github.mcpsupervisor.autoconfigure;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Spring AI's MCP client is active with connections of its own, so MCP servers would be
 * started outside the supervisor, some of them perhaps twice.
 *
 * @since 0.1.0
 */
class SpringAiMcpClientConflictException extends IllegalStateException {

	private static final long serialVersionUID = 1L;

	private final transient Map<String, List<String>> connections;

	private final transient Set<String> duplicates;

	private final transient Map<String, String> urls;

	/**
	 * Create a new instance.
	 * @param connections the names of Spring AI's connections, by the property that
	 * configures them
	 * @param duplicates the names that are also servers of {@code mcp.servers}
	 */
	SpringAiMcpClientConflictException(Map<String, List<String>> connections, Set<String> duplicates) {
		this(connections, duplicates, Map.of());
	}

	/**
	 * Create a new instance.
	 * @param connections the names of Spring AI's connections, by the property that
	 * configures them
	 * @param duplicates the names that are also servers of {@code mcp.servers}
	 * @param urls the URL each streamable-http connection sends its requests to (its
	 * {@code url} with its {@code endpoint}), masked, by connection name
	 * @since 0.1.0
	 */
	SpringAiMcpClientConflictException(Map<String, List<String>> connections, Set<String> duplicates,
			Map<String, String> urls) {
		super("Spring AI's MCP client is active with connections of its own " + connections + "; also in mcp.servers: "
				+ duplicates);
		this.connections = Collections.unmodifiableMap(new LinkedHashMap<>(connections));
		this.duplicates = Collections.unmodifiableSet(new TreeSet<>(duplicates));
		this.urls = Collections.unmodifiableMap(new TreeMap<>(urls));
	}

	/**
	 * Return the names of Spring AI's connections, by the property that configures them.
	 * @return the connections
	 */
	Map<String, List<String>> getConnections() {
		return this.connections;
	}

	/**
	 * Return the names of Spring AI's connections that are also servers of
	 * {@code mcp.servers}.
	 * @return the duplicate names
	 */
	Set<String> getDuplicates() {
		return this.duplicates;
	}

	/**
	 * Return the URL each of Spring AI's streamable-http connections sends its requests
	 * to: its {@code url} with its {@code endpoint} ({@code /mcp} when unset), masked.
	 * This whole URL is the {@code url} of the server in {@code mcp.servers}.
	 * @return the URLs by connection name
	 * @since 0.1.0
	 */
	Map<String, String> getUrls() {
		return this.urls;
	}

}
