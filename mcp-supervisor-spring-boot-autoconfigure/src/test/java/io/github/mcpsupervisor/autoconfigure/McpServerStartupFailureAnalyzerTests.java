package io.github.mcpsupervisor.autoconfigure;

import java.util.List;

import io.github.mcpsupervisor.supervisor.McpServerStartupException;
import io.github.mcpsupervisor.supervisor.McpServerState;
import io.github.mcpsupervisor.supervisor.McpServerStatus;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.ImportAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.ApplicationContextException;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.Environment;
import org.springframework.mock.env.MockEnvironment;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * The analysis of a start aborted by a server marked {@code fail-on-startup-error}.
 */
@ExtendWith(OutputCaptureExtension.class)
class McpServerStartupFailureAnalyzerTests {

	private static final String MISSING = "/nonexistent/mcp-server";

	@Test
	void analyzeShouldDescribeTheFailureAndWhatToCheckForAStdioServer() {
		MockEnvironment environment = new MockEnvironment()
			.withProperty("mcp.servers.optional.command", "/usr/bin/optional")
			.withProperty("mcp.servers.files.command", MISSING)
			.withProperty("mcp.servers.files.fail-on-startup-error", "true");
		FailureAnalysis analysis = analyze(environment, "files", "cannot run '" + MISSING + "'");
		assertThat(analysis.getDescription()).contains("MCP server 'files' is FAILED").contains(MISSING);
		assertThat(analysis.getAction()).contains("MCP server 'files'")
			.contains("command '" + MISSING + "' (mcp.servers.files.command)")
			.contains("mcp.servers.files.fail-on-startup-error=false")
			.contains("POST /actuator/mcp/files/reset")
			.doesNotContain("optional");
	}

	@Test
	void analyzeShouldSayWhatToCheckForAStreamableHttpServer() {
		MockEnvironment environment = new MockEnvironment()
			.withProperty("mcp.servers.search.transport", "streamable-http")
			.withProperty("mcp.servers.search.url", "https://mcp.example.com/mcp")
			.withProperty("mcp.servers.search.fail-on-startup-error", "true");
		FailureAnalysis analysis = analyze(environment, "search", "HTTP 401");
		assertThat(analysis.getAction()).contains("answers at https://mcp.example.com/mcp (mcp.servers.search.url)")
			.contains("mcp.servers.search.headers")
			.contains("mcp.servers.search.fail-on-startup-error=false");
	}

	@Test
	void analyzeWithoutTheConfigurationShouldStillDescribeTheFailure() {
		FailureAnalysis analysis = analyze(null, "files", "boom");
		assertThat(analysis.getDescription()).contains("MCP server 'files' is FAILED after its first attempt: boom");
		assertThat(analysis.getAction()).contains("fail-on-startup-error");
	}

	@Test
	void analyzeShouldIgnoreOtherFailures() {
		assertThat(new McpServerStartupFailureAnalyzer(new MockEnvironment())
			.analyze(new IllegalStateException("MCP server 'files' is FAILED"))).isNull();
	}

	@Test
	void runWhenARequiredServerDoesNotStartShouldReportTheAnalysis(CapturedOutput output) {
		SpringApplicationBuilder application = new SpringApplicationBuilder(Config.class).web(WebApplicationType.NONE)
			.properties("mcp.servers.demo.command=" + MISSING, "mcp.servers.demo.fail-on-startup-error=true");
		assertThatExceptionOfType(ApplicationContextException.class).isThrownBy(application::run)
			.havingRootCause()
			.isInstanceOf(McpServerStartupException.class);
		assertThat(output).contains("APPLICATION FAILED TO START")
			.contains("MCP server 'demo' is FAILED after its first attempt")
			.contains(MISSING)
			.contains("mcp.servers.demo.fail-on-startup-error=false");
	}

	private static FailureAnalysis analyze(@Nullable Environment environment, String server, String lastError) {
		McpServerStatus failed = new McpServerStatus(server, McpServerState.FAILED, 1, null, null, 1, 10, null, null,
				lastError, List.of(), List.of(), null, null, null);
		McpServerStartupException cause = new McpServerStartupException(List.of(failed));
		FailureAnalysis analysis = new McpServerStartupFailureAnalyzer(environment)
			.analyze(new ApplicationContextException("Failed to start bean 'mcpSupervisors'", cause));
		assertThat(analysis).isNotNull();
		assertThat(analysis.getCause()).isSameAs(cause);
		return analysis;
	}

	@Configuration(proxyBeanMethods = false)
	@ImportAutoConfiguration(McpSupervisorAutoConfiguration.class)
	static class Config {

	}

}
