package io.github.mcpsupervisor.transport;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A stdio server's definition can be printed without its secrets: its command line is
 * masked and no value of its environment is shown.
 */
class StdioServerDefinitionTests {

	@Test
	void toStringMasksTheSecretsOfTheCommandLineAndEveryValueOfTheEnvironment() {
		StdioServerDefinition definition = new StdioServerDefinition("files", "npx",
				List.of("server", "--api-key=hunter22"), Map.of("GITHUB_TOKEN", "ghp_secret", "MODE", "plain-value"),
				null, Duration.ofSeconds(1), Duration.ofSeconds(2), Duration.ofSeconds(3));
		assertThat(definition.toString()).contains("files", "npx", "server", "GITHUB_TOKEN", "MODE")
			.doesNotContain("hunter22", "ghp_secret", "plain-value");
	}

}
