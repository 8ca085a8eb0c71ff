package io.github.mcpsupervisor.autoconfigure.endpoint;

import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.function.Function;

import io.github.mcpsupervisor.actuate.McpServerConfiguration;
import io.github.mcpsupervisor.actuate.McpServerConfigurationDescriptor;
import io.github.mcpsupervisor.autoconfigure.properties.McpServerSettings;
import io.github.mcpsupervisor.autoconfigure.properties.McpServerSettingsResolver;
import io.github.mcpsupervisor.autoconfigure.properties.McpSupervisorProperties;
import io.github.mcpsupervisor.autoconfigure.properties.McpTransportType;
import io.github.mcpsupervisor.autoconfigure.properties.SettingOrigins;
import org.jspecify.annotations.Nullable;

import org.springframework.core.env.Environment;

/**
 * The configuration of each server of {@code mcp.servers}, by name, for the {@code mcp}
 * endpoint.
 */
final class PropertiesMcpServerConfigurations implements Function<String, @Nullable McpServerConfiguration> {

	private final Map<String, McpServerConfiguration> configurations = new HashMap<>();

	PropertiesMcpServerConfigurations(McpSupervisorProperties properties, Environment environment) {
		SettingOrigins origins = new SettingOrigins(environment);
		McpServerSettingsResolver.resolve(properties)
			.forEach((server) -> this.configurations.put(server.name(),
					configuration(server, origins(origins, properties, server.name()))));
	}

	@Override
	public @Nullable McpServerConfiguration apply(String name) {
		return this.configurations.get(name);
	}

	private static Map<String, String> origins(SettingOrigins origins, McpSupervisorProperties properties,
			String server) {
		Map<String, String> all = new LinkedHashMap<>(origins.of(server));
		all.putAll(McpServerSettingsResolver.timeoutOrigins(properties, server));
		return all;
	}

	private static McpServerConfiguration configuration(McpServerSettings server, Map<String, String> origins) {
		boolean stdio = server.transport() == McpTransportType.STDIO;
		return new McpServerConfiguration(stdio ? server.toStdioDefinition() : null,
				stdio ? null : server.toHttpDefinition(), server.failOnStartupError(), server.required(),
				server.reconnect(), server.call(), server.healthCheck(), origins, stdio ? null : http(server.http()),
				server.toolNames());
	}

	private static McpServerConfigurationDescriptor.Http http(McpSupervisorProperties.Http http) {
		return new McpServerConfigurationDescriptor.Http(http.connectTimeout(),
				http.version().name().toLowerCase(Locale.ROOT).replace('_', '-'), http.ssl().bundle(),
				http.proxy().host(), http.proxy().port());
	}

}
