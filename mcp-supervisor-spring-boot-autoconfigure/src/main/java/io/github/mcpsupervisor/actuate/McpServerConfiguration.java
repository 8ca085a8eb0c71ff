package io.github.mcpsupervisor.actuate;

import java.util.Map;

import io.github.mcpsupervisor.supervisor.CallPolicy;
import io.github.mcpsupervisor.supervisor.HealthCheckPolicy;
import io.github.mcpsupervisor.supervisor.ReconnectPolicy;
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
 * @since 0.1.0
 */
public record McpServerConfiguration(@Nullable StdioServerDefinition stdio,
		@Nullable StreamableHttpServerDefinition streamableHttp, boolean failOnStartupError, boolean required,
		ReconnectPolicy reconnect, CallPolicy call, HealthCheckPolicy healthCheck, Map<String, String> origins,
		McpServerConfigurationDescriptor.@Nullable Http http, McpToolNaming toolNames, boolean standby) {

	public McpServerConfiguration {
		origins = Map.copyOf(origins);
		Assert.isTrue((stdio == null) != (streamableHttp == null),
				"Exactly one of 'stdio' and 'streamableHttp' must be given");
	}

}
