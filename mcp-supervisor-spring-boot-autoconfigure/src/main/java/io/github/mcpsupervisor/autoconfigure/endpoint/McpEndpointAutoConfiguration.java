package io.github.mcpsupervisor.autoconfigure.endpoint;

import java.util.Optional;

import io.github.mcpsupervisor.actuate.McpEndpoint;
import io.github.mcpsupervisor.actuate.McpEndpointWebExtension;
import io.github.mcpsupervisor.authorization.McpServerAuthorizations;
import io.github.mcpsupervisor.autoconfigure.McpServerRegistry;
import io.github.mcpsupervisor.autoconfigure.McpSupervisorAutoConfiguration;
import io.github.mcpsupervisor.supervisor.McpSupervisors;
import io.github.mcpsupervisor.supervisor.SupervisorScheduler;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.actuate.autoconfigure.endpoint.condition.ConditionalOnAvailableEndpoint;
import org.springframework.boot.actuate.autoconfigure.endpoint.expose.EndpointExposure;
import org.springframework.boot.actuate.endpoint.SanitizingFunction;
import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;

/**
 * Auto-configuration of the {@code mcp} endpoint. Read-only unless the application grants
 * {@code management.endpoint.mcp.access}.
 *
 * @since 0.1.0
 */
@AutoConfiguration(after = McpSupervisorAutoConfiguration.class)
@ConditionalOnClass(Endpoint.class)
@ConditionalOnBean(McpSupervisors.class)
@ConditionalOnAvailableEndpoint(McpEndpoint.class)
@EnableConfigurationProperties(McpEndpointProperties.class)
public final class McpEndpointAutoConfiguration {

	@Bean
	@ConditionalOnMissingBean
	McpEndpoint mcpEndpoint(McpSupervisors supervisors, McpServerRegistry registry,
			McpEndpointProperties endpointProperties, SupervisorScheduler scheduler,
			ObjectProvider<SanitizingFunction> sanitizingFunctions,
			ObjectProvider<McpServerAuthorizations> authorizations) {
		McpServerAuthorizations awaited = authorizations.getIfAvailable();
		return new McpEndpoint(supervisors, new PropertiesMcpServerConfigurations(registry),
				sanitizingFunctions.orderedStream().toList(), endpointProperties.showValues(), scheduler.clock(),
				(server) -> (awaited != null) ? awaited.server(server) : Optional.empty());
	}

	@Bean
	@ConditionalOnMissingBean
	@ConditionalOnBean(McpEndpoint.class)
	@ConditionalOnAvailableEndpoint(endpoint = McpEndpoint.class, exposure = EndpointExposure.WEB)
	McpEndpointWebExtension mcpEndpointWebExtension(McpEndpoint endpoint, McpEndpointProperties endpointProperties) {
		return new McpEndpointWebExtension(endpoint, endpointProperties.showValues(), endpointProperties.roles());
	}

}
