package io.github.mcpsupervisor.observation;

import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationConvention;

/**
 * The names and key values of the observations of MCP requests; a bean of this type
 * replaces the {@link DefaultMcpRequestObservationConvention default}.
 *
 * @since 0.1.0
 */
public interface McpRequestObservationConvention extends ObservationConvention<McpRequestObservationContext> {

	@Override
	default boolean supportsContext(Observation.Context context) {
		return context instanceof McpRequestObservationContext;
	}

}
