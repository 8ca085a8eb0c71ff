package io.github.mcpsupervisor.autoconfigure.properties.internal;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

import org.jspecify.annotations.Nullable;

import org.springframework.boot.context.properties.source.ConfigurationPropertyName;
import org.springframework.boot.context.properties.source.ConfigurationPropertyName.Form;
import org.springframework.boot.context.properties.source.ConfigurationPropertySources;
import org.springframework.boot.origin.Origin;
import org.springframework.boot.origin.PropertySourceOrigin;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.core.env.EnumerablePropertySource;
import org.springframework.core.env.PropertySource;
import org.springframework.core.env.StandardEnvironment;
import org.springframework.core.env.SystemEnvironmentPropertySource;

/**
 * The server names of {@code mcp.servers.<name>.*} as they are written in each property
 * source, and the ways Spring Boot's binding would change them: a key of the plain form
 * is bound by the name its element keeps once the binder drops what is not a letter, a
 * digit, '_' or '-' (and a leading '-'), and names that differ only in case, '_' and '-'
 * are one name to it, except in brackets, where a name is exact.
 */
final class McpServerNames {

	private static final ConfigurationPropertyName SERVERS = ConfigurationPropertyName.of("mcp.servers");

	private static final String ALLOWED = "A server name is 1 to 32 letters, digits, '_' or '-'; write a name that "
			+ "the plain form would change (one that starts with '-') in brackets, e.g. mcp.servers[-x].command.";

	private final List<Spelling> spellings;

	private McpServerNames(List<Spelling> spellings) {
		this.spellings = spellings;
	}

	/**
	 * Reads the server names of every property source of an environment.
	 * @param environment the environment
	 * @return the names as written
	 */
	static McpServerNames of(ConfigurableEnvironment environment) {
		List<Spelling> spellings = new ArrayList<>();
		for (PropertySource<?> source : environment.getPropertySources()) {
			if (source instanceof EnumerablePropertySource<?> enumerable
					&& !ConfigurationPropertySources.isAttachedConfigurationPropertySource(source)) {
				boolean environmentVariables = isSystemEnvironment(source);
				for (String key : enumerable.getPropertyNames()) {
					add(spellings, source, key, '.');
					if (environmentVariables) {
						add(spellings, source, key, '_');
					}
				}
			}
		}
		return new McpServerNames(List.copyOf(spellings));
	}

	/**
	 * Returns the key of a server, in the plain form when it keeps the name as it is and
	 * in brackets otherwise, e.g. {@code mcp.servers.files} or {@code mcp.servers[-x]}.
	 * @param name the server's name
	 * @return its key, to which {@code .<property>} is appended
	 */
	static String key(String name) {
		ConfigurationPropertyName plain = ConfigurationPropertyName.adapt(name, '.');
		boolean kept = plain.getNumberOfElements() == 1 && plain.getElement(0, Form.ORIGINAL).equals(name);
		return kept ? "mcp.servers." + name : "mcp.servers[" + name + "]";
	}

	/**
	 * Returns the names the servers are bound by, and so the names that exist.
	 * @return the names, in the order they are first written
	 */
	Set<String> bound() {
		Set<String> names = new LinkedHashSet<>();
		this.spellings.forEach((spelling) -> names.add(spelling.bound()));
		return names;
	}

	/**
	 * Returns the names of the servers' entries as the binder reads them.
	 * @return the names, e.g. {@code mcp.servers.files}
	 */
	Set<ConfigurationPropertyName> entries() {
		Set<ConfigurationPropertyName> entries = new LinkedHashSet<>();
		this.spellings.forEach((spelling) -> entries.add(spelling.entry()));
		return entries;
	}

	/**
	 * Returns each way binding would change a name, in the user's words.
	 * @return the problems, empty if every name is bound as written
	 */
	List<String> problems() {
		Map<String, String> problems = new LinkedHashMap<>();
		for (Spelling spelling : this.spellings) {
			if (spelling.isAltered()) {
				String bound = spelling.bound();
				problems.putIfAbsent(spelling.source() + "\0" + spelling.written(), problem(spelling,
						"the server name '" + spelling.written() + "' would be bound as '" + bound + "'"
								+ ": Spring Boot drops the characters of a key's name that are not letters, digits, "
								+ "'_' or '-', and a leading '-'"
								+ (spelling.environmentVariable()
										? ", and an environment variable's name is bound in lower case" : "")
								+ ". " + ALLOWED));
			}
			else if (spelling.isWhole()) {
				problems.putIfAbsent(spelling.source() + "\0" + spelling.key(), problem(spelling,
						"gives a value to the server '" + spelling.bound() + "' itself, not to one of its properties"
								+ ((spelling.environmentVariable() && spelling.bound().equals("configuration"))
										? ": Spring Boot reads MCP_SERVERS_CONFIGURATION as a server named "
												+ "'configuration'; set mcp.servers-configuration with the variable "
												+ "MCP_SERVERSCONFIGURATION"
										: "")));
			}
		}
		if (!problems.isEmpty()) {
			return List.copyOf(problems.values());
		}
		for (int i = 0; i < this.spellings.size(); i++) {
			for (int j = i + 1; j < this.spellings.size(); j++) {
				Spelling one = this.spellings.get(i);
				Spelling other = this.spellings.get(j);
				boolean sameKey = one.bound().equals(other.bound());
				boolean sameName = one.entry().equals(other.entry());
				String pair = pair(one, other);
				if (!sameKey && sameName) {
					problems.putIfAbsent(pair, problem(one, other, "'" + one.bound() + "' and '" + other.bound()
							+ "' are one name to Spring Boot's relaxed binding, which would bind two servers, each "
							+ "with the properties of both: write the name the same way everywhere. An environment "
							+ "variable sets a property of a server whose name has '_' or '-' with each '-' written "
							+ "as '_' (e.g. MCP_SERVERS_MY_SERVER_ARGS for my-server), but not an entry of its env or "
							+ "headers, and cannot set one of a name with capital letters."));
				}
				else if (sameKey && !sameName) {
					problems.putIfAbsent(pair, problem(one, other, "'" + one.bound()
							+ "' in brackets and without are two names to Spring Boot (a name in brackets is "
							+ "exact, one without matches whatever its case, '_' and '-'), and the properties of "
							+ "one of them would be silently ignored: write the name the same way in every key, "
							+ "in brackets or not."));
				}
			}
		}
		return List.copyOf(problems.values());
	}

