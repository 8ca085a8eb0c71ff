package io.github.mcpsupervisor.autoconfigure.properties.internal;

import java.util.Map;

import org.junit.jupiter.api.Test;

import org.springframework.boot.context.properties.bind.BindException;
import org.springframework.boot.context.properties.source.ConfigurationPropertySources;
import org.springframework.core.env.MapPropertySource;
import org.springframework.core.env.StandardEnvironment;
import org.springframework.core.env.SystemEnvironmentPropertySource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * A binding while the application runs takes and refuses what a start takes and refuses.
 */
class McpPropertiesBinderTests {

	private static final String MISSING = "/nonexistent/mcp-server";

	private final McpPropertiesBinder binder = new McpPropertiesBinder();

	@Test
	void bindWhenAnotherProgramsVariableStartsWithMcpShouldIgnoreItAsAStartDoes() {
		StandardEnvironment environment = environment(Map.of("MCP_TIMEOUT", "10000"),
				Map.of("mcp.servers.files.command", MISSING));
		assertThat(this.binder.bind(environment).servers()).containsOnlyKeys("files");
	}

	@Test
	void bindWhenAVariableSetsAPropertyOfADashedNameInTheLegacyFormShouldBindIt() {
		StandardEnvironment environment = environment(Map.of("MCP_SERVERS_MY_SERVER_ARGS", "-y"),
				Map.of("mcp.servers.my-server.command", MISSING));
		assertThat(this.binder.bind(environment).servers()).containsOnlyKeys("my-server")
			.hasEntrySatisfying("my-server", (server) -> assertThat(server.args()).containsExactly("-y"));
	}

	@Test
	void bindWhenAFileHasAnUnknownKeyShouldRefuseIt() {
		StandardEnvironment environment = environment(Map.of(),
				Map.of("mcp.servers.files.command", MISSING, "mcp.servers.files.comand", MISSING));
		assertThatExceptionOfType(BindException.class).isThrownBy(() -> this.binder.bind(environment))
			.havingRootCause()
			.withMessageContaining("mcp.servers.files.comand");
	}

	private static StandardEnvironment environment(Map<String, Object> variables, Map<String, Object> file) {
		StandardEnvironment environment = new StandardEnvironment();
		environment.getPropertySources().remove(StandardEnvironment.SYSTEM_PROPERTIES_PROPERTY_SOURCE_NAME);
		environment.getPropertySources()
			.replace(StandardEnvironment.SYSTEM_ENVIRONMENT_PROPERTY_SOURCE_NAME, new SystemEnvironmentPropertySource(
					StandardEnvironment.SYSTEM_ENVIRONMENT_PROPERTY_SOURCE_NAME, variables));
		environment.getPropertySources().addLast(new MapPropertySource("application.properties", file));
		ConfigurationPropertySources.attach(environment);
		return environment;
	}

}
