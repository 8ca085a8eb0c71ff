package io.github.mcpsupervisor.autoconfigure;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Function;

import io.github.mcpsupervisor.actuate.McpEndpoint;
import io.github.mcpsupervisor.actuate.McpEndpointWebExtension;
import io.github.mcpsupervisor.actuate.McpServerConfiguration;
import io.github.mcpsupervisor.supervisor.McpSupervisors;
import io.github.mcpsupervisor.supervisor.SupervisorScheduler;

import org.springframework.boot.actuate.autoconfigure.endpoint.condition.ConditionalOnAvailableEndpoint;
import org.springframework.boot.actuate.autoconfigure.endpoint.expose.EndpointExposure;
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
 */
@AutoConfiguration(after = McpSupervisorAutoConfiguration.class)
@ConditionalOnClass(Endpoint.class)
@ConditionalOnBean(McpSupervisors.class)
@ConditionalOnAvailableEndpoint(McpEndpoint.class)
@EnableConfigurationProperties(McpEndpointProperties.class)
public final class McpEndpointAutoConfiguration {

	@Bean
	@ConditionalOnMissingBean
	McpEndpoint mcpEndpoint(McpSupervisors supervisors, McpSupervisorProperties properties,
			McpEndpointProperties endpointProperties, SupervisorScheduler scheduler) {
		return new McpEndpoint(supervisors, configurations(properties), endpointProperties.showValues(),
				endpointProperties.roles(), scheduler.clock());
	}

	@Bean
	@ConditionalOnMissingBean
	@ConditionalOnBean(McpEndpoint.class)
	@ConditionalOnAvailableEndpoint(endpoint = McpEndpoint.class, exposure = EndpointExposure.WEB)
	McpEndpointWebExtension mcpEndpointWebExtension(McpEndpoint endpoint) {
		return new McpEndpointWebExtension(endpoint);
	}

	private static Function<String, McpServerConfiguration> configurations(McpSupervisorProperties properties) {
		return (name) -> properties.servers()
			.stream()
			.filter((server) -> name.equals(server.name()))
			.findFirst()
			.map(McpEndpointAutoConfiguration::describe)
			.orElseThrow();
	}

	private static McpServerConfiguration describe(McpSupervisorProperties.Server server) {
		Map<String, Object> settings = new LinkedHashMap<>();
		settings.put("transport", server.transport().name().toLowerCase(java.util.Locale.ROOT).replace('_', '-'));
		settings.put("command", server.command());
		settings.put("args", (server.transport() == McpTransportType.STDIO) ? server.args() : null);
		settings.put("url", (server.url() != null) ? server.url().toString() : null);
		settings.put("workingDirectory",
				(server.workingDirectory() != null) ? server.workingDirectory().toString() : null);
		settings.put("requestTimeout", server.requestTimeout().toString());
		settings.put("initializationTimeout", server.initializationTimeout().toString());
		settings.put("terminationGracePeriod", server.terminationGracePeriod().toString());
		settings.put("failOnStartupError", server.failOnStartupError());
		settings.put("required", server.required());
		McpSupervisorProperties.Reconnect reconnect = server.reconnect();
		Map<String, Object> reconnectSettings = new LinkedHashMap<>();
		reconnectSettings.put("enabled", reconnect.enabled());
		reconnectSettings.put("initialDelay", reconnect.initialDelay().toString());
		reconnectSettings.put("maxDelay", reconnect.maxDelay().toString());
		reconnectSettings.put("maxAttempts", reconnect.maxAttempts());
		reconnectSettings.put("jitter", reconnect.jitter());
		settings.put("reconnect", reconnectSettings);
		McpSupervisorProperties.Call call = server.call();
		Map<String, Object> callSettings = new LinkedHashMap<>();
		callSettings.put("waitForRecovery", call.waitForRecovery().toString());
		callSettings.put("retry", call.retry().name().toLowerCase(java.util.Locale.ROOT));
		callSettings.put("trustAnnotations", call.trustAnnotations());
		callSettings.put("retryTools", call.retryTools());
		settings.put("call", callSettings);
		McpSupervisorProperties.HealthCheck healthCheck = server.healthCheck();
		Map<String, Object> healthCheckSettings = new LinkedHashMap<>();
		healthCheckSettings.put("interval", healthCheck.interval().toString());
		healthCheckSettings.put("timeout", healthCheck.timeout().toString());
		healthCheckSettings.put("failureThreshold", healthCheck.failureThreshold());
		settings.put("healthCheck", healthCheckSettings);
		settings.values().removeIf(java.util.Objects::isNull);
		Map<String, Map<String, String>> secrets = new LinkedHashMap<>();
		secrets.put("env", server.env());
		if (server.transport() == McpTransportType.STREAMABLE_HTTP) {
			secrets.put("headers", server.headers());
		}
		return new McpServerConfiguration(settings, secrets);
	}

}
