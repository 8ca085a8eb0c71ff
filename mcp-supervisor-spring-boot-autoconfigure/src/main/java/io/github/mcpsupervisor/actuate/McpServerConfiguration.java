package io.github.mcpsupervisor.actuate;

import java.util.Map;

/**
 * A server's configuration as the endpoint shows it.
 *
 * @param settings the settings shown as they are
 * @param secrets the settings whose values are masked unless values may be shown (e.g.
 * environment variables)
 */
public record McpServerConfiguration(Map<String, Object> settings, Map<String, Map<String, String>> secrets) {

}
