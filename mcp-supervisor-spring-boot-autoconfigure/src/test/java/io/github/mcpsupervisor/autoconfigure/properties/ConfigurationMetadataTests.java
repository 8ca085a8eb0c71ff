package io.github.mcpsupervisor.autoconfigure.properties;

import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import io.github.mcpsupervisor.autoconfigure.properties.internal.McpProtocol;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.core.io.ClassPathResource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The configuration metadata the build generates (the configuration processor's, merged
 * with {@code additional-spring-configuration-metadata.json}) describes every property in
 * Spring Boot's style and hints the values of the enumerated ones.
 */
class ConfigurationMetadataTests {

	/** The properties whose values are enumerated but whose type is not an enum. */
	private static final List<String> ENUMERATED = List.of("mcp.defaults.protocol", "mcp.defaults.log-level");

	private static final Map<String, JsonNode> properties = new HashMap<>();

	private static final Map<String, JsonNode> hints = new HashMap<>();

	@BeforeAll
	static void read() throws IOException {
		try (InputStream input = new ClassPathResource("META-INF/spring-configuration-metadata.json")
			.getInputStream()) {
			JsonNode metadata = JsonMapper.builder().build().readTree(input);
			metadata.get("properties").forEach((property) -> properties.put(property.get("name").asString(), property));
			metadata.get("hints").forEach((hint) -> hints.put(hint.get("name").asString(), hint));
		}
	}

	@Test
	void everyPropertyShouldHaveADescriptionThatStartsWithACapitalLetter() {
		List<String> problems = new ArrayList<>();
		properties.forEach((name, property) -> {
			JsonNode description = property.get("description");
			if (description == null || description.asString().isBlank()) {
				problems.add(name + " has no description");
			}
			else if (!Character.isUpperCase(description.asString().charAt(0))) {
				problems.add(name + ": " + description.asString());
			}
		});
		assertThat(problems).isEmpty();
	}

	@Test
	void everyManagementPropertyTheStarterReadsShouldBeDescribed() {
		assertThat(properties).containsKeys("management.health.mcp.enabled", "management.endpoint.mcp.access",
				"management.endpoint.mcp.cache.time-to-live", "management.endpoint.mcp.show-values",
				"management.endpoint.mcp.roles", "management.observations.mcp.propagate-trace-context");
		assertThat(properties.get("management.health.mcp.enabled").get("defaultValue").asBoolean()).isTrue();
	}

	@Test
	void everyEnumeratedPropertyShouldHintItsValues() {
		for (String name : ENUMERATED) {
			assertThat(properties).containsKey(name);
			assertThat(hints).as(name).containsKey(name);
			List<String> values = new ArrayList<>();
			hints.get(name).get("values").forEach((value) -> {
				values.add(value.get("value").asString());
				assertThat(value.get("description").asString()).as(name).matches("[A-Z].*");
			});
			assertThat(values).as(name).isNotEmpty();
		}
		assertThat(hints.get("mcp.defaults.protocol").get("values"))
			.extracting((value) -> value.get("value").asString())
			.containsExactly(McpProtocol.AUTO.value(), McpProtocol.V2025_11_25.value(),
					McpProtocol.V2026_07_28.value());
	}

}
