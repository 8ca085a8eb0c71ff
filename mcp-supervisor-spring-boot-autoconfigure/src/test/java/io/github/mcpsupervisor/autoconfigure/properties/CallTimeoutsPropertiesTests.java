package io.github.mcpsupervisor.autoconfigure.properties;

import java.time.Duration;
import java.util.Map;

import io.github.mcpsupervisor.autoconfigure.McpSupervisorAutoConfiguration;
import io.github.mcpsupervisor.autoconfigure.StartupFailures;
import io.github.mcpsupervisor.autoconfigure.properties.internal.McpServerSettings;
import io.github.mcpsupervisor.autoconfigure.properties.internal.McpServerSettingsResolver;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.assertj.AssertableApplicationContext;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.core.env.StandardEnvironment;
import org.springframework.core.env.SystemEnvironmentPropertySource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.entry;

/**
 * The tools' own timeouts, {@code call.timeouts.<tool>}: bound per server and in the
 * defaults, merged by tool name with the server's entry winning, refused when not a
 * positive duration.
 */
class CallTimeoutsPropertiesTests {

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(McpSupervisorAutoConfiguration.class))
		.withPropertyValues("mcp.servers.demo.command=/nonexistent/mcp-server",
				"mcp.servers.other.command=/nonexistent/mcp-server");

	@Test
	void runWithoutToolTimeoutsShouldGiveEveryCallTheRequestTimeout() {
		this.contextRunner.run((context) -> {
			assertThat(settings(context, "demo").callTimeouts()).isEmpty();
			assertThat(settings(context, "demo").toStdioDefinition().toolTimeouts()).isEmpty();
		});
	}

	@Test
	void runWithToolTimeoutsShouldMergeTheServersOverTheDefaultsByToolName() {
		this.contextRunner
			.withPropertyValues("mcp.defaults.call.timeouts.slow=1m", "mcp.defaults.call.timeouts.lookup=2s",
					"mcp.servers.demo.call.timeouts.slow=5m", "mcp.servers.demo.call.timeouts[run_code]=10m")
			.run((context) -> {
				McpServerSettings demo = settings(context, "demo");
				assertThat(demo.callTimeouts()).containsOnly(entry("lookup", Duration.ofSeconds(2)),
						entry("run_code", Duration.ofMinutes(10)), entry("slow", Duration.ofMinutes(5)));
				assertThat(demo.toStdioDefinition().toolTimeouts()).isEqualTo(demo.callTimeouts());
				assertThat(settings(context, "other").callTimeouts())
					.containsOnly(entry("lookup", Duration.ofSeconds(2)), entry("slow", Duration.ofMinutes(1)));
				assertThat(McpServerSettingsResolver.timeoutOrigins(properties(context), "demo")).containsOnly(
						entry("call.timeouts[lookup]", "defaults"), entry("call.timeouts[run_code]", "server"),
						entry("call.timeouts[slow]", "server"));
				assertThat(McpServerSettingsResolver.timeoutOrigins(properties(context), "other"))
					.containsOnly(entry("call.timeouts[lookup]", "defaults"), entry("call.timeouts[slow]", "defaults"));
			});
	}

	@Test
	void runWithToolNamesInEveryFormShouldKeepThemAsTheServerNamesTheTool() {
		this.contextRunner
			.withPropertyValues("mcp.servers.demo.call.timeouts[get_sum]=3s",
					"mcp.servers.demo.call.timeouts[getSum]=4s", "mcp.servers.demo.call.timeouts[files.read]=5s",
					"mcp.servers.demo.call.timeouts.get-sum=6s")
			.run((context) -> assertThat(settings(context, "demo").callTimeouts()).containsOnly(
					entry("get_sum", Duration.ofSeconds(3)), entry("getSum", Duration.ofSeconds(4)),
					entry("files.read", Duration.ofSeconds(5)), entry("get-sum", Duration.ofSeconds(6))));
	}

	@Test
	void runWithAToolNameThatBindingWouldChangeWithoutBracketsShouldFailNamingTheBracketNotation() {
		this.contextRunner.withPropertyValues("mcp.servers.demo.call.timeouts.run_code=3s")
			.run((context) -> assertThat(StartupFailures.messages(context))
				.contains("mcp.servers.demo.call.timeouts.run_code")
				.contains("mcp.servers.demo.call.timeouts[run_code]"));
		this.contextRunner.withPropertyValues("mcp.defaults.call.timeouts.getSum=3s")
			.run((context) -> assertThat(StartupFailures.messages(context))
				.contains("mcp.defaults.call.timeouts.getSum")
				.contains("mcp.defaults.call.timeouts[getSum]"));
	}

	@Test
	void runWithTwoToolNamesThatAreOneToRelaxedBindingShouldFailNamingBoth() {
		this.contextRunner
			.withPropertyValues("mcp.servers.demo.call.timeouts.get-sum=3s", "mcp.servers.demo.call.timeouts.getsum=4s")
			.run((context) -> assertThat(StartupFailures.messages(context))
				.contains("the tool names 'get-sum' and 'getsum' are one name")
				.contains("mcp.servers.demo.call.timeouts[get-sum] and mcp.servers.demo.call.timeouts[getsum]"));
	}

	@Test
	void runWithAToolNameWithAnUnderscoreInAnEnvironmentVariableShouldFail() {
		this.contextRunner
			.withInitializer(
					(context) -> context.getEnvironment()
						.getPropertySources()
						.addFirst(new SystemEnvironmentPropertySource(
								StandardEnvironment.SYSTEM_ENVIRONMENT_PROPERTY_SOURCE_NAME,
								Map.of("MCP_SERVERS_DEMO_CALL_TIMEOUTS_RUN_CODE", "3s"))))
			.run((context) -> assertThat(StartupFailures.messages(context))
				.contains("MCP_SERVERS_DEMO_CALL_TIMEOUTS_RUN_CODE")
				.contains("an environment variable cannot name a tool whose name has '_'"));
	}

	@Test
	void runWithAToolTimeoutOfAStreamableHttpServerShouldGiveItToItsDefinition() {
		this.contextRunner
			.withPropertyValues("mcp.servers.remote.transport=streamable-http",
					"mcp.servers.remote.url=http://127.0.0.1:1/mcp", "mcp.servers.remote.call.timeouts.slow=3m")
			.run((context) -> assertThat(settings(context, "remote").toHttpDefinition().toolTimeouts())
				.isEqualTo(Map.of("slow", Duration.ofMinutes(3))));
	}

	@Test
	void runWithANonPositiveToolTimeoutShouldFail() {
		this.contextRunner.withPropertyValues("mcp.servers.demo.call.timeouts.slow=0s")
			.run((context) -> assertThat(StartupFailures.messages(context))
				.contains("servers[demo].call.timeouts[slow]")
				.contains("must be positive"));
	}

	@Test
	void runWithANegativeDefaultToolTimeoutShouldFail() {
		this.contextRunner.withPropertyValues("mcp.defaults.call.timeouts.slow=-1s")
			.run((context) -> assertThat(StartupFailures.messages(context)).contains("defaults.call.timeouts[slow]")
				.contains("must be positive"));
	}

	@Test
	void runWithAToolTimeoutThatIsNotADurationShouldFail() {
		this.contextRunner.withPropertyValues("mcp.servers.demo.call.timeouts.slow=soon")
			.run((context) -> assertThat(StartupFailures.messages(context))
				.contains("mcp.servers.demo.call.timeouts.slow")
				.contains("soon"));
	}

	private static McpSupervisorProperties properties(AssertableApplicationContext context) {
		return context.getBean(McpSupervisorProperties.class);
	}

	private static McpServerSettings settings(AssertableApplicationContext context, String name) {
		return McpServerSettingsResolver.resolve(properties(context))
			.stream()
			.filter((server) -> server.name().equals(name))
			.findFirst()
			.orElseThrow();
	}

}
