package io.github.mcpsupervisor.internal;

import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import io.github.mcpsupervisor.transport.StreamableHttpServerDefinition;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The secrets of command lines and URLs, found by Spring Boot's key rules.
 */
class ConfigurationSanitizerTests {

	@Test
	void maskUrlMasksUserInfoAndEveryQueryValue() {
		assertThat(ConfigurationSanitizer
			.maskUrl(URI.create("https://user:pw@mcp.example.com:8443/mcp?api_key=k1&region=eu&flag#top")))
			.isEqualTo("https://******@mcp.example.com:8443/mcp?api_key=******&region=******&******#top");
	}

	@Test
	void maskUrlKeepsAUrlWithoutSecrets() {
		assertThat(ConfigurationSanitizer.maskUrl(URI.create("http://127.0.0.1:8080/mcp")))
			.isEqualTo("http://127.0.0.1:8080/mcp");
	}

	@Test
	void maskCommandLineMasksSecretLookingArguments() {
		assertThat(ConfigurationSanitizer.maskCommandLine(List.of("npx", "-y", "@acme/mcp", "--token=t1", "--api-key",
				"k1", "CLIENT_SECRET=s1", "--password", "--verbose", "--db-url=postgres://u:p@db/x?sslkey=z",
				"https://u:p@host/mcp?key=v", "--keyboard=us", "/srv/data", "a=b")))
			.containsExactly("npx", "-y", "@acme/mcp", "--token=******", "--api-key", "******", "CLIENT_SECRET=******",
					"--password", "--verbose", "--db-url=postgres://******@db/x?sslkey=******",
					"https://******@host/mcp?key=******", "--keyboard=us", "/srv/data", "a=b");
	}

	@Test
	void sanitizeArgsPassesEachValueWithItsKey() {
		assertThat(ConfigurationSanitizer.sanitizeArgs(List.of("--access-token=t1", "--client-credentials", "c1"),
				(key, value) -> key + ":" + value.length()))
			.containsExactly("--access-token=access-token:2", "--client-credentials", "client-credentials:2");
	}

	@Test
	void redactMasksTheSecretsOfADefinitionInAnyText() {
		StreamableHttpServerDefinition definition = new StreamableHttpServerDefinition("remote",
				URI.create("http://user:hunter22@127.0.0.1/mcp?api_key=SECRET%2F123"),
				Map.of("Authorization", "Bearer abcdef"), Duration.ofSeconds(1), Duration.ofSeconds(1));
		assertThat(definition.redact("GET http://user:hunter22@127.0.0.1/mcp?api_key=SECRET%2F123 said SECRET/123, "
				+ "hunter22 and abcdef"))
			.isEqualTo("GET http://******@127.0.0.1/mcp?api_key=****** said ******, ****** and ******");
	}

}
