package io.github.mcpsupervisor.autoconfigure.observation;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * Configuration of the observations of MCP requests
 * ({@code management.observations.mcp}).
 *
 * @param propagateTraceContext Whether a tool call carries the trace context of its
 * observation in its {@code _meta} (traceparent, tracestate, baggage) when a tracer
 * propagates, to servers of every revision
 * @since 0.1.0
 */
@ConfigurationProperties("management.observations.mcp")
public record McpObservationProperties(@DefaultValue("true") boolean propagateTraceContext) {

}
