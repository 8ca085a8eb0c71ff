package io.github.mcpsupervisor.autoconfigure.metrics;

import io.github.mcpsupervisor.autoconfigure.McpSupervisorAutoConfiguration;
import io.github.mcpsupervisor.metrics.internal.McpSupervisorMetrics;
import io.micrometer.core.instrument.MeterRegistry;

import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.micrometer.metrics.autoconfigure.CompositeMeterRegistryAutoConfiguration;
import org.springframework.boot.micrometer.metrics.autoconfigure.MetricsAutoConfiguration;
import org.springframework.boot.micrometer.metrics.autoconfigure.export.simple.SimpleMetricsExportAutoConfiguration;
import org.springframework.context.annotation.Bean;

/**
 * Auto-configuration of the supervisors' Micrometer metrics, when a meter registry
 * exists.
 *
 * @since 0.1.0
 */
@AutoConfiguration(before = McpSupervisorAutoConfiguration.class,
		after = { MetricsAutoConfiguration.class, CompositeMeterRegistryAutoConfiguration.class,
				SimpleMetricsExportAutoConfiguration.class })
@ConditionalOnClass({ MeterRegistry.class, MetricsAutoConfiguration.class })
@ConditionalOnBean(MeterRegistry.class)
public final class McpMetricsAutoConfiguration {

	@Bean
	@ConditionalOnMissingBean
	McpSupervisorMetrics mcpSupervisorMetrics(MeterRegistry registry) {
		return new McpSupervisorMetrics(registry);
	}

}
