package io.github.mcpsupervisor.autoconfigure.properties.internal;

import java.lang.reflect.ParameterizedType;
import java.lang.reflect.RecordComponent;
import java.lang.reflect.Type;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

import io.github.mcpsupervisor.autoconfigure.properties.McpSupervisorProperties;
import org.jspecify.annotations.Nullable;

import org.springframework.boot.context.properties.bind.DataObjectPropertyName;
import org.springframework.boot.context.properties.source.ConfigurationPropertyName;
import org.springframework.boot.context.properties.source.ConfigurationPropertyName.Form;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.core.env.EnumerablePropertySource;
import org.springframework.core.env.PropertySource;
import org.springframework.core.env.StandardEnvironment;
import org.springframework.util.PropertyPlaceholderHelper;

/**
 * Finds the {@code MCP_*} environment variables that bind to no property of the MCP
 * supervisor, which Spring Boot ignores without a word (unknown keys are refused in every
 * other source), each with the property it probably meant.
 */
final class UnboundMcpVariables {

	private static final ConfigurationPropertyName ROOT = ConfigurationPropertyName.of("mcp");

	private static final String SERVER = "<name>";

	private static final Pattern INDEX = Pattern.compile("_[0-9]+");

	private static final PropertyPlaceholderHelper PLACEHOLDERS = new PropertyPlaceholderHelper("${", "}", ":", null,
			true);

	private static final List<Property> PROPERTIES = properties(List.of("mcp"), McpSupervisorProperties.class);

	private final Map<String, String> exact = new LinkedHashMap<>();

	private final Map<String, String> indexed = new LinkedHashMap<>();

	private final Map<String, String> prefixes = new LinkedHashMap<>();

	private final Map<String, String> unreachable = new LinkedHashMap<>();

	private final Set<String> roots = new LinkedHashSet<>();

	/**
	 * Creates the check of the variables for the servers that exist.
	 * @param servers the names of the servers as they are bound
	 */
	UnboundMcpVariables(Collection<String> servers) {
		for (Property property : PROPERTIES) {
			this.roots.add(variable(property.elements().subList(0, 2), false));
			this.roots.add(variable(property.elements().subList(0, 2), true));
			List<List<String>> namings = new ArrayList<>();
			if (property.elements().contains(SERVER)) {
				for (String server : servers) {
					namings.add(property.elements().stream().map((e) -> e.equals(SERVER) ? server : e).toList());
				}
			}
			else {
				namings.add(property.elements());
			}
			for (List<String> elements : namings) {
				String name = String.join(".", elements);
				// Spring Boot reads a variable's map key after the name's '_' as '.', so
				// an
				// entry of a map under a name with '_' or '-' lands under another name
				boolean reachable = elements.stream().noneMatch((e) -> e.contains("_") || e.contains("-"));
				for (String variable : new LinkedHashSet<>(
						List.of(variable(elements, false), variable(elements, true)))) {
					switch (property.kind()) {
						case SCALAR -> this.exact.putIfAbsent(variable, name);
						case LIST -> {
							this.exact.putIfAbsent(variable, name);
							this.indexed.putIfAbsent(variable, name);
						}
						case MAP -> {
							this.exact.putIfAbsent(variable, name);
							(reachable ? this.prefixes : this.unreachable).putIfAbsent(variable + "_", name);
						}
					}
				}
			}
		}
	}

	/**
	 * Returns a warning for each {@code MCP_*} environment variable and {@code mcp.*}
	 * system property that binds to nothing, naming it and never its value.
	 * @param environment the environment
	 * @param inherited whether a stdio server inherits a variable, which makes it used
	 * @return the warnings
	 */
	List<String> warnings(ConfigurableEnvironment environment, Predicate<String> inherited) {
		List<String> warnings = new ArrayList<>();
		Set<String> referenced = referenced(environment);
		for (PropertySource<?> source : environment.getPropertySources()) {
			if (!(source instanceof EnumerablePropertySource<?> enumerable)) {
				continue;
			}
			if (McpServerNames.isSystemEnvironment(source)) {
				for (String variable : enumerable.getPropertyNames()) {
					if (variable.toUpperCase(Locale.ENGLISH).startsWith("MCP_") && !binds(variable)
							&& !inherited.test(variable) && !referenced.contains(variable)) {
						addIfAny(warnings, warning("Environment variable " + variable, variable, false));
					}
				}
			}
			else if (StandardEnvironment.SYSTEM_PROPERTIES_PROPERTY_SOURCE_NAME.equals(source.getName())) {
				for (String property : enumerable.getPropertyNames()) {
					String variable = variable(property);
					if (variable != null && !binds(variable)) {
						addIfAny(warnings, warning("System property " + property, variable, true));
					}
				}
			}
		}
		return warnings;
	}

	private static void addIfAny(List<String> warnings, @Nullable String warning) {
		if (warning != null) {
			warnings.add(warning);
		}
	}

	// the variables that placeholders of the other sources name, as themselves and as
	// the variable of the property they name, which is what resolves them
	private static Set<String> referenced(ConfigurableEnvironment environment) {
		Set<String> referenced = new LinkedHashSet<>();
		for (PropertySource<?> source : environment.getPropertySources()) {
			if (source instanceof EnumerablePropertySource<?> enumerable
					&& !McpServerNames.isSystemEnvironment(source)) {
				for (String name : enumerable.getPropertyNames()) {
					PLACEHOLDERS.replacePlaceholders(String.valueOf(enumerable.getProperty(name)), (reference) -> {
						referenced.add(reference);
						referenced.add(reference.replace('.', '_').replace('-', '_').toUpperCase(Locale.ENGLISH));
						return null;
					});
				}
			}
		}
		return referenced;
	}

