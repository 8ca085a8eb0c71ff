package io.github.mcpsupervisor.actuate;

import java.time.Clock;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Set;
import java.util.function.Function;

import io.github.mcpsupervisor.supervisor.McpServerStatus;
import io.github.mcpsupervisor.supervisor.McpSupervisors;
import io.github.mcpsupervisor.supervisor.McpSupervisors.SupervisedServer;
import org.jspecify.annotations.Nullable;

import org.springframework.boot.actuate.endpoint.Access;
import org.springframework.boot.actuate.endpoint.SecurityContext;
import org.springframework.boot.actuate.endpoint.Show;
import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.actuate.endpoint.annotation.ReadOperation;
import org.springframework.boot.actuate.endpoint.annotation.Selector;
import org.springframework.boot.actuate.endpoint.annotation.WriteOperation;

/**
 * The {@code mcp} endpoint: every server's state and counters, one server in full (tools,
 * stderr, configuration with secrets masked), and the operator's actions {@code reset}
 * and {@code restart}. Read-only unless access is granted.
 */
@Endpoint(id = "mcp", defaultAccess = Access.READ_ONLY)
public class McpEndpoint {

	static final String MASK = "******";

	private final McpSupervisors supervisors;

	private final Function<String, McpServerConfiguration> configurations;

	private final Show showValues;

	private final Set<String> roles;

	private final Clock clock;

	public McpEndpoint(McpSupervisors supervisors, Function<String, McpServerConfiguration> configurations,
			Show showValues, Set<String> roles, Clock clock) {
		this.supervisors = supervisors;
		this.configurations = configurations;
		this.showValues = showValues;
		this.roles = Set.copyOf(roles);
		this.clock = clock;
	}

	/**
	 * Returns every server with its state and counters.
	 * @return the servers by name, in configuration order
	 */
	@ReadOperation
	public Map<String, Object> servers() {
		Map<String, Object> servers = new LinkedHashMap<>();
		for (SupervisedServer server : this.supervisors.servers()) {
			McpServerStatus status = server.supervisor().status();
			servers.put(status.name(), McpServerDetails.of(status, server.required(), 0, this.clock));
		}
		return Map.of("servers", servers);
	}

	/**
	 * Returns one server in full.
	 * @param server the server's name
	 * @param securityContext who asks, for showing configuration values
	 * @return the server, or {@code null} if there is none of that name
	 */
	@ReadOperation
	public @Nullable Map<String, Object> server(@Selector String server, SecurityContext securityContext) {
		SupervisedServer supervised = find(server);
		if (supervised == null) {
			return null;
		}
		McpServerStatus status = supervised.supervisor().status();
		Map<String, Object> details = new LinkedHashMap<>();
		details.put("name", status.name());
		details.putAll(McpServerDetails.of(status, supervised.required(), Integer.MAX_VALUE, this.clock));
		details.put("toolNames", status.tools());
		details.put("configuration", configuration(server, this.showValues.isShown(securityContext, this.roles)));
		return details;
	}

	/**
	 * Acts on a server: {@code reset} clears its outage budget and connects now (on an UP
	 * server it only clears the budget); {@code restart} ends its live generation, even
	 * when up, and connects a new one.
	 * @param server the server's name
	 * @param action {@code reset} or {@code restart}
	 * @return the server's state and counters after the action was taken
	 * @throws NoSuchElementException if there is no server of that name
	 * @throws IllegalArgumentException if the action is unknown
	 */
	@WriteOperation
	public Map<String, Object> act(@Selector String server, @Selector String action) {
		SupervisedServer supervised = find(server);
		if (supervised == null) {
			throw new NoSuchElementException(noSuchServer(server));
		}
		McpServerStatus status = switch (action) {
			case "reset" -> supervised.supervisor().reset();
			case "restart" -> supervised.supervisor().restart();
			default -> throw new IllegalArgumentException(unknownAction(action));
		};
		Map<String, Object> details = new LinkedHashMap<>();
		details.put("name", status.name());
		details.put("action", action);
		details.putAll(McpServerDetails.of(status, supervised.required(), 0, this.clock));
		return details;
	}

	@Nullable SupervisedServer find(String name) {
		List<SupervisedServer> servers = this.supervisors.servers();
		return servers.stream().filter((server) -> server.supervisor().name().equals(name)).findFirst().orElse(null);
	}

	String noSuchServer(String name) {
		return "No MCP server named '" + name + "'; configured servers: "
				+ this.supervisors.servers().stream().map((server) -> server.supervisor().name()).toList();
	}

	static String unknownAction(String action) {
		return "Unknown action '" + action + "'; the actions are 'reset' and 'restart'";
	}

	private Map<String, Object> configuration(String server, boolean showValues) {
		McpServerConfiguration configuration = this.configurations.apply(server);
		Map<String, Object> shown = new LinkedHashMap<>(configuration.settings());
		configuration.secrets().forEach((key, values) -> {
			Map<String, String> masked = new LinkedHashMap<>();
			values.forEach((name, value) -> masked.put(name, showValues ? value : MASK));
			shown.put(key, masked);
		});
		return shown;
	}

}
