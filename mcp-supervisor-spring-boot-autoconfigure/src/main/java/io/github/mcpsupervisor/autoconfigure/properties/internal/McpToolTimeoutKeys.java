package io.github.mcpsupervisor.autoconfigure.properties.internal;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Pattern;

import org.jspecify.annotations.Nullable;

import org.springframework.boot.context.properties.source.ConfigurationPropertyName;
import org.springframework.boot.context.properties.source.ConfigurationPropertySources;
import org.springframework.boot.origin.Origin;
import org.springframework.boot.origin.PropertySourceOrigin;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.core.env.EnumerablePropertySource;
import org.springframework.core.env.PropertySource;

/**
 * The tool names of {@code call.timeouts.<tool>}, of {@code mcp.defaults} and of each
 * server, as they are written, and the ones that Spring Boot's relaxed binding would mix
 * up: written without brackets, a name is one to the binder with every spelling that
 * differs from it in case, '_' and '-' ({@code getSum}, {@code get_sum},
 * {@code get-sum}), and two tools so written would get each other's timeout. A name that
 * is not in lower case letters, digits and '-' must be written in brackets, where it is
 * exact.
 */
final class McpToolTimeoutKeys {

	private static final ConfigurationPropertyName DEFAULTS = ConfigurationPropertyName.of("mcp.defaults");

	private static final ConfigurationPropertyName SERVERS = ConfigurationPropertyName.of("mcp.servers");

	// what the binder keeps as it is written, and tells apart but for '-'
	private static final Pattern PLAIN = Pattern.compile("[a-z0-9][a-z0-9-]*");

	private McpToolTimeoutKeys() {
	}

	/**
	 * Returns each tool name of {@code call.timeouts} that binding would mix up, in the
	 * user's words.
	 * @param environment the environment
	 * @return the problems, empty if every name is bound as written
	 */
	static List<String> problems(ConfigurableEnvironment environment) {
		Map<String, String> problems = new LinkedHashMap<>();
		for (PropertySource<?> source : environment.getPropertySources()) {
			if (source instanceof EnumerablePropertySource<?> enumerable
					&& !ConfigurationPropertySources.isAttachedConfigurationPropertySource(source)) {
				boolean variables = McpServerNames.isSystemEnvironment(source);
				// the plain names of each map of this source, by the name binding reads
				Map<String, String> plain = new LinkedHashMap<>();
				for (String key : enumerable.getPropertyNames()) {
					String problem = problem(key, variables ? '_' : '.', plain);
					if (problem != null) {
						problems.putIfAbsent(key, String.format("    Property: %s%s%n    Rule: %s", key,
								origin(PropertySourceOrigin.get(source, key)), problem));
					}
				}
			}
		}
		return List.copyOf(problems.values());
	}

	/**
	 * Returns why binding would mix up the tool name of a key of the properties of a
	 * server given to the API, e.g. {@code call.timeouts.run_code}.
	 * @param key the key, relative to the server
	 * @return the problem, or {@code null} if there is none
	 */
	static @Nullable String problem(String key) {
		String problem = problem("mcp.servers.server." + key, '.', new LinkedHashMap<>());
		return (problem != null) ? problem.replace("mcp.servers.server.", "") : null;
	}

	private static @Nullable String problem(String key, char separator, Map<String, String> plain) {
		ConfigurationPropertyName name;
		try {
			name = ConfigurationPropertyName.adapt((separator == '_') ? key.toLowerCase(Locale.ENGLISH) : key,
					separator);
		}
		catch (RuntimeException ex) {
			return null; // Spring Boot ignores a key it cannot adapt
		}
		if (!DEFAULTS.isAncestorOf(name) && !SERVERS.isAncestorOf(name)) {
			return null;
		}
		List<String> elements = elements(key, separator);
		// after the defaults, or after the server's name (which '_' may split)
		int timeouts = -1;
		for (int i = 2; i + 2 < elements.size() && timeouts < 0; i++) {
			if (elements.get(i).equalsIgnoreCase("call") && elements.get(i + 1).equalsIgnoreCase("timeouts")) {
				timeouts = i;
			}
		}
		if (timeouts < 0) {
			return null;
		}
		String tool = elements.get(timeouts + 2);
		if (tool.startsWith("[")) {
			return null;
		}
		String map = String.join(".", elements.subList(0, timeouts + 2));
		if (separator == '_') {
			return (elements.size() > timeouts + 3)
					? "an environment variable cannot name a tool whose name has '_' (Spring Boot reads each '_' as a "
							+ "'.', and the name in lower case): set "
							+ map.toLowerCase(Locale.ENGLISH).replace('_', '.') + "[<tool>] in a properties "
							+ "or YAML file, or in SPRING_APPLICATION_JSON"
					: null;
		}
		String bracketed = map + "[" + tool + "]";
		if (!PLAIN.matcher(tool).matches()) {
			return "the tool name '" + tool + "' is written without brackets, where Spring Boot's relaxed binding "
					+ "reads it as one name with every spelling that differs in case, '_' and '-' (getSum, get_sum, "
					+ "get-sum), and two tools so written would get each other's timeout: write it in brackets, "
					+ bracketed + " (quoted in YAML: \"[" + tool + "]\")";
		}
		String uniform = map + "." + tool.replace("-", "");
		String other = plain.putIfAbsent(uniform, tool);
		if (other != null && !other.equals(tool)) {
			return "the tool names '" + other + "' and '" + tool + "' are one name to Spring Boot's relaxed binding, "
					+ "and the two tools would get each other's timeout: write both in brackets, " + map + "[" + other
					+ "] and " + bracketed;
		}
		return null;
	}

	// The elements of a key as written, a bracketed one with its brackets.
	private static List<String> elements(String key, char separator) {
		List<String> elements = new ArrayList<>();
		for (McpServerNames.Element element : McpServerNames.elements(key, separator)) {
			elements.add(element.isBracketed() ? "[" + element.text() + "]" : element.text());
		}
		return elements;
	}

	private static String origin(@Nullable Origin origin) {
		return (origin != null) ? String.format("%n    Origin: %s", origin) : "";
	}

}
