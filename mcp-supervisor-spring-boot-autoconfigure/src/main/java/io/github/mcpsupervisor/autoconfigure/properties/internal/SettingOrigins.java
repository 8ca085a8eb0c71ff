package io.github.mcpsupervisor.autoconfigure.properties.internal;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.springframework.boot.context.properties.source.ConfigurationPropertyName;
import org.springframework.boot.context.properties.source.ConfigurationPropertySource;
import org.springframework.boot.context.properties.source.ConfigurationPropertySources;
import org.springframework.boot.context.properties.source.ConfigurationPropertyState;
import org.springframework.core.env.Environment;

/**
 * Where each inheritable setting of a server comes from: the server's own
 * {@code mcp.servers.<name>.*}, {@code mcp.defaults.*}, or the built-in default. Read
 * from the environment's property sources, so every form (YAML, bracket keys, environment
 * variables, arguments) counts.
 *
 * @since 0.1.0
 */
public final class SettingOrigins {

	/**
	 * The settings a server inherits unless it sets them itself; {@code http.proxy}'s
	 * host and port are inherited together.
	 */
	public static final List<String> INHERITABLE = List.of("request-timeout", "initialization-timeout",
			"termination-grace-period", "fail-on-startup-error", "required", "reconnect.enabled",
			"reconnect.initial-delay", "reconnect.max-delay", "reconnect.max-attempts", "reconnect.jitter",
			"call.wait-for-recovery", "call.retry", "call.trust-annotations", "call.retry-tools",
			"health-check.interval", "health-check.timeout", "health-check.failure-threshold",
			"sampling.max-concurrent", "sampling.max-per-minute", "sampling.max-tokens", "elicitation.max-concurrent",
			"elicitation.max-per-minute", "inherit-env", "protocol", "log-level", "http.connect-timeout",
			"http.version", "http.ssl.bundle", "http.proxy", "tool-names", "tools-when-down",
			"reconnect.cooldown.enabled", "reconnect.cooldown.initial", "reconnect.cooldown.max", "standby.enabled",
			"idle.start-on-first-use", "idle.timeout");

	private final Iterable<ConfigurationPropertySource> sources;

	/**
	 * Creates the origins of the settings of an environment.
	 * @param environment the environment
	 */
	public SettingOrigins(Environment environment) {
		this.sources = ConfigurationPropertySources.get(environment);
	}

	/**
	 * Returns where each inheritable setting of a server comes from.
	 * @param server the server's name
	 * @return {@code server}, {@code defaults} or {@code built-in}, by setting
	 */
	public Map<String, String> of(String server) {
		Map<String, String> origins = new LinkedHashMap<>();
		for (String setting : INHERITABLE) {
			String origin = isSet(McpServerNames.key(server) + "." + setting) ? "server"
					: isSet("mcp.defaults." + setting) ? "defaults" : "built-in";
			origins.put(setting, origin);
		}
		return origins;
	}

	private boolean isSet(String property) {
		ConfigurationPropertyName name = ConfigurationPropertyName.adapt(property, '.');
		for (ConfigurationPropertySource source : this.sources) {
			if (source.getConfigurationProperty(name) != null
					|| source.containsDescendantOf(name) == ConfigurationPropertyState.PRESENT) {
				return true;
			}
		}
		return false;
	}

}
