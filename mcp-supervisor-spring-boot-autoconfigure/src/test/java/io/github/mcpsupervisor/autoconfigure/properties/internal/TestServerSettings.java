package io.github.mcpsupervisor.autoconfigure.properties.internal;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import io.github.mcpsupervisor.autoconfigure.properties.McpClientType;
import io.github.mcpsupervisor.autoconfigure.properties.McpSupervisorProperties;

/**
 * The effective settings of a server given by its properties as written under
 * {@code mcp.servers.<name>}, with no {@code mcp.defaults} set.
 */
public final class TestServerSettings {

	private TestServerSettings() {
	}

	/**
	 * Returns the effective settings of a server.
	 * @param name the server's name
	 * @param properties its properties, e.g. {@code command}, {@code args[0]}
	 * @return its settings, what it does not set built in
	 */
	public static McpServerSettings of(String name, Map<String, ?> properties) {
		McpSupervisorProperties configuration = new McpSupervisorProperties(true, McpPropertiesBinder.server(Map.of()),
				Map.of(), List.of(), McpClientType.SYNC, null,
				new McpSupervisorProperties.Reload(true, Duration.ofSeconds(2)),
				McpSupervisorProperties.Authorization.DEFAULTS, 4);
		return McpServerSettingsResolver.settings(name, McpPropertiesBinder.server(properties), configuration);
	}

}
