package io.github.mcpsupervisor.actuate;

import java.time.Clock;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Optional;
import java.util.function.Function;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonInclude.Include;
import com.fasterxml.jackson.annotation.JsonUnwrapped;
import io.github.mcpsupervisor.authorization.McpAuthorizationRequest;
import io.github.mcpsupervisor.supervisor.McpServerStatus;
import io.github.mcpsupervisor.supervisor.McpServerSupervisor;
import io.github.mcpsupervisor.supervisor.McpSupervisors;
import io.github.mcpsupervisor.supervisor.McpSupervisors.SupervisedServer;
import org.jspecify.annotations.Nullable;

import org.springframework.boot.actuate.endpoint.Access;
import org.springframework.boot.actuate.endpoint.OperationResponseBody;
import org.springframework.boot.actuate.endpoint.Sanitizer;
import org.springframework.boot.actuate.endpoint.SanitizingFunction;
import org.springframework.boot.actuate.endpoint.Show;
import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.actuate.endpoint.annotation.ReadOperation;
import org.springframework.boot.actuate.endpoint.annotation.Selector;
import org.springframework.boot.actuate.endpoint.annotation.WriteOperation;

/**
 * The {@code mcp} endpoint: every server's state and counters, one server in full (tools,
 * stderr, configuration with secrets sanitized), and the operator's actions {@code reset}
 * and {@code restart}. Read-only unless access is granted.
 *
 * @since 0.1.0
 */
@Endpoint(id = "mcp", defaultAccess = Access.READ_ONLY)
public class McpEndpoint {

	private final McpSupervisors supervisors;

	private final Function<String, @Nullable McpServerConfiguration> configurations;

	private final Sanitizer sanitizer;

	private final Show showValues;

	private final Clock clock;

	private final Function<String, Optional<McpAuthorizationRequest>> authorizations;

	/**
	 * Creates the endpoint.
	 * @param supervisors the supervised servers
	 * @param configurations the configuration of each server, by name ({@code null} for a
	 * server whose configuration is not known)
	 * @param sanitizingFunctions the functions that sanitize environment variables and
	 * headers when their values may be shown
	 * @param showValues when to show the values of environment variables and headers
	 * @param clock the clock of the supervisors
	 */
	public McpEndpoint(McpSupervisors supervisors, Function<String, @Nullable McpServerConfiguration> configurations,
			Iterable<SanitizingFunction> sanitizingFunctions, Show showValues, Clock clock) {
		this(supervisors, configurations, sanitizingFunctions, showValues, clock, (server) -> Optional.empty());
	}

	/**
	 * Creates the endpoint.
	 * @param supervisors the supervised servers
	 * @param configurations the configuration of each server, by name ({@code null} for a
	 * server whose configuration is not known)
	 * @param sanitizingFunctions the functions that sanitize environment variables and
	 * headers when their values may be shown
	 * @param showValues when to show the values of environment variables and headers
	 * @param clock the clock of the supervisors
	 * @param authorizations the authorization each server awaits from a person, by name
	 */
	public McpEndpoint(McpSupervisors supervisors, Function<String, @Nullable McpServerConfiguration> configurations,
			Iterable<SanitizingFunction> sanitizingFunctions, Show showValues, Clock clock,
			Function<String, Optional<McpAuthorizationRequest>> authorizations) {
		this.authorizations = authorizations;
		this.supervisors = supervisors;
		this.configurations = configurations;
		this.sanitizer = new Sanitizer(sanitizingFunctions);
		this.showValues = showValues;
		this.clock = clock;
	}

	/**
	 * Returns every server with its state and counters.
	 * @return the servers by name, in the order of their names
	 */
	@ReadOperation
	public McpServersDescriptor servers() {
		Map<String, McpServerDetails> servers = new LinkedHashMap<>();
		for (SupervisedServer server : this.supervisors.servers()) {
			McpServerStatus status = server.supervisor().status();
			servers.put(status.name(), McpServerDetails.of(status, server.required(), 0, this.clock,
					this.authorizations.apply(status.name()).orElse(null)));
		}
		return new McpServersDescriptor(servers);
	}

	/**
	 * Returns one server in full.
	 * @param server the server's name
	 * @return the server
	 * @throws NoSuchElementException if there is no server of that name
	 */
	@ReadOperation
	public McpServerDescriptor server(@Selector String server) {
		return describe(server, this.showValues.isShown(true));
	}

	/**
	 * Acts on a server: {@code reset} clears its outage budget and connects now (on an UP
	 * server it only clears the budget); {@code restart} ends its live generation, even
	 * when up, and connects a new one.
	 * @param server the server's name
	 * @param action the action
	 * @return the server's state and counters after the action was taken
	 * @throws NoSuchElementException if there is no server of that name
	 */
	@WriteOperation
	public McpServerActionDescriptor act(@Selector String server, @Selector McpServerAction action) {
		SupervisedServer supervised = find(server);
		McpServerStatus status = switch (action) {
			case RESET -> supervised.supervisor().reset();
			case RESTART -> supervised.supervisor().restart();
		};
		return new McpServerActionDescriptor(status.name(), action.id(),
				McpServerDetails.of(status, supervised.required(), 0, this.clock));
	}

	// the web extension decides whether values may be shown from who asks
	McpServerDescriptor describe(String server, boolean showUnsanitized) {
		SupervisedServer supervised = find(server);
		McpServerStatus status = supervised.supervisor().status();
		McpServerConfiguration configuration = this.configurations.apply(server);
		return new McpServerDescriptor(status.name(),
				McpServerDetails.of(status, supervised.required(), Integer.MAX_VALUE, this.clock,
						this.authorizations.apply(status.name()).orElse(null)),
				status.tools(), (configuration != null)
						? McpServerConfigurationDescriptor.of(configuration, this.sanitizer, showUnsanitized) : null);
	}

	// McpSupervisors owns the message that names an unknown server and the known ones
	private SupervisedServer find(String name) {
		McpServerSupervisor supervisor = this.supervisors.supervisor(name);
		return this.supervisors.servers()
			.stream()
			.filter((server) -> server.supervisor() == supervisor)
			.findFirst()
			.orElseThrow();
	}

	/**
	 * Every server with its state and counters.
	 *
	 * @param servers the servers by name, in the order of their names
	 */
	public record McpServersDescriptor(Map<String, McpServerDetails> servers) implements OperationResponseBody {

	}

	/**
	 * One server in full.
	 *
	 * @param name the server's name
	 * @param details its state and counters, every stderr line kept included
	 * @param toolNames the names of its registered tools
	 * @param configuration its configuration, secrets sanitized, if known
	 */
	@JsonInclude(Include.NON_NULL)
	public record McpServerDescriptor(String name, @JsonUnwrapped McpServerDetails details, List<String> toolNames,
			@Nullable McpServerConfigurationDescriptor configuration) implements OperationResponseBody {

	}

	/**
	 * A server after an operator's action was taken.
	 *
	 * @param name the server's name
	 * @param action the action, {@code reset} or {@code restart}
	 * @param details its state and counters
	 */
	public record McpServerActionDescriptor(String name, String action,
			@JsonUnwrapped McpServerDetails details) implements OperationResponseBody {

	}

}
