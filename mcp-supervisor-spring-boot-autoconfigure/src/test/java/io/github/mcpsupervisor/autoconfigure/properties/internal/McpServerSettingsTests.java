package io.github.mcpsupervisor.autoconfigure.properties.internal;

import java.net.URI;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;

import io.github.mcpsupervisor.autoconfigure.properties.McpTransportType;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link McpServerSettings}: what the SPI of connector factories receives can
 * be logged without its secrets.
 */
class McpServerSettingsTests {

	@Test
	void theDescriptionOfAStdioServerNamesItsVariablesWithoutTheirValues() {
		McpServerSettings settings = settings(McpTransportType.STDIO, "npx", List.of("server", "--api-key=k-0815"),
				Map.of("API_TOKEN", "s3cr3t-4711"), null, Map.of());
		assertThat(settings.toString()).contains("API_TOKEN", "npx")
			.doesNotContain("s3cr3t-4711")
			.doesNotContain("k-0815");
	}

	@Test
	void theDescriptionOfAnHttpServerNamesItsHeadersWithoutTheirValues() {
		McpServerSettings settings = settings(McpTransportType.STREAMABLE_HTTP, null, List.of(), Map.of(),
				URI.create("https://mcp.example.com/mcp?api_key=q-0815"), Map.of("Authorization", "Bearer t-4711"));
		assertThat(settings.toString()).contains("Authorization", "mcp.example.com")
			.doesNotContain("t-4711")
			.doesNotContain("q-0815");
	}

	private static McpServerSettings settings(McpTransportType transport, String command, List<String> args,
			Map<String, String> env, URI url, Map<String, String> headers) {
		Map<String, Object> properties = new LinkedHashMap<>();
		properties.put("transport", transport.name().toLowerCase(Locale.ROOT).replace('_', '-'));
		properties.put("command", command);
		for (int i = 0; i < args.size(); i++) {
			properties.put("args[" + i + "]", args.get(i));
		}
		env.forEach((name, value) -> properties.put("env." + name, value));
		properties.put("url", url);
		headers.forEach((name, value) -> properties.put("headers." + name, value));
		properties.values().removeIf(Objects::isNull);
		return TestServerSettings.of("files", properties);
	}

}
