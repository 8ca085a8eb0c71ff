package io.github.mcpsupervisor.autoconfigure.properties;

import java.io.IOException;
import java.io.InputStream;
import java.lang.reflect.Constructor;
import java.lang.reflect.Parameter;
import java.lang.reflect.RecordComponent;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

import io.github.mcpsupervisor.autoconfigure.properties.McpSupervisorProperties.OAuth;
import io.github.mcpsupervisor.autoconfigure.properties.McpSupervisorProperties.Server;
import io.github.mcpsupervisor.autoconfigure.properties.internal.SettingOrigins;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.boot.context.properties.bind.DataObjectPropertyName;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.core.io.ClassPathResource;
import org.springframework.util.ReflectionUtils;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The property tables of the configuration reference against the binding: every property
 * that is bound is documented in its table, every documented property is bound, and the
 * default a table gives is the binding's. The bound properties are walked from the
 * records of {@link McpSupervisorProperties} and named as Spring Boot's binder names
 * them; the actuator properties are read from the configuration metadata the build
 * generates.
 * <p>
 * A row is written {@code name=default}, or {@code name} alone when the binding has no
 * default (the property is not set, or its default is worked out from elsewhere) and the
 * table's default column says so in words ("not set", "—") rather than with a value in
 * code font. A row whose properties the reference documents in a table of their own is
 * written {@code name.*}.
 */
class ConfigurationReferenceTests {

	private static final Path REFERENCE = Path.of("../docs/configuration.md");

	/** The records whose properties the reference documents in a table of their own. */
	private static final Set<Class<?>> OWN_TABLES = Set.of(Server.class, OAuth.class);

	/** A row of a table: the property names in code font, then the default column. */
	private static final Pattern ROW = Pattern.compile("^\\| (`[^|]+) \\| ([^|]+) \\|.*$");

	private static final Pattern CODE = Pattern.compile("`([^`]+)`");

	@Test
	void theStarterTableIsTheBindingOfMcp() throws IOException {
		assertThat(documented("Properties of the starter"))
			.containsExactlyInAnyOrderElementsOf(rows(bound("mcp.", McpSupervisorProperties.class)));
	}

	@Test
	void theServerTableIsWhatAServerSetsAndDoesNotInherit() throws IOException {
		Map<String, @Nullable String> own = builtIn("", false);
		own.keySet().removeIf((name) -> !isOwn(name));
		assertThat(documented("Properties of each server")).containsExactlyInAnyOrderElementsOf(rows(own));
	}

	@Test
	void theInheritedTableIsTheDefaultsWithTheirBuiltInValues() throws IOException {
		Map<String, @Nullable String> inherited = builtIn("", false);
		inherited.keySet().removeIf(ConfigurationReferenceTests::isOwn);
		assertThat(documented("Settings a server inherits from `mcp.defaults`"))
			.containsExactlyInAnyOrderElementsOf(rows(inherited));
	}

	@Test
	void theOAuthTableIsTheBindingOfAServersOAuth() throws IOException {
		assertThat(documented("OAuth properties")).containsExactlyInAnyOrderElementsOf(rows(bound("", OAuth.class)));
	}

	@Test
	void theActuatorTableIsTheManagementPropertiesOfTheMetadata() throws IOException {
		Map<String, @Nullable String> management = new TreeMap<>();
		metadata().forEach((name, property) -> {
			if (name.startsWith("management.")) {
				JsonNode value = property.get("defaultValue");
				// an enum's default is its constant (read_only), bound as read-only
				management.put(name, (value != null) ? value.asString().replace('_', '-') : null);
			}
		});
		assertThat(documented("Actuator properties")).containsExactlyInAnyOrderElementsOf(rows(management));
	}

	@Test
	void theWalkNamesTheBoundPropertiesAsTheConfigurationMetadataDoes() throws IOException {
		Map<String, @Nullable String> walked = bound("mcp.", McpSupervisorProperties.class);
		walked.remove("mcp.defaults.*");
		walked.putAll(builtIn("mcp.defaults.", true));
		Map<String, JsonNode> metadata = metadata();
		metadata.keySet().removeIf((name) -> !name.startsWith("mcp."));
		assertThat(metadata.keySet()).containsExactlyInAnyOrderElementsOf(walked.keySet());
		metadata.forEach((name, property) -> {
			JsonNode value = property.get("defaultValue");
			if (value != null) {
				assertThat(walked.get(name)).as(name).isEqualTo(value.asString());
			}
		});
	}

