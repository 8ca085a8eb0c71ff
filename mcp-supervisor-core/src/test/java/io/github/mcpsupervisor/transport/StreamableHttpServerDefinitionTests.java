package io.github.mcpsupervisor.transport;

import java.net.URI;
import java.time.Duration;
import java.util.Map;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A Streamable HTTP server's definition can be printed without its secrets: its URL is
 * masked and no header value is shown.
 */
class StreamableHttpServerDefinitionTests {

	@Test
	void toStringMasksTheUrlAndEveryHeaderValue() {
		StreamableHttpServerDefinition definition = new StreamableHttpServerDefinition("remote",
				URI.create("http://user:hunter22@127.0.0.1:8080/mcp?api_key=SECRET"),
				Map.of("Authorization", "Bearer abcdef", "X-Tenant", "acme"), Duration.ofSeconds(1),
				Duration.ofSeconds(2));
		assertThat(definition.toString()).contains("remote", "127.0.0.1:8080/mcp", "Authorization", "X-Tenant")
			.doesNotContain("hunter22", "SECRET", "abcdef", "acme");
	}

}
