package io.github.mcpsupervisor.autoconfigure;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.boot.WebApplicationType;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatException;

/**
 * Invalid {@code mcp.*} configuration is reported in the user's words: the property as
 * written, its value as written, where it was written and the rule it breaks.
 */
@ExtendWith(OutputCaptureExtension.class)
class McpConfigurationFailureAnalyzerTests {

	@Test
	void runWhenADelayBreaksARuleOfTwoPropertiesShouldReportItAsWrittenInTheYamlFile(CapturedOutput output) {
		run("--spring.config.name=mcp-bad-delay");
		assertThat(output).contains("Invalid MCP supervisor configuration")
			.contains("Property: mcp.servers.files.reconnect.initial-delay")
			.contains("Value: 40s")
			.contains("Origin: class path resource [mcp-bad-delay.yml]")
			.contains("mcp-bad-delay.yml] - 6:24")
			.contains("Rule: must not exceed max-delay (30000 ms)")
			.doesNotContain("initialDelay")
			.doesNotContain("PT40S");
	}

	@Test
	void runWhenAValueBreaksAConstraintShouldReportItAsWrittenOnTheCommandLine(CapturedOutput output) {
		run("--mcp.servers.files.command=/nonexistent/mcp-server",
				"--mcp.servers.files.health-check.failure-threshold=0");
		assertThat(output).contains("Property: mcp.servers.files.health-check.failure-threshold")
			.contains("Value: 0")
			.contains("Origin: \"mcp.servers.files.health-check.failure-threshold\" from property source "
					+ "\"commandLineArgs\"")
			.contains("Rule: must be greater than or equal to 1")
			.doesNotContain("failureThreshold");
	}

	@Test
	void runWhenARequiredPropertyIsMissingShouldSaySoAtItsName(CapturedOutput output) {
		run("--mcp.servers.files.args=-y");
		assertThat(output).contains("Property: mcp.servers.files.command")
			.contains("Value: not set")
			.contains("Rule: is required when transport is stdio");
	}

	@Test
	void runWhenAnEnumValueCannotBeConvertedShouldListTheValuesAsWritten(CapturedOutput output) {
		run("--mcp.servers.files.command=/nonexistent/mcp-server", "--mcp.servers.files.call.retry=sometimes");
		assertThat(output).contains("Property: mcp.servers.files.call.retry")
			.contains("Value: sometimes")
			.contains("Origin: \"mcp.servers.files.call.retry\" from property source \"commandLineArgs\"")
			.contains("Rule: must be one of never, safe, always");
	}

	@Test
	void runWhenADurationCannotBeConvertedShouldGiveTheFormat(CapturedOutput output) {
		run("--spring.config.name=mcp-bad-duration");
		assertThat(output).contains("Property: mcp.defaults.request-timeout")
			.contains("Value: soon")
			.contains("Origin: class path resource [mcp-bad-duration.properties]")
			.contains("mcp-bad-duration.properties] - 2:30")
			.contains("Rule: must be a duration such as 500ms, 20s or 1m");
	}

	@Test
	void runWhenAKeyIsUnknownShouldNameItAndWhereItWasWritten(CapturedOutput output) {
		run("--spring.config.name=mcp-unknown-key");
		assertThat(output).contains("Property: mcp.servers.files.comand")
			.contains("Value: npx")
			.contains("Origin: class path resource [mcp-unknown-key.properties]")
			.contains("mcp-unknown-key.properties] - 2:26")
			.contains("Rule: is not a known property")
			.contains("mcp.servers.<name>.<property>");
	}

	private static void run(String... args) {
		SpringApplicationBuilder application = new SpringApplicationBuilder(
				McpServerStartupFailureAnalyzerTests.Config.class)
			.web(WebApplicationType.NONE);
		assertThatException().isThrownBy(() -> application.run(args));
	}

}
