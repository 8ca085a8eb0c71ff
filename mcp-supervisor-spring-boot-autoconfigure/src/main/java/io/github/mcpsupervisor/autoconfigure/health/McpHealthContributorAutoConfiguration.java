package io.github.mcpsupervisor.autoconfigure.health;

import java.util.Optional;

import io.github.mcpsupervisor.actuate.McpServersHealthContributor;
import io.github.mcpsupervisor.authorization.McpServerAuthorizations;
import io.github.mcpsupervisor.autoconfigure.McpSupervisorAutoConfiguration;
import io.github.mcpsupervisor.supervisor.McpSupervisors;
import io.github.mcpsupervisor.supervisor.SupervisorScheduler;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.health.autoconfigure.contributor.ConditionalOnEnabledHealthIndicator;
import org.springframework.boot.health.contributor.CompositeHealthContributor;
import org.springframework.context.annotation.Bean;

/**
 * Auto-configuration of the {@code mcp} health component
 * ({@code management.health.mcp.enabled}), one member per server.
 *
 * @since 0.1.0
 */
@AutoConfiguration(after = McpSupervisorAutoConfiguration.class)
@ConditionalOnClass(CompositeHealthContributor.class)
@ConditionalOnBean(McpSupervisors.class)
@ConditionalOnEnabledHealthIndicator("mcp")
public final class McpHealthContributorAutoConfiguration {

	@Bean
	@ConditionalOnMissingBean(name = { "mcpHealthIndicator", "mcpHealthContributor" })
	McpServersHealthContributor mcpHealthContributor(McpSupervisors supervisors, SupervisorScheduler scheduler,
			ObjectProvider<McpServerAuthorizations> authorizations) {
		McpServerAuthorizations oauth = authorizations.getIfAvailable();
		return new McpServersHealthContributor(supervisors, scheduler.clock(),
				(server) -> (oauth != null) ? oauth.server(server) : Optional.empty());
	}

}
