package io.github.mcpsupervisor.autoconfigure.observation;

import io.github.mcpsupervisor.autoconfigure.McpSupervisorAutoConfiguration;
import io.github.mcpsupervisor.internal.McpRequestObserver;
import io.github.mcpsupervisor.observation.McpRequestObservationConvention;
import io.github.mcpsupervisor.observation.internal.McpRequestObservations;
import io.micrometer.observation.ObservationRegistry;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;

/**
 * Auto-configuration of an observation of each MCP request the supervisors send for the
 * application, with the application's {@link ObservationRegistry} (none observes
 * nothing).
 *
 * @since 0.1.0
 */
@AutoConfiguration(before = McpSupervisorAutoConfiguration.class,
		afterName = { "org.springframework.boot.micrometer.observation.autoconfigure.ObservationAutoConfiguration",
				"org.springframework.boot.micrometer.tracing.autoconfigure.MicrometerTracingAutoConfiguration" })
@ConditionalOnClass(ObservationRegistry.class)
@EnableConfigurationProperties(McpObservationProperties.class)
public final class McpObservationAutoConfiguration {

	@Bean
	@ConditionalOnMissingBean(McpRequestObserver.class)
	McpRequestObservations mcpRequestObservations(ObjectProvider<ObservationRegistry> registry,
			ObjectProvider<McpRequestObservationConvention> convention, McpObservationProperties properties) {
		return new McpRequestObservations(registry.getIfUnique(() -> ObservationRegistry.NOOP),
				convention.getIfUnique(), properties.propagateTraceContext());
	}

}