	@Test
	void theMetadataGivesEveryInheritedSettingItsBuiltInValue() throws IOException {
		Map<String, JsonNode> metadata = metadata();
		builtIn("mcp.defaults.", true).forEach((name, value) -> {
			if (value != null && !isOwn(name.substring("mcp.defaults.".length())) && !value.startsWith("[")
					&& !value.startsWith("{")) {
				assertThat(metadata.get(name).get("defaultValue")).as(name).isNotNull();
			}
		});
	}

	@Test
	void theMetadataMarksTheSettingsOfEachServerUnderTheDefaultsAsErrors() throws IOException {
		Map<String, JsonNode> metadata = metadata();
		builtIn("mcp.defaults.", true).keySet().forEach((name) -> {
			JsonNode deprecation = metadata.get(name).get("deprecation");
			if (isOwn(name.substring("mcp.defaults.".length()))) {
				assertThat(deprecation).as(name).isNotNull();
				assertThat(deprecation.get("level").asString()).as(name).isEqualTo("error");
			}
			else {
				assertThat(deprecation).as(name).isNull();
			}
		});
	}

	@Test
	void theOriginsAreGivenForEverySettingAServerInherits() {
		Set<String> inherited = new TreeSet<>();
		builtIn("", false).keySet().forEach((name) -> {
			if (!isOwn(name) && !name.equals("call.timeouts")) {
				// host and port are one setting
				inherited.add(name.startsWith("http.proxy.") ? "http.proxy" : name);
			}
		});
		assertThat(SettingOrigins.INHERITABLE).containsExactlyInAnyOrderElementsOf(inherited);
	}

	@Test
	void everySettingOfAServerCanBeLeftUnset() {
		// a primitive would be a value set wherever the binding leaves it out
		assertNoPrimitive(Server.class);
	}

	private static void assertNoPrimitive(Class<?> record) {
		for (RecordComponent component : record.getRecordComponents()) {
			assertThat(component.getType().isPrimitive()).as(record.getSimpleName() + "." + component.getName())
				.isFalse();
			if (component.getType().isRecord()) {
				assertNoPrimitive(component.getType());
			}
		}
	}

	// a setting of how a server is reached or authorized, which it does not inherit
	private static boolean isOwn(String name) {
		String setting = name.replaceFirst("[.].*$", "");
		return ValidServers.OWN_SETTINGS.stream().map(DataObjectPropertyName::toDashedForm).anyMatch(setting::equals);
	}

	// The properties of a server as Spring Boot binds them, by name, with the built-in
	// value of each; OAuth's in a table of their own unless all are walked.
	private static Map<String, @Nullable String> builtIn(String prefix, boolean all) {
		return valuesOf(prefix, BuiltInSettings.SERVER, all);
	}

	private static Map<String, @Nullable String> valuesOf(String prefix, Record record, boolean all) {
		Map<String, @Nullable String> properties = new TreeMap<>();
		for (RecordComponent component : record.getClass().getRecordComponents()) {
			String name = prefix + DataObjectPropertyName.toDashedForm(component.getName());
			Object value = ReflectionUtils.invokeMethod(component.getAccessor(), record);
			if (!all && OWN_TABLES.contains(component.getType())) {
				properties.put(name + ".*", null);
			}
			else if (value instanceof Record group) {
				properties.putAll(valuesOf(name + ".", group, all));
			}
			else {
				properties.put(name, written(value));
			}
		}
		return properties;
	}

	// A value as the reference writes it, e.g. 20s, 500ms, http-1-1, [].
	private static @Nullable String written(@Nullable Object value) {
		if (value == null) {
			return null;
		}
		if (value instanceof Duration duration) {
			return (duration.toMillis() % 60_000 == 0) ? duration.toMinutes() + "m"
					: (duration.toMillis() % 1000 == 0) ? duration.toSeconds() + "s" : duration.toMillis() + "ms";
		}
		if (value instanceof Enum<?> constant) {
			return constant.name().toLowerCase(Locale.ROOT).replace('_', '-');
		}
		if (value instanceof Collection<?> collection) {
			assertThat(collection).as("a built-in list").isEmpty();
			return "[]";
		}
		if (value instanceof Map<?, ?> map) {
			assertThat(map).as("a built-in map").isEmpty();
			return "{}";
		}
		return value.toString();
	}

