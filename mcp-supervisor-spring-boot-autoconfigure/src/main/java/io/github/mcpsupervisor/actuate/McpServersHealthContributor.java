package io.github.mcpsupervisor.actuate;

import java.time.Clock;
import java.util.Optional;
import java.util.function.Function;
import java.util.stream.Stream;

import io.github.mcpsupervisor.authorization.McpServerAuthorizations.McpServerAuthorization;
import io.github.mcpsupervisor.supervisor.McpSupervisors;
import io.github.mcpsupervisor.supervisor.McpSupervisors.SupervisedServer;
import org.jspecify.annotations.Nullable;

import org.springframework.boot.health.contributor.CompositeHealthContributor;
import org.springframework.boot.health.contributor.HealthContributor;

/**
 * The {@code mcp} health component: a composite with one member per server supervised at
 * the time of the request, so that {@code /actuator/health/mcp/<server>} answers for one
 * server and a health group can include {@code mcp/<server>}.
 *
 * <p>
 * Spring Boot aggregates a composite's status from its members' statuses in the order of
 * the health group, and has no notion of a member that does not count. So the status of
 * each server says whether its trouble is the application's: a required server is UP
 * while it is up, OUT_OF_SERVICE while it waits for an authorization (nothing is broken:
 * a person must act), else DOWN; an optional one is UP whatever its state, its trouble in
 * its details only. {@code mcp} is thus DOWN while a required server is neither UP nor
 * waiting for an authorization, OUT_OF_SERVICE while one waits, UP otherwise. While no
 * server is supervised, {@code mcp} has no member and Spring Boot leaves it out.
 *
 * @since 0.1.0
 */
public class McpServersHealthContributor implements CompositeHealthContributor {

	private final McpSupervisors supervisors;

	private final Clock clock;

	private final Function<String, Optional<McpServerAuthorization>> authorizations;

	/**
	 * Creates the health component of the servers.
	 * @param supervisors the supervised servers, read at every request
	 * @param clock the clock of the supervisors
	 */
	public McpServersHealthContributor(McpSupervisors supervisors, Clock clock) {
		this(supervisors, clock, (server) -> Optional.empty());
	}

	/**
	 * Creates the health component of the servers, with where the OAuth authorization of
	 * each is kept and when its token was last renewed.
	 * @param supervisors the supervised servers, read at every request
	 * @param clock the clock of the supervisors
	 * @param authorizations the OAuth authorization of each server that has one, by name
	 */
	public McpServersHealthContributor(McpSupervisors supervisors, Clock clock,
			Function<String, Optional<McpServerAuthorization>> authorizations) {
		this.supervisors = supervisors;
		this.clock = clock;
		this.authorizations = authorizations;
	}

	@Override
	public @Nullable HealthContributor getContributor(String name) {
		for (SupervisedServer server : this.supervisors.servers()) {
			if (server.supervisor().name().equals(name)) {
				return indicator(server);
			}
		}
		return null;
	}

	@Override
	public Stream<Entry> stream() {
		return this.supervisors.servers()
			.stream()
			.map((server) -> new Entry(server.supervisor().name(), indicator(server)));
	}

	private McpServerHealthIndicator indicator(SupervisedServer server) {
		return new McpServerHealthIndicator(server, this.clock,
				this.authorizations.apply(server.supervisor().name()).orElse(null));
	}

}
