package io.github.mcpsupervisor.actuate;

import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import io.github.mcpsupervisor.actuate.McpEndpoint.McpServerConfiguration;
import io.github.mcpsupervisor.actuate.McpEndpoint.McpServerConfigurationDescriptor;
import io.github.mcpsupervisor.supervisor.CallPolicy;
import io.github.mcpsupervisor.supervisor.HealthCheckPolicy;
import io.github.mcpsupervisor.supervisor.ReconnectPolicy;
import io.github.mcpsupervisor.supervisor.ToolsWhenDown;
import io.github.mcpsupervisor.tool.McpToolNaming;
import io.github.mcpsupervisor.transport.StreamableHttpServerDefinition;
import org.junit.jupiter.api.Test;

import org.springframework.boot.actuate.endpoint.Sanitizer;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link McpServerConfigurationDescriptor}: the OAuth settings of a server as
 * the endpoint shows them.
 */
class McpServerConfigurationDescriptorTests {

	private static final McpServerConfigurationDescriptor.OAuth OAUTH = new McpServerConfigurationDescriptor.OAuth(null,
			null, "app", "s3cr3t-4711", null, "mcp-supervisor", List.of("tools"), "client-credentials",
			"https://as.example.com");

	@Test
	void theClientSecretIsSanitizedUnlessValuesMayBeShown() {
		assertThat(describe(false).oauth()).isEqualTo(new McpServerConfigurationDescriptor.OAuth(null, null, "app",
				"******", null, "mcp-supervisor", List.of("tools"), "client-credentials", "https://as.example.com"));
		assertThat(describe(true).oauth()).isEqualTo(OAUTH);
	}

	private static McpServerConfigurationDescriptor describe(boolean showUnsanitized) {
		StreamableHttpServerDefinition http = new StreamableHttpServerDefinition("remote",
				URI.create("https://mcp.example.com/mcp"), Map.of(), Duration.ofSeconds(20), Duration.ofSeconds(20),
				Map.of());
		McpServerConfiguration configuration = new McpServerConfiguration(null, http, false, false,
				ReconnectPolicy.defaults(), CallPolicy.defaults(), HealthCheckPolicy.defaults(), Map.of(),
				new McpServerConfigurationDescriptor.Http(Duration.ofSeconds(10), "http-1-1", null, null, null),
				McpToolNaming.PREFIXED, false, "auto", null, new McpServerConfigurationDescriptor.Sampling(2, 10, 4096),
				new McpServerConfigurationDescriptor.Elicitation(2, 10), ToolsWhenDown.WITHDRAW, List.of(), OAUTH);
		return McpServerConfigurationDescriptor.of(configuration, new Sanitizer(List.of()), showUnsanitized);
	}

}
