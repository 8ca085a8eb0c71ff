package io.github.mcpsupervisor.actuate;

import java.time.Clock;

import io.github.mcpsupervisor.supervisor.McpServerState;
import io.github.mcpsupervisor.supervisor.McpServerStatus;
import io.github.mcpsupervisor.supervisor.McpSupervisors;
import io.github.mcpsupervisor.supervisor.McpSupervisors.SupervisedServer;

import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;

/**
 * The {@code mcp} health component: one entry per server. It is DOWN while a required
 * server is neither UP nor waiting for an authorization, OUT_OF_SERVICE while a required
 * server waits for one (nothing is broken: a person must act); an optional server's
 * trouble shows in its entry only.
 *
 * @since 0.1.0
 */
public class McpServersHealthIndicator implements HealthIndicator {

	private final McpSupervisors supervisors;

	private final Clock clock;

	public McpServersHealthIndicator(McpSupervisors supervisors, Clock clock) {
		this.supervisors = supervisors;
		this.clock = clock;
	}

	@Override
	public Health health() {
		Health.Builder builder = Health.up();
		boolean down = false;
		boolean waiting = false;
		for (SupervisedServer server : this.supervisors.servers()) {
			McpServerStatus status = server.supervisor().status();
			builder.withDetail(status.name(),
					McpServerDetails.of(status, server.required(), McpServerDetails.HEALTH_STDERR_LINES, this.clock));
			if (server.required() && status.state() == McpServerState.NEEDS_AUTHORIZATION) {
				waiting = true;
			}
			else if (server.required() && status.state() != McpServerState.UP) {
				down = true;
			}
		}
		if (down) {
			builder.down();
		}
		else if (waiting) {
			builder.outOfService();
		}
		return builder.build();
	}

}
