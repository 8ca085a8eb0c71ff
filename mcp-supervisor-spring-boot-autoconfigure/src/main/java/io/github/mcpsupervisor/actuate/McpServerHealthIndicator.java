package io.github.mcpsupervisor.actuate;

import java.time.Clock;

import io.github.mcpsupervisor.actuate.McpEndpoint.McpServerDetails;
import io.github.mcpsupervisor.authorization.McpServerAuthorizations.McpServerAuthorization;
import io.github.mcpsupervisor.supervisor.McpServerState;
import io.github.mcpsupervisor.supervisor.McpServerStatus;
import io.github.mcpsupervisor.supervisor.McpSupervisors.SupervisedServer;
import org.jspecify.annotations.Nullable;

import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.boot.health.contributor.Status;

/**
 * The health of one server, a member of the {@code mcp} component: its status says
 * whether its trouble is the application's, its details what the server is doing, never
 * the URL of an authorization it waits for.
 */
final class McpServerHealthIndicator implements HealthIndicator {

	private final SupervisedServer server;

	private final Clock clock;

	private final @Nullable McpServerAuthorization authorization;

	McpServerHealthIndicator(SupervisedServer server, Clock clock, @Nullable McpServerAuthorization authorization) {
		this.server = server;
		this.clock = clock;
		this.authorization = authorization;
	}

	@Override
	public Health health() {
		McpServerStatus status = this.server.supervisor().status();
		McpServerDetails details = McpServerDetails.of(status, this.server.required(),
				McpServerDetails.HEALTH_STDERR_LINES, this.clock, this.authorization, false);
		return Health
			.status(status(status.state(), this.server.required(), this.server.supervisor().runsOnlyWhileUsed()))
			.withDetails(details.asMap())
			.build();
	}

	/**
	 * Returns the status of a server in a state: an optional server is UP whatever its
	 * state, so that Spring Boot's aggregation of {@code mcp} counts required ones only.
	 * @param state the server's state
	 * @param required whether the server is required
	 * @param onDemand whether it runs only while it is used, so that its starts come from
	 * calls
	 * @return its status
	 */
	static Status status(McpServerState state, boolean required, boolean onDemand) {
		// idle is not down, and neither is the start a call asked for
		if (!required || state == McpServerState.UP || state == McpServerState.IDLE
				|| (onDemand && state == McpServerState.STARTING)) {
			return Status.UP;
		}
		return (state == McpServerState.NEEDS_AUTHORIZATION) ? Status.OUT_OF_SERVICE : Status.DOWN;
	}

}
