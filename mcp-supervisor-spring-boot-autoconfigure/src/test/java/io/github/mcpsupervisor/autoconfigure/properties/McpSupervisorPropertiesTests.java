package io.github.mcpsupervisor.autoconfigure.properties;

import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

import io.github.mcpsupervisor.autoconfigure.properties.McpSupervisorProperties.Server;
import io.github.mcpsupervisor.autoconfigure.properties.internal.McpPropertiesBinder;
import io.github.mcpsupervisor.autoconfigure.properties.internal.McpProtocol;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/**
 * Tests for {@link McpSupervisorProperties}: the effective settings of a server, whatever
 * checks the binding, and a server given from Java.
 */
class McpSupervisorPropertiesTests {

	@Test
	void aServersOwnSettingsInTheDefaultsAreNeverInherited() {
		// what Bean Validation refuses, and what nothing refuses without it
		McpSupervisorProperties properties = properties(Map.of("command", "rm", "env.API_TOKEN", "s3cr3t-4711",
				"headers.Authorization", "Bearer t-4711", "enabled", "false", "transport", "streamable-http",
				"oauth.registration", "corp", "roots[0]", "file:///srv", "request-timeout", "7s"));
		Server effective = properties.effective(server(Map.of("command", "npx")));
		assertThat(effective.command()).isEqualTo("npx");
		assertThat(effective.env()).isEmpty();
		assertThat(effective.headers()).isEmpty();
		assertThat(effective.isEnabled()).isTrue();
		assertThat(effective.transport()).isEqualTo(McpTransportType.STDIO);
		assertThat(effective.oauth().isEnabled()).isFalse();
		assertThat(effective.roots()).isEmpty();
		assertThat(effective.requestTimeout()).as("inherited").isEqualTo(Duration.ofSeconds(7));
	}

	@Test
	void aStreamableHttpServerHasNoStandbyWhateverTheDefaultsSay() {
		Server remote = server(Map.of("transport", "streamable-http", "url", "https://mcp.example.com/mcp"));
		Server withStandby = properties(Map.of("standby.enabled", "true")).effective(remote);
		Server without = properties(Map.of()).effective(remote);
		assertThat(withStandby.standby().enabled()).isFalse();
		assertThat(withStandby).as("a change of the defaults' standby changes nothing of it").isEqualTo(without);
		assertThat(properties(Map.of("standby.enabled", "true")).effective(server(Map.of("command", "npx")))
			.standby()
			.enabled()).isTrue();
	}

	@Test
	void theDescriptionOfAServerShowsNoSecret() {
		Server server = server(Map.of("command", "npx", "args[0]", "--api-key=k-0815", "env.API_TOKEN", "s3cr3t-4711",
				"url", "https://mcp.example.com/mcp?api_key=q-0815", "headers.Authorization", "Bearer t-4711"));
		assertThat(server.toString()).contains("API_TOKEN", "Authorization", "npx", "mcp.example.com")
			.doesNotContain("k-0815")
			.doesNotContain("s3cr3t-4711")
			.doesNotContain("q-0815")
			.doesNotContain("t-4711");
	}

	@Test
	void aServerGivenFromJavaWithoutItsGroupsIsCheckedAsAConfiguredOne() {
		Server server = new Server(null, null, null, null, null, null, null, null, null, null, null, null, null, null,
				null, null, null, null, null, null, null, null, null, null, null, null, null, null);
		assertThat(server.reconnect().cooldown().enabled()).isNull();
		assertThat(properties(Map.of()).effective(server).reconnect().maxAttempts()).isEqualTo(10);
		assertThatIllegalArgumentException()
			.isThrownBy(() -> new McpPropertiesBinder().validate("java", server, properties(Map.of())))
			.withMessageContaining("command is required when transport is stdio");
	}

	@Test
	void theProtocolsAreTheValuesTheBindingTakes() {
		assertThat(Arrays.stream(McpProtocol.values()).map(McpProtocol::value))
			.containsExactly(McpSupervisorProperties.PROTOCOLS.split("\\|"));
	}

	private static McpSupervisorProperties properties(Map<String, ?> defaults) {
		return new McpSupervisorProperties(true, server(defaults), Map.of(), List.of(), McpClientType.SYNC, null,
				new McpSupervisorProperties.Reload(true, Duration.ofSeconds(2)),
				McpSupervisorProperties.Authorization.DEFAULTS, 4);
	}

	private static Server server(Map<String, ?> properties) {
		return McpPropertiesBinder.server(properties);
	}

}
