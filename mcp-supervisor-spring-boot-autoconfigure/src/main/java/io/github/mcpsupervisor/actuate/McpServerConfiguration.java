package io.github.mcpsupervisor.actuate;

import java.net.URI;
import java.util.List;
import java.util.Map;

import io.github.mcpsupervisor.supervisor.CallPolicy;
import io.github.mcpsupervisor.supervisor.ElicitationLimits;
import io.github.mcpsupervisor.supervisor.HealthCheckPolicy;
import io.github.mcpsupervisor.supervisor.ReconnectPolicy;
import io.github.mcpsupervisor.supervisor.SamplingLimits;
import io.github.mcpsupervisor.supervisor.ToolsWhenDown;
import io.github.mcpsupervisor.tool.McpToolNaming;
import io.github.mcpsupervisor.transport.StdioServerDefinition;
import io.github.mcpsupervisor.transport.StreamableHttpServerDefinition;
import org.jspecify.annotations.Nullable;

import org.springframework.util.Assert;

/**
 * The configuration of a server that the endpoint describes, secrets included: how the
 * server is reached (exactly one of {@code stdio} and {@code streamableHttp}) and the
 * policies it is supervised with.
 *
 * @param stdio how a stdio server is run
 * @param streamableHttp how a streamable-http server is reached
 * @param failOnStartupError whether the application fails to start when the server does
 * not connect at its first attempt
 * @param required whether the {@code mcp} health component is down while the server is
 * not up
 * @param reconnect how a lost server is reconnected
 * @param call how tool calls behave around outages
 * @param healthCheck the liveness probe
 * @param origins where each inheritable setting comes from ({@code server},
 * {@code defaults} or {@code built-in}), by its property name
 * @param http the HTTP client settings of a streamable-http server
 * @param toolNames how the server's tools are named for the model
 * @param standby whether a stdio server keeps a warm standby
 * @param protocol the MCP revision the server is spoken to in: {@code auto},
 * {@code 2025-11-25} or {@code 2026-07-28}
 * @param logLevel the lowest level of the log messages the server is asked to send, or
 * {@code null}
 * @param sampling the bounds of the server's sampling requests
 * @param elicitation the bounds of the server's elicitation requests
 * @param toolsWhenDown what becomes of the server's tools while it is down
 * @param roots the roots offered to the server
 * @param oauth how a streamable-http server's requests are authorized, or {@code null}
 * without OAuth
 * @since 0.1.0
 */
public record McpServerConfiguration(@Nullable StdioServerDefinition stdio,
		@Nullable StreamableHttpServerDefinition streamableHttp, boolean failOnStartupError, boolean required,
		ReconnectPolicy reconnect, CallPolicy call, HealthCheckPolicy healthCheck, Map<String, String> origins,
		McpServerConfigurationDescriptor.@Nullable Http http, McpToolNaming toolNames, boolean standby, String protocol,
		@Nullable String logLevel, SamplingLimits sampling, ElicitationLimits elicitation, ToolsWhenDown toolsWhenDown,
		List<URI> roots, McpServerConfigurationDescriptor.@Nullable OAuth oauth) {

	public McpServerConfiguration {
		origins = Map.copyOf(origins);
		roots = List.copyOf(roots);
		Assert.isTrue((stdio == null) != (streamableHttp == null),
				"Exactly one of 'stdio' and 'streamableHttp' must be given");
	}

}