	// The properties of a record as Spring Boot binds them, by name, with their defaults.
	private static Map<String, @Nullable String> bound(String prefix, Class<?> record) {
		Map<String, @Nullable String> properties = new TreeMap<>();
		RecordComponent[] components = record.getRecordComponents();
		Parameter[] parameters = canonicalConstructor(record).getParameters();
		for (int i = 0; i < components.length; i++) {
			String name = prefix + DataObjectPropertyName.toDashedForm(components[i].getName());
			Class<?> type = components[i].getType();
			if (OWN_TABLES.contains(type)) {
				properties.put(name + ".*", null);
			}
			else if (type.isRecord()) {
				properties.putAll(bound(name + ".", type));
			}
			else {
				properties.put(name, defaultOf(type, parameters[i].getAnnotation(DefaultValue.class)));
			}
		}
		return properties;
	}

	private static Constructor<?> canonicalConstructor(Class<?> record) {
		Class<?>[] types = Arrays.stream(record.getRecordComponents())
			.map(RecordComponent::getType)
			.toArray(Class<?>[]::new);
		try {
			return record.getDeclaredConstructor(types);
		}
		catch (NoSuchMethodException ex) {
			throw new IllegalStateException(ex);
		}
	}

	// What the reference writes for a default: the value, or an empty list or map.
	private static @Nullable String defaultOf(Class<?> type, @Nullable DefaultValue defaultValue) {
		if (defaultValue == null) {
			return null;
		}
		if (defaultValue.value().length > 0) {
			return String.join(",", defaultValue.value());
		}
		if (Map.class.isAssignableFrom(type)) {
			return "{}";
		}
		assertThat(type).as("a type whose default is empty").isAssignableTo(Collection.class);
		return "[]";
	}

	private static Set<String> rows(Map<String, @Nullable String> properties) {
		return properties.entrySet()
			.stream()
			.map((property) -> row(property.getKey(), property.getValue()))
			.collect(Collectors.toCollection(LinkedHashSet::new));
	}

	private static String row(String name, @Nullable String defaultValue) {
		return (defaultValue != null) ? name + "=" + defaultValue : name;
	}

	// The rows of the table under a heading of the reference: each name in the first
	// column (a map's entries, "call.timeouts.<tool>", named by the map) with the default
	// when the column gives one in code font.
	private static Set<String> documented(String heading) throws IOException {
		String reference = Files.readString(REFERENCE);
		int start = reference.indexOf("\n## " + heading + "\n");
		assertThat(start).as("the section '%s' of %s", heading, REFERENCE).isNotNegative();
		int end = reference.indexOf("\n## ", start + 1);
		Set<String> rows = new LinkedHashSet<>();
		for (String line : reference.substring(start, (end >= 0) ? end : reference.length()).split("\n")) {
			Matcher row = ROW.matcher(line);
			if (!row.matches()) {
				continue;
			}
			String defaultColumn = row.group(2).strip();
			Matcher value = CODE.matcher(defaultColumn);
			String defaultValue = (defaultColumn.startsWith("`") && value.find()) ? value.group(1) : null;
			Matcher names = CODE.matcher(row.group(1));
			while (names.find()) {
				rows.add(row(names.group(1).replaceFirst("\\.<[^>]+>$", ""), defaultValue));
			}
		}
		return rows;
	}

	private static Map<String, JsonNode> metadata() throws IOException {
		Map<String, JsonNode> properties = new TreeMap<>();
		try (InputStream input = new ClassPathResource("META-INF/spring-configuration-metadata.json")
			.getInputStream()) {
			JsonMapper.builder()
				.build()
				.readTree(input)
				.get("properties")
				.forEach((property) -> properties.put(property.get("name").asString(), property));
		}
		return properties;
	}

}