	// the uniform variable of a system property under mcp, or null
	private static @Nullable String variable(String property) {
		ConfigurationPropertyName name = ConfigurationPropertyName.adapt(property, '.');
		if (!ROOT.isAncestorOf(name)) {
			return null;
		}
		List<String> elements = new ArrayList<>();
		for (int i = 0; i < name.getNumberOfElements(); i++) {
			elements.add(name.getElement(i, Form.UNIFORM));
		}
		return variable(elements, false);
	}

	boolean binds(String variable) {
		String upper = variable.toUpperCase(Locale.ENGLISH);
		if (this.exact.containsKey(upper)) {
			return true;
		}
		for (Map.Entry<String, String> list : this.indexed.entrySet()) {
			if (upper.startsWith(list.getKey()) && INDEX.matcher(upper.substring(list.getKey().length())).matches()) {
				return true;
			}
		}
		return this.prefixes.keySet()
			.stream()
			.anyMatch((prefix) -> upper.startsWith(prefix) && upper.length() > prefix.length());
	}

	private @Nullable String warning(String what, String variable, boolean property) {
		String upper = variable.toUpperCase(Locale.ENGLISH);
		for (Map.Entry<String, String> map : this.unreachable.entrySet()) {
			if (upper.startsWith(map.getKey()) && upper.length() > map.getKey().length()) {
				return what + " binds to no property of the MCP supervisor and is ignored: an entry of "
						+ map.getValue() + " cannot be set by an environment variable when the server's name has '_'"
						+ " or '-'; set it in a configuration file or in SPRING_APPLICATION_JSON";
			}
		}
		@Nullable String nearest = null;
		int distance = Integer.MAX_VALUE;
		for (String candidate : this.exact.keySet()) {
			int d = distance(upper, candidate);
			if (d < distance) {
				distance = d;
				nearest = candidate;
			}
		}
		// a far one is no likely meaning, and a variable far from every property and
		// outside the supervisor's top-level names is another program's (MCP_TIMEOUT)
		boolean near = nearest != null && distance <= 2 + nearest.length() / 8;
		if (!near && this.roots.stream().noneMatch((root) -> upper.equals(root) || upper.startsWith(root + "_"))) {
			return null;
		}
		String meant = near
				? "; did you mean "
						+ (property ? this.exact.get(nearest) : nearest + " (" + this.exact.get(nearest) + ")") + "?"
				: "";
		return what + " binds to no property of the MCP supervisor and is ignored" + meant;
	}

	// Spring Boot's two forms of a property's variable: dashes removed, or (legacy)
	// written as underscores
	private static String variable(List<String> elements, boolean legacy) {
		return elements.stream()
			.map((element) -> legacy ? element.replace('-', '_')
					: element.replaceAll("[^A-Za-z0-9]", "").toLowerCase(Locale.ENGLISH))
			.collect(Collectors.joining("_"))
			.toUpperCase(Locale.ENGLISH);
	}

	private static int distance(String one, String other) {
		int[] previous = new int[other.length() + 1];
		int[] current = new int[other.length() + 1];
		for (int j = 0; j <= other.length(); j++) {
			previous[j] = j;
		}
		for (int i = 1; i <= one.length(); i++) {
			current[0] = i;
			for (int j = 1; j <= other.length(); j++) {
				int substitution = previous[j - 1] + ((one.charAt(i - 1) == other.charAt(j - 1)) ? 0 : 1);
				current[j] = Math.min(substitution, Math.min(previous[j], current[j - 1]) + 1);
			}
			int[] swap = previous;
			previous = current;
			current = swap;
		}
		return previous[other.length()];
	}

	// every property of the binding, from the records' components: a map of records is
	// keyed by server name, any other map takes any key
	private static List<Property> properties(List<String> prefix, Class<?> type) {
		List<Property> properties = new ArrayList<>();
		for (RecordComponent component : type.getRecordComponents()) {
			List<String> elements = new ArrayList<>(prefix);
			elements.add(DataObjectPropertyName.toDashedForm(component.getName()));
			Class<?> componentType = component.getType();
			if (Map.class.isAssignableFrom(componentType)) {
				Class<?> value = valueType(component.getGenericType());
				if (value != null && value.isRecord()) {
					elements.add(SERVER);
					properties.addAll(properties(elements, value));
				}
				else {
					properties.add(new Property(List.copyOf(elements), Kind.MAP));
				}
			}
			else if (Collection.class.isAssignableFrom(componentType) || componentType.isArray()) {
				properties.add(new Property(List.copyOf(elements), Kind.LIST));
			}
			else if (componentType.isRecord()) {
				properties.addAll(properties(elements, componentType));
			}
			else {
				properties.add(new Property(List.copyOf(elements), Kind.SCALAR));
			}
		}
		return properties;
	}

	private static @Nullable Class<?> valueType(Type type) {
		if (type instanceof ParameterizedType parameterized
				&& parameterized.getActualTypeArguments()[1] instanceof Class<?> value) {
			return value;
		}
		return null;
	}

	private enum Kind {

		SCALAR, LIST, MAP

	}

	private record Property(List<String> elements, Kind kind) {

	}

}
