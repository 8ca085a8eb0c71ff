package io.github.mcpsupervisor.observation.internal;

import java.util.LinkedHashMap;
import java.util.Map;

import io.github.mcpsupervisor.internal.McpRequestObserver;
import io.github.mcpsupervisor.observation.DefaultMcpRequestObservationConvention;
import io.github.mcpsupervisor.observation.McpRequestObservationContext;
import io.github.mcpsupervisor.observation.McpRequestObservationConvention;
import io.github.mcpsupervisor.observation.McpRequestObservationDocumentation;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationRegistry;
import org.jspecify.annotations.Nullable;

/**
 * Observes each MCP request a supervisor sends for the application with a Micrometer
 * {@link Observation}, a child of the caller's current one (Spring AI's tool call
 * observation, for a tool the model calls). Where a tracer propagates, the trace context
 * of a tool call's observation goes into the call's {@code _meta} ({@code traceparent},
 * {@code tracestate}, {@code baggage}, as MCP's SEP-414 and OpenTelemetry's MCP
 * conventions carry it), beside and never over what the application set there.
 *
 * @since 0.1.0
 */
public final class McpRequestObservations implements McpRequestObserver {

	private final ObservationRegistry registry;

	private final @Nullable McpRequestObservationConvention convention;

	// the application's own: it remembers the tool names of its servers
	private final McpRequestObservationConvention defaultConvention = new DefaultMcpRequestObservationConvention();

	private final boolean propagate;

	/**
	 * Creates the observer.
	 * @param registry the registry to observe with
	 * @param convention the convention that replaces the default one, if any
	 * @param propagate whether tool calls carry the trace context in their {@code _meta}
	 */
	public McpRequestObservations(ObservationRegistry registry, @Nullable McpRequestObservationConvention convention,
			boolean propagate) {
		this.registry = registry;
		this.convention = convention;
		this.propagate = propagate;
	}

	@Override
	public Request start(String server, String method, @Nullable String tool, @Nullable Map<String, Object> meta) {
		if (this.registry.isNoop()) {
			return McpRequestObserver.NONE.start(server, method, tool, meta);
		}
		// only a tool call's _meta is ours to extend: the other requests are built by the
		// SDK's clients
		Map<String, Object> carrier = (tool != null) ? new LinkedHashMap<>((meta != null) ? meta : Map.of()) : null;
		RequestContext context = new RequestContext(server, method, tool, carrier, this.propagate);
		Observation observation = McpRequestObservationDocumentation.MCP_REQUEST
			.observation(this.convention, this.defaultConvention, () -> context, this.registry)
			.start();
		Observation.Scope scope = observation.openScope();
		return new Request() {

			@Override
			public @Nullable Map<String, Object> meta(@Nullable Map<String, Object> meta) {
				if (carrier == null || carrier.equals((meta != null) ? meta : Map.of())) {
					return meta;
				}
				return carrier;
			}

			@Override
			public void attempt(int generation) {
				context.attempted(generation);
			}

			@Override
			public void end(@Nullable Object result, @Nullable Throwable error) {
				context.end();
				context.setResponse(result);
				if (error != null) {
					observation.error(error);
				}
				scope.close();
				observation.stop();
			}

		};
	}

	/** The context of one request, which this observer records the attempts of. */
	private static final class RequestContext extends McpRequestObservationContext {

		RequestContext(String server, String method, @Nullable String tool, @Nullable Map<String, Object> meta,
				boolean propagate) {
			super(server, method, tool, meta, propagate);
		}

		void attempted(int generation) {
			attempt(generation);
		}

		void end() {
			ended();
		}

	}

}
