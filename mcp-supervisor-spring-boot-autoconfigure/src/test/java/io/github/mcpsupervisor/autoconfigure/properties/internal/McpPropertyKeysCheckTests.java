package io.github.mcpsupervisor.autoconfigure.properties.internal;

import java.util.Map;

import io.github.mcpsupervisor.autoconfigure.McpSupervisorAutoConfiguration;
import io.github.mcpsupervisor.autoconfigure.properties.McpSupervisorProperties;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.ImportAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.test.context.assertj.AssertableApplicationContext;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.core.env.MapPropertySource;
import org.springframework.core.env.StandardEnvironment;
import org.springframework.core.env.SystemEnvironmentPropertySource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatException;

/**
 * Server names are bound as written or refused, and environment variables and system
 * properties that bind to nothing are reported.
 */
@ExtendWith(OutputCaptureExtension.class)
class McpPropertyKeysCheckTests {

	private static final String MISSING = "/nonexistent/mcp-server";

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(McpSupervisorAutoConfiguration.class));

	@Test
	void runWhenANameHasACharacterBindingDropsShouldFailNamingItAsWrittenAndWhere(CapturedOutput output) {
		run("--mcp.servers.bad!name.command=true");
		assertThat(output).contains("Invalid MCP supervisor configuration")
			.contains("Property: mcp.servers.bad!name.command")
			.contains("Origin: \"mcp.servers.bad!name.command\" from property source \"commandLineArgs\"")
			.contains("Rule: the server name 'bad!name' would be bound as 'badname'")
			.contains("A server name is 1 to 32 letters, digits, '_' or '-'")
			.contains("mcp.servers[-x].command");
	}

	@Test
	void runWhenANameStartsWithADashShouldFail() {
		this.contextRunner.withPropertyValues("mcp.servers.-x.command=" + MISSING)
			.run((context) -> assertThat(failure(context)).contains("the server name '-x' would be bound as 'x'"));
	}

	@Test
	void runWhenANameIsDroppedWholeShouldFail() {
		this.contextRunner.withPropertyValues("mcp.servers.!!!.command=" + MISSING)
			.run((context) -> assertThat(failure(context)).contains("the server name '!!!' would be bound as"));
	}

	@Test
	void runWhenANameIsWrittenInBracketsShouldBindItAsWritten() {
		this.contextRunner
			.withPropertyValues("mcp.servers[-x].command=" + MISSING, "mcp.servers.My_Server.command=" + MISSING)
			.run((context) -> assertThat(context.getBean(McpSupervisorProperties.class).servers())
				.containsOnlyKeys("-x", "My_Server"));
	}

	@Test
	void runWhenTwoSpellingsAreOneNameToSpringBootShouldFailNamingBoth() {
		this.contextRunner
			.withPropertyValues("mcp.servers.My_Server.command=" + MISSING, "mcp.servers.myserver.args=-y")
			.run((context) -> assertThat(failure(context)).contains("mcp.servers.My_Server.command")
				.contains("mcp.servers.myserver.args")
				.contains("'My_Server' and 'myserver' are one name to Spring Boot's relaxed binding"));
	}

	@Test
	void runWhenANameIsWrittenInBracketsAndWithoutShouldFail() {
		this.contextRunner
			.withPropertyValues("mcp.servers[My_Server].command=" + MISSING, "mcp.servers.My_Server.args=-y")
			.run((context) -> assertThat(failure(context))
				.contains("'My_Server' in brackets and without are two names to Spring Boot"));
	}

	@Test
	void runWhenAnEnvironmentVariableSetsAPropertyOfADashedNameInTheLegacyFormShouldBindIt() {
		this.contextRunner.withPropertyValues("mcp.servers.my-server.command=" + MISSING)
			.withInitializer((context) -> environmentVariables(context.getEnvironment(),
					Map.of("MCP_SERVERS_MY_SERVER_ARGS", "-y")))
			.run((context) -> assertThat(context.getBean(McpSupervisorProperties.class).servers())
				.containsOnlyKeys("my-server")
				.hasEntrySatisfying("my-server", (server) -> assertThat(server.args()).containsExactly("-y")));
	}

	@Test
	void runWhenAnEnvironmentVariableSpellsADashedNameWithoutTheDashShouldFail() {
		this.contextRunner.withPropertyValues("mcp.servers.my-server.command=" + MISSING)
			.withInitializer((context) -> environmentVariables(context.getEnvironment(),
					Map.of("MCP_SERVERS_MYSERVER_ARGS", "-y")))
			.run((context) -> assertThat(failure(context)).contains("MCP_SERVERS_MYSERVER_ARGS")
				.contains("'my-server' and 'myserver' are one name"));
	}

	@Test
	void runWhenAnEnvironmentVariableNameHasACharacterBindingDropsShouldFail() {
		this.contextRunner
			.withInitializer((context) -> environmentVariables(context.getEnvironment(),
					Map.of("MCP_SERVERS_BAD!NAME_COMMAND", MISSING)))
			.run((context) -> assertThat(failure(context)).contains("Property: MCP_SERVERS_BAD!NAME_COMMAND")
				.contains("the server name 'BAD!NAME' would be bound as 'badname'"));
	}

	@Test
	void runWhenMcpServersConfigurationIsSetAsAVariableWithUnderscoresShouldSayWhichVariableSetsIt() {
		this.contextRunner
			.withInitializer((context) -> environmentVariables(context.getEnvironment(),
					Map.of("MCP_SERVERS_CONFIGURATION", "classpath:mcp/claude.json")))
			.run((context) -> assertThat(failure(context)).contains("Property: MCP_SERVERS_CONFIGURATION")
				.contains("gives a value to the server 'configuration' itself")
				.contains("MCP_SERVERSCONFIGURATION"));
	}

	@Test
	void runWhenAnEnvironmentVariableBindsToNothingShouldWarnWithTheNearestProperty(CapturedOutput output) {
		this.contextRunner.withPropertyValues("mcp.servers.files.command=" + MISSING)
			.withInitializer((context) -> environmentVariables(context.getEnvironment(),
					Map.of("MCP_SERVERS_FILES_RECONNECT_MAXATTEMTPS", "SECRET-VALUE-1")))
			.run((context) -> {
				assertThat(context).hasNotFailed();
				assertThat(output).contains("WARN")
					.contains("Environment variable MCP_SERVERS_FILES_RECONNECT_MAXATTEMTPS binds to no property "
							+ "of the MCP supervisor and is ignored; did you mean "
							+ "MCP_SERVERS_FILES_RECONNECT_MAXATTEMPTS (mcp.servers.files.reconnect.max-attempts)?")
					.doesNotContain("SECRET-VALUE-1");
			});
	}

	@Test
	void runWhenEnvironmentVariablesBindShouldNotWarn(CapturedOutput output) {
		this.contextRunner
			.withPropertyValues("mcp.servers.files.command=" + MISSING, "mcp.servers.My_Server.command=" + MISSING,
					"mcp.servers.remote.transport=streamable-http", "mcp.servers.remote.url=http://127.0.0.1:1/mcp",
					"mcp.defaults.inherit-env=MCP_CHILD_*")
			.withInitializer((context) -> environmentVariables(context.getEnvironment(),
					Map.ofEntries(Map.entry("MCP_SERVERS_FILES_RECONNECT_MAXATTEMPTS", "3"),
							Map.entry("MCP_SERVERS_FILES_RECONNECT_MAX_ATTEMPTS", "3"),
							Map.entry("MCP_SERVERS_FILES_ENV_ANY_NAME", "x"),
							Map.entry("MCP_SERVERS_REMOTE_HEADERS_AUTHORIZATION", "x"),
							Map.entry("MCP_SERVERS_FILES_ARGS_0", "-y"), Map.entry("MCP_SERVERS_MY_SERVER_ARGS", "-y"),
							Map.entry("MCP_SERVERSCONFIGURATION", ""),
							Map.entry("MCP_DEFAULTS_CALL_RETRYTOOLS", "read"), Map.entry("MCP_ENABLED", "true"),
							Map.entry("MCP_CHILD_TOKEN", "x"), Map.entry("MCP_SERVERS_SEARCH_COMMAND", MISSING))))
			.run((context) -> {
				assertThat(context).hasNotFailed();
				assertThat(output).doesNotContain("Environment variable");
			});
	}

	@Test
	void checkWhenASystemPropertyBindsToNothingShouldWarnWithTheNearestProperty() {
		StandardEnvironment environment = new StandardEnvironment();
		environment.getPropertySources()
			.replace(StandardEnvironment.SYSTEM_PROPERTIES_PROPERTY_SOURCE_NAME, new MapPropertySource(
					StandardEnvironment.SYSTEM_PROPERTIES_PROPERTY_SOURCE_NAME,
					Map.of("mcp.defaults.reconect.enabled", "false", "mcp.defaults.reconnect.enabled", "false")));
		environment.getPropertySources().remove(StandardEnvironment.SYSTEM_ENVIRONMENT_PROPERTY_SOURCE_NAME);
		assertThat(McpPropertyKeysCheck.check(environment))
			.containsExactly("System property mcp.defaults.reconect.enabled binds to no property of the MCP "
					+ "supervisor and is ignored; did you mean mcp.defaults.reconnect.enabled?");
	}

	@Test
	void checkWhenAVariableIsFarFromEveryPropertyShouldNotGuess() {
		StandardEnvironment environment = new StandardEnvironment();
		environment.getPropertySources().remove(StandardEnvironment.SYSTEM_PROPERTIES_PROPERTY_SOURCE_NAME);
		environment.getPropertySources()
			.replace(StandardEnvironment.SYSTEM_ENVIRONMENT_PROPERTY_SOURCE_NAME,
					new SystemEnvironmentPropertySource(StandardEnvironment.SYSTEM_ENVIRONMENT_PROPERTY_SOURCE_NAME,
							Map.of("MCP_DEFAULTS_QUEUE_CAPACITY_LIMIT", "SECRET-VALUE-2")));
		assertThat(McpPropertyKeysCheck.check(environment)).containsExactly("Environment variable "
				+ "MCP_DEFAULTS_QUEUE_CAPACITY_LIMIT binds to no property of the MCP supervisor and is ignored");
	}

	@Test
	void checkWhenVariablesOfOtherToolsStartWithMcpShouldNotWarn() {
		StandardEnvironment environment = new StandardEnvironment();
		environment.getPropertySources().remove(StandardEnvironment.SYSTEM_PROPERTIES_PROPERTY_SOURCE_NAME);
		environment.getPropertySources()
			.replace(StandardEnvironment.SYSTEM_ENVIRONMENT_PROPERTY_SOURCE_NAME,
					new SystemEnvironmentPropertySource(StandardEnvironment.SYSTEM_ENVIRONMENT_PROPERTY_SOURCE_NAME,
							Map.of("MCP_PROXY_AUTH_TOKEN", "x", "MCP_TIMEOUT", "10000", "MCP_TOOL_TIMEOUT", "x",
									"MCP_PORT", "3000", "MCP_TRANSPORT", "stdio")));
		assertThat(McpPropertyKeysCheck.check(environment)).isEmpty();
	}

	@Test
	void runWhenAVariableIsUsedByAPlaceholderShouldNotWarn(CapturedOutput output) {
		this.contextRunner
			.withPropertyValues("mcp.servers.remote.transport=streamable-http",
					"mcp.servers.remote.url=http://127.0.0.1:1/mcp",
					"mcp.servers.remote.headers.Authorization=Bearer ${MCP_GITHUB_TOKEN}",
					"mcp.servers.remote.headers.X-Tenant=${mcp.servers.tenant.id}")
			.withInitializer((context) -> environmentVariables(context.getEnvironment(),
					Map.of("MCP_GITHUB_TOKEN", "SECRET-VALUE-3", "MCP_SERVERS_TENANT_ID", "acme")))
			.run((context) -> {
				assertThat(context).hasNotFailed();
				assertThat(output).doesNotContain("Environment variable");
			});
	}

	@Test
	void runWhenAVariableSetsAMapEntryOfAServerNamedWithADashShouldWarnThatItCannot(CapturedOutput output) {
		this.contextRunner.withPropertyValues("mcp.servers.my-server.command=" + MISSING)
			.withInitializer((context) -> environmentVariables(context.getEnvironment(),
					Map.of("MCP_SERVERS_MY_SERVER_ENV_TOKEN", "SECRET-VALUE-4")))
			.run((context) -> {
				assertThat(context).hasNotFailed();
				assertThat(context.getBean(McpSupervisorProperties.class).servers().get("my-server").env()).isEmpty();
				assertThat(output)
					.contains("Environment variable MCP_SERVERS_MY_SERVER_ENV_TOKEN binds to no "
							+ "property of the MCP supervisor and is ignored: an entry of mcp.servers.my-server.env "
							+ "cannot be set by an environment variable when the server's name has '_' or '-'")
					.doesNotContain("SECRET-VALUE-4");
			});
	}

	private static void environmentVariables(ConfigurableEnvironment environment, Map<String, Object> variables) {
		environment.getPropertySources()
			.replace(StandardEnvironment.SYSTEM_ENVIRONMENT_PROPERTY_SOURCE_NAME, new SystemEnvironmentPropertySource(
					StandardEnvironment.SYSTEM_ENVIRONMENT_PROPERTY_SOURCE_NAME, variables));
	}

	private static String failure(AssertableApplicationContext context) {
		assertThat(context).hasFailed();
		Throwable failure = context.getStartupFailure();
		StringBuilder messages = new StringBuilder();
		while (failure != null) {
			messages.append(failure.getMessage()).append('\n');
			failure = failure.getCause();
		}
		return messages.toString();
	}

	private static void run(String... args) {
		SpringApplicationBuilder application = new SpringApplicationBuilder(Config.class).web(WebApplicationType.NONE);
		assertThatException().isThrownBy(() -> application.run(args));
	}

	@Configuration(proxyBeanMethods = false)
	@ImportAutoConfiguration(McpSupervisorAutoConfiguration.class)
	static class Config {

	}

}
