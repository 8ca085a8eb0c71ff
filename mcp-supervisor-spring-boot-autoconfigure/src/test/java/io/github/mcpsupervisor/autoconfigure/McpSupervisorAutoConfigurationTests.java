package io.github.mcpsupervisor.autoconfigure;

import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import io.github.mcpsupervisor.autoconfigure.internal.McpConnectorFactory;
import io.github.mcpsupervisor.autoconfigure.properties.McpSupervisorProperties;
import io.github.mcpsupervisor.autoconfigure.properties.McpTransportType;
import io.github.mcpsupervisor.autoconfigure.properties.internal.McpServerSettings;
import io.github.mcpsupervisor.autoconfigure.properties.internal.McpServerSettingsResolver;
import io.github.mcpsupervisor.client.internal.SamplingLimits;
import io.github.mcpsupervisor.connector.StdioStarts;
import io.github.mcpsupervisor.supervisor.CallPolicy;
import io.github.mcpsupervisor.supervisor.HealthCheckPolicy;
import io.github.mcpsupervisor.supervisor.McpServerState;
import io.github.mcpsupervisor.supervisor.McpServerSupervisor;
import io.github.mcpsupervisor.supervisor.McpSupervisors;
import io.github.mcpsupervisor.supervisor.ReconnectPolicy;
import io.github.mcpsupervisor.supervisor.SupervisorScheduler;
import io.github.mcpsupervisor.supervisor.ThreadPoolSupervisorScheduler;
import io.github.mcpsupervisor.tool.McpSupervisorToolCallbackProvider;
import io.github.mcpsupervisor.transport.internal.stdio.StartGate;
import io.github.mcpsupervisor.transport.internal.stdio.StdioConnector;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.ai.tool.ToolCallbackProvider;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.assertj.AssertableApplicationContext;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.MapPropertySource;
import org.springframework.core.env.SystemEnvironmentPropertySource;
import org.springframework.core.io.ClassPathResource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Auto-configuration, layering and validation of {@code mcp.servers.<name>} and
 * {@code mcp.defaults}.
 */
class McpSupervisorAutoConfigurationTests {

