package io.github.mcpsupervisor.autoconfigure.properties;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

import io.github.mcpsupervisor.autoconfigure.McpSupervisorAutoConfiguration;
import io.github.mcpsupervisor.autoconfigure.properties.internal.McpServerSettings;
import io.github.mcpsupervisor.autoconfigure.properties.internal.McpServerSettingsResolver;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.ImportAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Configuration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatException;

/**
 * Servers configured the way Spring Boot applications layer configuration: a base file, a
 * profile file, command-line arguments, each changing only what differs.
 */
@ExtendWith(OutputCaptureExtension.class)
class McpConfigurationLayeringTests {

	@Test
	void aProfileAndACommandLineArgumentChangeOnlyWhatTheySet() {
		try (ConfigurableApplicationContext context = run("--spring.profiles.active=prod",
				"--mcp.servers.search.reconnect.max-attempts=2")) {
			Map<String, McpServerSettings> servers = servers(context);
			assertThat(servers).containsOnlyKeys("audit", "files", "search");
			McpServerSettings files = servers.get("files");
			assertThat(files.command()).as("from the base file").isEqualTo("/nonexistent/files-server");
			assertThat(files.args()).as("the profile's list replaces the base's").containsExactly("/prod-data");
			assertThat(files.requestTimeout()).as("from the profile").isEqualTo(Duration.ofSeconds(30));
			assertThat(files.reconnect().maxAttempts()).as("from the base file").isEqualTo(4);
			McpServerSettings search = servers.get("search");
			assertThat(search.requestTimeout()).as("from the base file's defaults").isEqualTo(Duration.ofSeconds(9));
			assertThat(search.reconnect().maxAttempts()).as("from the command line").isEqualTo(2);
			assertThat(servers.get("audit").command()).as("added by the profile")
				.isEqualTo("/nonexistent/audit-server");
		}
	}

	@Test
	void anUnknownKeyInAProfileFailsNamingTheKeyAndItsFile(CapturedOutput output) {
		assertThatException().isThrownBy(() -> run("--spring.profiles.active=typo").close());
		assertThat(output).contains("Property: mcp.servers.files.reconect.max-attempts")
			.contains("mcp-layered-typo.yml");
	}

	private static Map<String, McpServerSettings> servers(ConfigurableApplicationContext context) {
		List<McpServerSettings> servers = McpServerSettingsResolver
			.resolve(context.getBean(McpSupervisorProperties.class));
		return servers.stream().collect(Collectors.toMap(McpServerSettings::name, (server) -> server));
	}

	private static ConfigurableApplicationContext run(String... args) {
		String[] all = new String[args.length + 1];
		all[0] = "--spring.config.name=mcp-layered";
		System.arraycopy(args, 0, all, 1, args.length);
		return new SpringApplicationBuilder(Config.class).web(WebApplicationType.NONE).run(all);
	}

	@Configuration(proxyBeanMethods = false)
	@ImportAutoConfiguration(McpSupervisorAutoConfiguration.class)
	static class Config {

	}

}