	private static String pair(Spelling one, Spelling other) {
		String first = one.bound() + "\0" + one.entry();
		String second = other.bound() + "\0" + other.entry();
		return (first.compareTo(second) < 0) ? first + "\0" + second : second + "\0" + first;
	}

	private static String problem(Spelling spelling, String rule) {
		return String.format("    Property: %s%s%n    Rule: %s", spelling.key(), origin(spelling), rule);
	}

	private static String problem(Spelling one, Spelling other, String rule) {
		return String.format("    Property: %s%s%n    Property: %s%s%n    Rule: %s", one.key(), origin(one),
				other.key(), origin(other), rule);
	}

	private static String origin(Spelling spelling) {
		return (spelling.origin() != null) ? String.format("%n    Origin: %s", spelling.origin()) : "";
	}

	static boolean isSystemEnvironment(PropertySource<?> source) {
		// as Spring Boot decides which sources are read as environment variables
		String name = source.getName();
		return source instanceof SystemEnvironmentPropertySource
				&& (StandardEnvironment.SYSTEM_ENVIRONMENT_PROPERTY_SOURCE_NAME.equals(name)
						|| name.endsWith("-" + StandardEnvironment.SYSTEM_ENVIRONMENT_PROPERTY_SOURCE_NAME));
	}

	private static void add(List<Spelling> spellings, PropertySource<?> source, String key, char separator) {
		String adaptable = (separator == '_') ? key.toLowerCase(Locale.ENGLISH) : key;
		ConfigurationPropertyName name;
		try {
			name = ConfigurationPropertyName.adapt(adaptable, separator);
		}
		catch (RuntimeException ex) {
			return; // Spring Boot ignores a key it cannot adapt
		}
		if (!SERVERS.isAncestorOf(name)) {
			return;
		}
		List<Element> elements = elements(key, separator);
		if (elements.size() < 3 || elements.get(0).isBracketed() || elements.get(1).isBracketed()) {
			return;
		}
		Element written = elements.get(2);
		spellings.add(new Spelling(written.text(), written.isBracketed(), separator == '_', name.chop(3),
				name.getNumberOfElements() == 3, key, source.getName(), PropertySourceOrigin.get(source, key)));
	}

	// A key's elements as Spring Boot's parser splits them, before it drops any
	// character: at the separator, and around the brackets of an index.
	static List<Element> elements(String key, char separator) {
		List<Element> elements = new ArrayList<>();
		int depth = 0;
		StringBuilder element = new StringBuilder();
		boolean bracketed = false;
		for (char ch : key.toCharArray()) {
			if (ch == '[' && depth++ == 0) {
				addElement(elements, element, bracketed);
				bracketed = true;
			}
			else if (ch == ']' && depth > 0 && --depth == 0) {
				addElement(elements, element, true);
				bracketed = false;
			}
			else if (ch == separator && depth == 0) {
				addElement(elements, element, bracketed);
				bracketed = false;
			}
			else {
				element.append(ch);
			}
		}
		addElement(elements, element, bracketed);
		return elements;
	}

	private static void addElement(List<Element> elements, StringBuilder element, boolean bracketed) {
		if (!element.isEmpty()) {
			elements.add(new Element(element.toString(), bracketed));
		}
		element.setLength(0);
	}

	record Element(String text, boolean isBracketed) {

	}

	/**
	 * A server name as one key writes it.
	 *
	 * @param written the name as written
	 * @param bracketed whether it is written in brackets
	 * @param environmentVariable whether the key is an environment variable's name
	 * @param entry the name of the server's entry as the binder reads it
	 * @param isWhole whether the key sets the entry itself rather than a property of it
	 * @param key the key
	 * @param source the name of the property source
	 * @param origin where the key is written
	 */
	private record Spelling(String written, boolean bracketed, boolean environmentVariable,
			ConfigurationPropertyName entry, boolean isWhole, String key, String source, @Nullable Origin origin) {

		// the key of the map entry: the element as Spring Boot keeps it
		String bound() {
			return this.entry.getElement(2, Form.ORIGINAL);
		}

		boolean isAltered() {
			if (this.bracketed) {
				return false;
			}
			String expected = this.environmentVariable ? this.written.toLowerCase(Locale.ENGLISH) : this.written;
			return !keptOf(expected).equals(expected);
		}

		// the element alone as Spring Boot keeps it; empty when it drops all of it
		private String keptOf(String element) {
			ConfigurationPropertyName alone = ConfigurationPropertyName.adapt(element,
					this.environmentVariable ? '_' : '.');
			return (alone.getNumberOfElements() == 1) ? alone.getElement(0, Form.ORIGINAL) : "";
		}

	}

}