	private static final String MISSING = "/nonexistent/mcp-server";

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(McpSupervisorAutoConfiguration.class));

	@Test
	void runWhenNoServersAreConfiguredShouldProvideAnEmptyToolCallbackProvider() {
		this.contextRunner.run((context) -> {
			assertThat(context).hasSingleBean(McpSupervisors.class)
				.hasSingleBean(McpSupervisorToolCallbackProvider.class)
				.hasSingleBean(ThreadPoolSupervisorScheduler.class);
			assertThat(context.getBean(ToolCallbackProvider.class).getToolCallbacks()).isEmpty();
		});
	}

	@Test
	void runWithAServerShouldBindTheDefaults() {
		this.contextRunner.withPropertyValues("mcp.servers.demo.command=" + MISSING).run((context) -> {
			McpServerSettings server = McpServerSettingsResolver.resolve(context.getBean(McpSupervisorProperties.class))
				.get(0);
			assertThat(server.transport()).isEqualTo(McpTransportType.STDIO);
			assertThat(server.args()).isEmpty();
			assertThat(server.env()).isEmpty();
			assertThat(server.workingDirectory()).isNull();
			assertThat(server.requestTimeout()).isEqualTo(Duration.ofSeconds(20));
			assertThat(server.initializationTimeout()).isEqualTo(Duration.ofSeconds(20));
			assertThat(server.terminationGracePeriod()).isEqualTo(Duration.ofSeconds(2));
			assertThat(server.failOnStartupError()).isFalse();
			assertThat(server.reconnect()).isEqualTo(ReconnectPolicy.defaults());
			assertThat(server.sampling()).isEqualTo(SamplingLimits.DEFAULT);
		});
	}

	@Test
	void runWithAServerShouldBoundItsFirstAttemptByTheHandshakeTheListingAndATermination() {
		this.contextRunner
			.withPropertyValues("mcp.servers.demo.command=" + MISSING, "mcp.servers.demo.initialization-timeout=7s",
					"mcp.servers.demo.request-timeout=5s", "mcp.servers.demo.termination-grace-period=1s")
			.run((context) -> assertThat(context.getBean(McpSupervisors.class).servers().get(0).startupTimeout())
				.isEqualTo(Duration.ofSeconds(7 + 5 + 1 + 3)));
	}

	@Test
	void runWithMaxConcurrentStartsShouldBoundTheStartsOfAllStdioServersTogether() {
		this.contextRunner
			.withPropertyValues("mcp.max-concurrent-starts=2", "mcp.servers.a.command=" + MISSING,
					"mcp.servers.b.command=" + MISSING, "mcp.defaults.protocol=2025-11-25")
			.run((context) -> {
				List<StartGate> gates = McpServerSettingsResolver
					.resolve(context.getBean(McpSupervisorProperties.class))
					.stream()
					.map((server) -> ((StdioConnector) context.getBean(McpConnectorFactory.class).create(server))
						.starts())
					.toList();
				assertThat(gates).hasSize(2).allSatisfy((gate) -> assertThat(gate).isSameAs(gates.get(0)));
				assertThat(gates.get(0).limit()).isEqualTo(2);
			});
	}

	@Test
	void runWithoutMaxConcurrentStartsShouldStartFourStdioServersAtOnce() {
		this.contextRunner.withPropertyValues("mcp.servers.a.command=" + MISSING, "mcp.servers.a.protocol=2025-11-25")
			.run((context) -> assertThat(
					((StdioConnector) context.getBean(McpConnectorFactory.class).create(settings(context, "a")))
						.starts()
						.limit())
				.isEqualTo(StdioStarts.DEFAULT_LIMIT)
				.isEqualTo(4));
	}

	@Test
	void runWithMaxConcurrentStartsBelowOneShouldFail() {
		this.contextRunner.withPropertyValues("mcp.max-concurrent-starts=0")
			.run((context) -> assertThat(StartupFailures.messages(context)).contains("max-concurrent-starts")
				.contains("must be greater than or equal to 1"));
	}

	@Test
	void runWithAMissingCommandShouldStartWithTheServerFailed() {
		this.contextRunner.withPropertyValues("mcp.servers.demo.command=" + MISSING).run((context) -> {
			assertThat(context).hasNotFailed();
			assertThat(context.getBean(McpSupervisors.class).supervisor("demo").state())
				.isEqualTo(McpServerState.FAILED);
		});
	}

	@Test
	void runWithFailOnStartupErrorShouldFailNamingTheServerAndTheCause() {
		withDemoServer("mcp.servers.demo.fail-on-startup-error=true")
			.run((context) -> assertThat(StartupFailures.messages(context)).contains("MCP server 'demo' is FAILED")
				.contains(MISSING)
				.contains("fail-on-startup-error"));
	}

	@Test
	void runWithAnInvalidNameShouldFail() {
		this.contextRunner.withPropertyValues("mcp.servers[my server].command=" + MISSING)
			.run((context) -> assertThat(StartupFailures.messages(context)).contains("mcp.servers")
				.contains("my server")
				.contains("must be 1 to 32 letters, digits, '_' or '-'"));
	}

	@Test
	void runWithANameLongerThan32CharactersShouldFail() {
		this.contextRunner.withPropertyValues("mcp.servers." + "a".repeat(33) + ".command=" + MISSING)
			.run((context) -> assertThat(StartupFailures.messages(context)).contains("a".repeat(33))
				.contains("must be 1 to 32 letters"));
	}

	@Test
	void runWithServersInBracketFormShouldBindThemByName() {
		this.contextRunner.withPropertyValues("mcp.servers[files].command=" + MISSING)
			.run((context) -> assertThat(context.getBean(McpSupervisors.class).supervisor("files")).isNotNull());
	}

	@Test
	void runWithALaterSourceChangingOnePropertyOfOneServerShouldKeepTheOthers() {
		// e.g. a profile or an environment variable over application.yml
		this.contextRunner
			.withPropertyValues("mcp.servers.files.command=" + MISSING, "mcp.servers.files.args[0]=-y",
					"mcp.servers.files.args[1]=server-files", "mcp.servers.files.args[2]=/data")
			.withPropertyValues("mcp.servers.files.request-timeout=7s")
			.run((context) -> {
				McpServerSettings files = settings(context, "files");
				assertThat(files.args()).containsExactly("-y", "server-files", "/data");
				assertThat(files.requestTimeout()).isEqualTo(Duration.ofSeconds(7));
			});
	}

	@Test
	void runWithAProfileListingAServersArgumentsAgainShouldReplaceThemWithoutFailing() {
		this.contextRunner
			.withPropertyValues("mcp.servers.files.command=" + MISSING, "mcp.servers.files.args[0]=-y",
					"mcp.servers.files.args[1]=server-files", "mcp.servers.files.args[2]=/data")
			.withInitializer((context) -> context.getEnvironment()
				.getPropertySources()
				.addFirst(new MapPropertySource("application-prod.yml",
						Map.of("mcp.servers.files.args[0]", "/prod-data", "mcp.servers.search.transport",
								"streamable-http", "mcp.servers.search.url", "http://127.0.0.1:1/mcp"))))
			.run((context) -> {
				assertThat(context).hasNotFailed();
				assertThat(settings(context, "files").args()).containsExactly("/prod-data");
				assertThat(context.getBean(McpSupervisors.class).supervisor("search")).isNotNull();
			});
	}

	@Test
	void runWithAnEnvironmentVariableShouldOverrideOnePropertyOfOneServer() {
		this.contextRunner.withPropertyValues("mcp.servers.files.command=" + MISSING)
			.withInitializer((context) -> context.getEnvironment()
				.getPropertySources()
				.addFirst(new SystemEnvironmentPropertySource("systemEnvironment",
						Map.of("MCP_SERVERS_FILES_RECONNECT_MAXATTEMPTS", "3"))))
			.run((context) -> assertThat(settings(context, "files").reconnect().maxAttempts()).isEqualTo(3));
	}

	@Test
	void runWithDefaultsShouldLetEachServerInheritWhatItDoesNotSet() {
		this.contextRunner
			.withPropertyValues("mcp.defaults.request-timeout=9s", "mcp.defaults.reconnect.max-attempts=4",
					"mcp.defaults.reconnect.initial-delay=1s", "mcp.defaults.required=true",
					"mcp.defaults.call.retry=never", "mcp.defaults.health-check.interval=0s",
					"mcp.servers.a.command=" + MISSING, "mcp.servers.b.command=" + MISSING,
					"mcp.servers.b.request-timeout=3s", "mcp.servers.b.reconnect.max-attempts=2",
					"mcp.servers.b.required=false")
			.run((context) -> {
				McpServerSettings a = settings(context, "a");
				McpServerSettings b = settings(context, "b");
				assertThat(a.requestTimeout()).isEqualTo(Duration.ofSeconds(9));
				assertThat(a.reconnect().maxAttempts()).isEqualTo(4);
				assertThat(a.required()).isTrue();
				assertThat(a.call().retry()).isEqualTo(CallPolicy.Retry.NEVER);
				assertThat(a.initializationTimeout()).as("built-in").isEqualTo(Duration.ofSeconds(20));
				assertThat(b.requestTimeout()).isEqualTo(Duration.ofSeconds(3));
				assertThat(b.reconnect().maxAttempts()).isEqualTo(2);
				assertThat(b.reconnect().initialDelay()).as("inherited next to its own")
					.isEqualTo(Duration.ofSeconds(1));
				assertThat(b.required()).isFalse();
			});
	}

	@Test
	void runWithAServerSwitchedOffShouldNotSuperviseIt() {
		this.contextRunner
			.withPropertyValues("mcp.servers.a.command=" + MISSING, "mcp.servers.b.command=" + MISSING,
					"mcp.servers.b.enabled=false")
			.run((context) -> assertThat(context.getBean(McpSupervisors.class).supervisors())
				.extracting(McpServerSupervisor::name)
				.containsExactly("a"));
	}

	@Test
	void runWithTheStarterSwitchedOffShouldConfigureNothing() {
		this.contextRunner.withPropertyValues("mcp.enabled=false", "mcp.servers.a.command=" + MISSING)
			.run((context) -> assertThat(context).doesNotHaveBean(McpSupervisors.class)
				.doesNotHaveBean(McpSupervisorToolCallbackProvider.class));
	}

	@Test
	void runWithAnInitialDelayOverTheInheritedMaxDelayShouldFail() {
		withDemoServer("mcp.defaults.reconnect.max-delay=5s", "mcp.servers.demo.reconnect.initial-delay=10s")
			.run((context) -> assertThat(StartupFailures.messages(context))
				.contains("servers[demo].reconnect.initialDelay")
				.contains("must not exceed max-delay (5000 ms)"));
	}

	@Test
	void theConfigurationMetadataDescribesTheDefaultsWithTheirValues() throws Exception {
		JsonNode metadata = JsonMapper.builder()
			.build()
			.readTree(new ClassPathResource("META-INF/spring-configuration-metadata.json").getInputStream());
		Map<String, JsonNode> properties = new HashMap<>();
		metadata.get("properties").forEach((property) -> properties.put(property.get("name").asString(), property));
		assertThat(properties).containsKeys("mcp.enabled", "mcp.servers", "mcp.defaults.request-timeout",
				"mcp.defaults.reconnect.max-attempts", "mcp.defaults.call.retry", "mcp.defaults.health-check.interval");
		assertThat(properties.get("mcp.defaults.reconnect.max-attempts").get("defaultValue").asInt()).isEqualTo(10);
		assertThat(properties.get("mcp.defaults.request-timeout").get("description").asString())
			.startsWith("Timeout of each tool call");
	}

	@Test
	void runWithASettingOfEachServerUnderTheDefaultsShouldFailNamingIt() {
		withDemoServer("mcp.defaults.command=npx", "mcp.defaults.env.TOKEN=s3cr3t-4711",
				"mcp.defaults.oauth.registration=corp", "mcp.defaults.transport=streamable-http")
			.run((context) -> assertThat(StartupFailures.messages(context)).contains("mcp.defaults.command")
				.contains("mcp.defaults.env")
				.contains("mcp.defaults.oauth")
				.contains("mcp.defaults.transport")
				.contains("is a setting of each server, not inherited: set it under mcp.servers.<name>"));
	}

	@Test
	void runWithAnUnknownKeyUnderTheDefaultsShouldFail() {
		withDemoServer("mcp.defaults.reconect.max-attempts=3")
			.run((context) -> assertThat(StartupFailures.messages(context))
				.contains("mcp.defaults.reconect.max-attempts"));
	}

	@Test
	void runWithAnUnknownTransportShouldFail() {
		withDemoServer("mcp.servers.demo.transport=carrier-pigeon")
			.run((context) -> assertThat(StartupFailures.messages(context)).contains("mcp.servers.demo.transport")
				.contains("carrier-pigeon"));
	}

	@Test
	void runWithoutACommandShouldFail() {
		this.contextRunner.withPropertyValues("mcp.servers.demo.enabled=true")
			.run((context) -> assertThat(StartupFailures.messages(context)).contains("mcp.servers[demo].command")
				.contains("is required when transport is stdio"));
	}

	@Test
	void runWithAMissingWorkingDirectoryShouldFail() {
		withDemoServer("mcp.servers.demo.working-directory=/nonexistent/dir")
			.run((context) -> assertThat(StartupFailures.messages(context)).contains("servers[demo].workingDirectory")
				.contains("/nonexistent/dir")
				.contains("must be an existing directory"));
	}

	@Test
	void runWithADisabledServerShouldBindItWithoutValidatingIt() {
		this.contextRunner
			.withPropertyValues("mcp.servers.demo.enabled=false", "mcp.servers.demo.working-directory=/nonexistent/dir",
					"mcp.servers.demo.url=http://127.0.0.1:1/mcp")
			.run((context) -> {
				assertThat(context).hasNotFailed();
				assertThat(context.getBean(McpSupervisorProperties.class).servers().get("demo").workingDirectory())
					.hasToString("/nonexistent/dir");
				assertThat(context.getBean(McpSupervisors.class).supervisors()).isEmpty();
			});
	}

	@Test
	void runWithAnUnknownKeyUnderADisabledServerShouldFail() {
		this.contextRunner.withPropertyValues("mcp.servers.demo.enabled=false", "mcp.servers.demo.comand=x")
			.run((context) -> assertThat(StartupFailures.messages(context)).contains("mcp.servers.demo.comand"));
	}

	@Test
	void runWithANonPositiveRequestTimeoutShouldFail() {
		withDemoServer("mcp.servers.demo.request-timeout=0s")
			.run((context) -> assertThat(StartupFailures.messages(context)).contains("servers[demo].requestTimeout")
				.contains("PT0S")
				.contains("must be positive"));
	}

	@ParameterizedTest
	@CsvSource({ "mcp.servers.demo.request-timeout, servers[demo].requestTimeout",
			"mcp.defaults.initialization-timeout, defaults.initializationTimeout",
			"mcp.servers.demo.termination-grace-period, servers[demo].terminationGracePeriod",
			"mcp.servers.demo.call.timeouts[slow], servers[demo].call.timeouts[slow]",
			"mcp.defaults.call.wait-for-recovery, defaults.call.waitForRecovery",
			"mcp.servers.demo.health-check.interval, servers[demo].healthCheck.interval",
			"mcp.defaults.reconnect.cooldown.max, defaults.reconnect.cooldown.max",
			"mcp.defaults.http.connect-timeout, defaults.http.connectTimeout", "mcp.reload.interval, reload.interval" })
	void runWithADurationLongerThanTheMaximumShouldFail(String property, String path) {
		// 1,000 years: past Long.MAX_VALUE nanoseconds, which each attempt overflowed
		withDemoServer(property + "=365000d")
			.run((context) -> assertThat(StartupFailures.messages(context)).contains(path)
				.contains("must not exceed 365 days"));
	}

	@Test
	void runWithTheLongestDurationShouldStart() {
		withDemoServer("mcp.servers.demo.request-timeout=365d", "mcp.defaults.reconnect.cooldown.max=365d",
				"mcp.servers.demo.call.timeouts[slow]=365d")
			.run((context) -> assertThat(context).hasNotFailed());
	}

	@ParameterizedTest
	@ValueSource(strings = { "mcp.servers.demo.env[A=B]", "mcp.servers.demo.env[=A]", "mcp.servers.demo.env[A<NUL>B]" })
	void runWithAnEnvironmentVariableNameThatNoProcessCanHaveShouldFail(String key) {
		withDemoServer()
			.withInitializer((context) -> context.getEnvironment()
				.getPropertySources()
				.addFirst(new MapPropertySource("names", Map.of(key.replace("<NUL>", "\0"), "x"))))
			.run((context) -> assertThat(StartupFailures.messages(context)).contains("servers[demo].env")
				.contains("is not the name of an environment variable"));
	}

	@ParameterizedTest
	@ValueSource(strings = { "mcp.servers.demo.env.TOKEN=a<NUL>b", "mcp.servers.demo.args[0]=a<NUL>b" })
	void runWithANulCharacterInAValueOfTheProcessShouldFail(String property) {
		withDemoServer(property.replace("<NUL>", "\0"))
			.run((context) -> assertThat(StartupFailures.messages(context)).contains("NUL character"));
	}

	@Test
	void runWithANegativeInitializationTimeoutShouldFail() {
		withDemoServer("mcp.servers.demo.initialization-timeout=-1s")
			.run((context) -> assertThat(StartupFailures.messages(context))
				.contains("servers[demo].initializationTimeout")
				.contains("PT-1S")
				.contains("must be positive"));
	}

	@Test
	void runWithAnInitialDelayAboveTheMaxDelayShouldFail() {
		withDemoServer("mcp.servers.demo.reconnect.initial-delay=10s", "mcp.servers.demo.reconnect.max-delay=5s")
			.run((context) -> assertThat(StartupFailures.messages(context))
				.contains("servers[demo].reconnect.initialDelay")
				.contains("must not exceed max-delay (5000 ms)"));
	}

	@Test
	void runWithZeroMaxAttemptsShouldFail() {
		withDemoServer("mcp.servers.demo.reconnect.max-attempts=0")
			.run((context) -> assertThat(StartupFailures.messages(context))
				.contains("servers[demo].reconnect.maxAttempts")
				.contains("must be greater than or equal to 1"));
	}

	@Test
	void runWithAJitterAboveOneShouldFail() {
		withDemoServer("mcp.servers.demo.reconnect.jitter=1.5")
			.run((context) -> assertThat(StartupFailures.messages(context))
				.contains("mcp.servers[demo].reconnect.jitter")
				.contains("1.5"));
	}

	@Test
	void runWithAServerShouldInheritOnlyWhatEveryProcessNeedsByDefault() {
		withDemoServer().run((context) -> {
			McpServerSettings server = McpServerSettingsResolver.resolve(context.getBean(McpSupervisorProperties.class))
				.get(0);
			assertThat(server.inheritEnv()).isEmpty();
			assertThat(server.toStdioDefinition().inheritEnv()).isEmpty();
		});
	}

	@Test
	void runWithInheritEnvShouldLetAServerReplaceTheDefaults() {
		this.contextRunner
			.withPropertyValues("mcp.defaults.inherit-env=AWS_*,JAVA_HOME", "mcp.servers.a.command=" + MISSING,
					"mcp.servers.b.command=" + MISSING, "mcp.servers.b.inherit-env=*",
					"mcp.servers.c.command=" + MISSING, "mcp.servers.c.inherit-env=")
			.run((context) -> {
				List<McpServerSettings> servers = McpServerSettingsResolver
					.resolve(context.getBean(McpSupervisorProperties.class));
				assertThat(servers.get(0).toStdioDefinition().inheritEnv()).containsExactly("AWS_*", "JAVA_HOME");
				assertThat(servers.get(1).inheritEnv()).containsExactly("*");
				assertThat(servers.get(2).inheritEnv()).isEmpty();
			});
	}

	@Test
	void runWithAnInheritEnvEntryThatIsNoVariableOrPatternShouldFail() {
		withDemoServer("mcp.defaults.inherit-env=AWS KEY", "mcp.servers.demo.inherit-env[0]=TOKEN=x")
			.run((context) -> assertThat(StartupFailures.messages(context)).contains("defaults.inheritEnv[0]")
				.contains("AWS KEY")
				.contains("servers[demo].inheritEnv[0]")
				.contains("TOKEN=x")
				.contains("must be the name of an environment variable")
				.contains("e.g. AWS_*"));
	}

	@Test
	void runWithAServerShouldBindTheCallAndHealthCheckDefaults() {
		withDemoServer().run((context) -> {
			McpServerSettings server = McpServerSettingsResolver.resolve(context.getBean(McpSupervisorProperties.class))
				.get(0);
			assertThat(server.call()).isEqualTo(CallPolicy.defaults());
			assertThat(server.healthCheck()).isEqualTo(HealthCheckPolicy.defaults());
		});
	}

	@Test
	void runWithCallAndHealthCheckSettingsShouldBindThem() {
		withDemoServer("mcp.servers.demo.call.wait-for-recovery=0s", "mcp.servers.demo.call.retry=always",
				"mcp.servers.demo.call.trust-annotations=false", "mcp.servers.demo.call.retry-tools=search,fetch",
				"mcp.servers.demo.health-check.interval=0s", "mcp.servers.demo.health-check.timeout=1s",
				"mcp.servers.demo.health-check.failure-threshold=3")
			.run((context) -> {
				McpServerSettings server = McpServerSettingsResolver
					.resolve(context.getBean(McpSupervisorProperties.class))
					.get(0);
				assertThat(server.call()).isEqualTo(CallPolicy.builder()
					.waitForRecovery(Duration.ZERO)
					.retry(CallPolicy.Retry.ALWAYS)
					.trustAnnotations(false)
					.retryTools(Set.of("search", "fetch"))
					.build());
				assertThat(server.healthCheck().isEnabled()).isFalse();
				assertThat(server.healthCheck().failureThreshold()).isEqualTo(3);
			});
	}

	@Test
	void runWithANegativeWaitForRecoveryShouldFail() {
		withDemoServer("mcp.servers.demo.call.wait-for-recovery=-1s")
			.run((context) -> assertThat(StartupFailures.messages(context))
				.contains("servers[demo].call.waitForRecovery")
				.contains("must not be negative"));
	}

	@Test
	void runWithAnUnknownRetryModeShouldFail() {
		withDemoServer("mcp.servers.demo.call.retry=sometimes")
			.run((context) -> assertThat(StartupFailures.messages(context)).contains("mcp.servers.demo.call.retry")
				.contains("sometimes"));
	}

	@Test
	void runWithANonPositiveHealthCheckTimeoutShouldFail() {
		withDemoServer("mcp.servers.demo.health-check.timeout=0s").run(
				(context) -> assertThat(StartupFailures.messages(context)).contains("servers[demo].healthCheck.timeout")
					.contains("must be positive"));
	}

	@Test
	void runWithAZeroFailureThresholdShouldFail() {
		withDemoServer("mcp.servers.demo.health-check.failure-threshold=0")
			.run((context) -> assertThat(StartupFailures.messages(context))
				.contains("servers[demo].healthCheck.failureThreshold")
				.contains("must be greater than or equal to 1"));
	}

	@Test
	void runWithAStreamableHttpServerWithoutAUrlShouldFail() {
		this.contextRunner.withPropertyValues("mcp.servers.remote.transport=streamable-http")
			.run((context) -> assertThat(StartupFailures.messages(context)).contains("servers[remote].url")
				.contains("is required when transport is streamable-http"));
	}

	@Test
	void runWithAStreamableHttpServerWithARelativeUrlShouldFail() {
		this.contextRunner
			.withPropertyValues("mcp.servers.remote.transport=streamable-http", "mcp.servers.remote.url=/mcp")
			.run((context) -> assertThat(StartupFailures.messages(context)).contains("servers[remote].url")
				.contains("must be an absolute http or https URL"));
	}

	@Test
	void runWithAStreamableHttpServerWithAnFtpUrlShouldFail() {
		this.contextRunner
			.withPropertyValues("mcp.servers.remote.transport=streamable-http",
					"mcp.servers.remote.url=ftp://127.0.0.1/mcp")
			.run((context) -> assertThat(StartupFailures.messages(context))
				.contains("must be an absolute http or https URL"));
	}

	@Test
	void runWithAStreamableHttpServerShouldBindItsUrlAndHeaders() {
		this.contextRunner
			.withPropertyValues("mcp.servers.remote.transport=streamable-http",
					"mcp.servers.remote.url=http://127.0.0.1:1/mcp",
					"mcp.servers.remote.headers.Authorization=Bearer x", "mcp.servers.remote.reconnect.enabled=false")
			.run((context) -> {
				McpServerSettings server = McpServerSettingsResolver
					.resolve(context.getBean(McpSupervisorProperties.class))
					.get(0);
				assertThat(server.toHttpDefinition().url()).hasToString("http://127.0.0.1:1/mcp");
				assertThat(server.toHttpDefinition().headers()).containsEntry("Authorization", "Bearer x");
			});
	}

	@Test
	void runWithAnUnknownKeyUnderAServerShouldFail() {
		withDemoServer("mcp.servers.demo.comand=typo")
			.run((context) -> assertThat(StartupFailures.messages(context)).contains("mcp.servers.demo.comand"));
	}

	@Test
	void runWithUserDefinedBeansShouldBackOff() {
		this.contextRunner.withUserConfiguration(UserBeans.class).run((context) -> {
			assertThat(context).hasSingleBean(McpSupervisors.class)
				.hasSingleBean(SupervisorScheduler.class)
				.hasSingleBean(McpConnectorFactory.class)
				.hasSingleBean(McpSupervisorToolCallbackProvider.class);
			assertThat(context.getBean(McpSupervisors.class)).isSameAs(context.getBean(UserBeans.class).supervisors);
			assertThat(context).getBean("userScheduler").isSameAs(context.getBean(SupervisorScheduler.class));
			assertThat(context).getBean("userProvider")
				.isSameAs(context.getBean(McpSupervisorToolCallbackProvider.class));
			assertThat(context).getBean("userConnectorFactory").isSameAs(context.getBean(McpConnectorFactory.class));
		});
	}

	/**
	 * A runner with a server 'demo' whose command does not exist, plus the given
	 * properties.
	 */
	private ApplicationContextRunner withDemoServer(String... properties) {
		return this.contextRunner.withPropertyValues("mcp.servers.demo.command=" + MISSING)
			.withPropertyValues(properties);
	}

	private static McpServerSettings settings(AssertableApplicationContext context, String name) {
		return McpServerSettingsResolver.resolve(context.getBean(McpSupervisorProperties.class))
			.stream()
			.filter((server) -> server.name().equals(name))
			.findFirst()
			.orElseThrow();
	}

	@Configuration(proxyBeanMethods = false)
	static class UserBeans {

		final McpSupervisors supervisors = new McpSupervisors(List.of());

		@Bean
		McpSupervisors userSupervisors() {
			return this.supervisors;
		}

		@Bean(destroyMethod = "close")
		ThreadPoolSupervisorScheduler userScheduler() {
			return new ThreadPoolSupervisorScheduler();
		}

		@Bean
		McpConnectorFactory userConnectorFactory() {
			return (server) -> {
				throw new IllegalStateException("not used: " + Map.of("server", server));
			};
		}

		@Bean
		McpSupervisorToolCallbackProvider userProvider(McpSupervisors supervisors) {
			return new McpSupervisorToolCallbackProvider(supervisors);
		}

	}

}
