package io.github.mcpsupervisor.autoconfigure.properties;

import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import io.github.mcpsupervisor.autoconfigure.properties.McpSupervisorProperties.OAuth;
import io.github.mcpsupervisor.supervisor.CallPolicy;
import io.github.mcpsupervisor.supervisor.ElicitationLimits;
import io.github.mcpsupervisor.supervisor.HealthCheckPolicy;
import io.github.mcpsupervisor.supervisor.ReconnectPolicy;
import io.github.mcpsupervisor.supervisor.SamplingLimits;
import io.github.mcpsupervisor.supervisor.ToolsWhenDown;
import io.github.mcpsupervisor.tool.McpToolNaming;
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
		Duration timeout = Duration.ofSeconds(20);
		return new McpServerSettings("files", transport, command, args, env, null, url, headers, List.of(), timeout,
				timeout, Duration.ofSeconds(2), false, false, ReconnectPolicy.defaults(), CallPolicy.defaults(),
				HealthCheckPolicy.defaults(), SamplingLimits.DEFAULT, ElicitationLimits.DEFAULT, List.of(),
				McpProtocol.AUTO, null, OAuth.NONE, McpSupervisorProperties.Http.DEFAULTS, McpToolNaming.PREFIXED,
				ToolsWhenDown.WITHDRAW, Map.of(), false);
	}

}
