package io.github.mcpsupervisor.autoconfigure.properties.internal;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import io.github.mcpsupervisor.autoconfigure.properties.McpSupervisorProperties;
import io.github.mcpsupervisor.autoconfigure.properties.McpSupervisorProperties.Server;
import io.github.mcpsupervisor.transport.internal.stdio.ProcessRecords;

import org.springframework.core.env.Environment;

/**
 * Resolves the bound {@link McpSupervisorProperties} into the effective settings of each
 * enabled server, merging each server once with {@code mcp.defaults}, themselves merged
 * with the built-in values, by {@link McpSupervisorProperties#effective}.
 *
 * @since 0.1.0
 */
public final class McpServerSettingsResolver {

	private McpServerSettingsResolver() {
	}

	/**
	 * Returns the enabled servers with the settings they have once the defaults are
	 * applied, in the order of their names.
	 * @param properties the bound properties
	 * @return the effective settings of each enabled server
	 */
	public static List<McpServerSettings> resolve(McpSupervisorProperties properties) {
		List<McpServerSettings> settings = new ArrayList<>();
		new TreeMap<>(properties.servers()).forEach((name, server) -> {
			if (server.isEnabled()) {
				settings.add(new McpServerSettings(name, properties.effective(server)));
			}
		});
		return List.copyOf(settings);
	}

	/**
	 * Returns the directory where the processes of the stdio servers are recorded:
	 * {@code mcp.runtime-directory}, or a directory per user, application name and
	 * working directory under {@code java.io.tmpdir}.
	 * @param properties the bound properties
	 * @param environment the environment, for {@code spring.application.name}
	 * @return the directory
	 */
	public static Path runtimeDirectory(McpSupervisorProperties properties, Environment environment) {
		Path directory = properties.runtimeDirectory();
		return (directory != null) ? directory
				: ProcessRecords.defaultDirectory(environment.getProperty("spring.application.name", "application"));
	}

	/**
	 * Returns the effective settings of a server: its own, and for each one it does not
	 * set, that of the defaults.
	 * @param name the server's name
	 * @param server the server as it is configured
	 * @param properties the bound properties, for the defaults
	 * @return its effective settings
	 */
	public static McpServerSettings settings(String name, Server server, McpSupervisorProperties properties) {
		return new McpServerSettings(name, properties.effective(server));
	}

	/**
	 * Returns the settings of a server read from its effective settings, as
	 * {@code McpServerRegistry} gives them.
	 * @param name the server's name
	 * @param effective its settings once merged, each one set
	 * @return its settings
	 */
	public static McpServerSettings effective(String name, Server effective) {
		return new McpServerSettings(name, effective);
	}

	/**
	 * Returns where each of a server's tool timeouts comes from: its own
	 * {@code call.timeouts}, or {@code mcp.defaults.call.timeouts}.
	 * @param properties the bound properties
	 * @param server the server's name
	 * @return {@code server} or {@code defaults}, by {@code call.timeouts[<tool>]}
	 */
	public static Map<String, String> timeoutOrigins(McpSupervisorProperties properties, String server) {
		Server own = properties.servers().get(server);
		Map<String, String> origins = new TreeMap<>();
		properties.defaults().call().timeouts().keySet().forEach((tool) -> origins.put(timeoutKey(tool), "defaults"));
		if (own != null) {
			own.call().timeouts().keySet().forEach((tool) -> origins.put(timeoutKey(tool), "server"));
		}
		return origins;
	}

	/**
	 * Returns the key under which the origin of a tool's own timeout is shown.
	 * @param tool the tool's name on the server
	 * @return the key, {@code call.timeouts[<tool>]}
	 */
	public static String timeoutKey(String tool) {
		return "call.timeouts[" + tool + "]";
	}

}
