package io.github.mcpsupervisor.e2e;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import io.github.mcpsupervisor.actuate.McpEndpoint;
import io.github.mcpsupervisor.autoconfigure.McpSupervisorAutoConfiguration;
import io.github.mcpsupervisor.autoconfigure.endpoint.McpEndpointAutoConfiguration;
import io.github.mcpsupervisor.autoconfigure.health.McpHealthContributorAutoConfiguration;
import io.github.mcpsupervisor.supervisor.McpServerStartupException;
import io.github.mcpsupervisor.supervisor.McpServerState;
import io.github.mcpsupervisor.supervisor.McpSupervisors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.ai.tool.ToolCallback;
import org.springframework.ai.tool.ToolCallbackProvider;
import org.springframework.ai.tool.execution.DefaultToolExecutionExceptionProcessor;
import org.springframework.ai.tool.execution.ToolExecutionException;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.actuate.autoconfigure.endpoint.EndpointAutoConfiguration;
import org.springframework.boot.actuate.autoconfigure.endpoint.web.WebEndpointAutoConfiguration;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.ImportAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.health.actuate.endpoint.HealthEndpoint;
import org.springframework.boot.health.autoconfigure.actuate.endpoint.HealthEndpointAutoConfiguration;
import org.springframework.boot.health.autoconfigure.contributor.HealthContributorAutoConfiguration;
import org.springframework.boot.health.autoconfigure.registry.HealthContributorRegistryAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.NestedExceptionUtils;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;
import static org.assertj.core.api.Assertions.fail;
import static org.awaitility.Awaitility.await;

/**
 * Keys in a server's URL and arguments are masked wherever the server is shown: the
 * endpoint, health, logs, the startup failure analysis, and the messages the model reads.
 */
@ExtendWith(OutputCaptureExtension.class)
class SecretMaskingIT {

	private static final String MISSING = "/nonexistent/mcp-server";

	private static final List<String> SECRETS = List.of("SECRET123", "SECRET456", "SECRET789", "PASSWORD1");

	private final JsonMapper json = JsonMapper.builder().build();

	private final List<AutoCloseable> closeables = new ArrayList<>();

	@AfterEach
	void close() throws Exception {
		for (AutoCloseable closeable : this.closeables) {
			closeable.close();
		}
		await().atMost(TestServers.PATIENCE).until(() -> ProcessHandle.current().children().findAny().isEmpty());
	}

	@Test
	void secretsAreNotShownNotLoggedAndNotToldToTheModel(CapturedOutput output) throws Exception {
		LoopbackMcpHttpServer remote = new LoopbackMcpHttpServer();
		this.closeables.add(remote);
		new ApplicationContextRunner()
			.withConfiguration(AutoConfigurations.of(McpSupervisorAutoConfiguration.class,
					McpHealthContributorAutoConfiguration.class, McpEndpointAutoConfiguration.class,
					HealthContributorAutoConfiguration.class, HealthContributorRegistryAutoConfiguration.class,
					HealthEndpointAutoConfiguration.class, EndpointAutoConfiguration.class,
					WebEndpointAutoConfiguration.class))
			.withPropertyValues("mcp.servers.remote.transport=streamable-http",
					"mcp.servers.remote.url=" + remote.url("api_key=SECRET123&region=eu"),
					"mcp.servers.remote.reconnect.initial-delay=50ms", "mcp.servers.remote.call.wait-for-recovery=0",
					"mcp.servers.files.command=" + MISSING, "mcp.servers.files.args[0]=--token=SECRET456",
					"mcp.servers.files.args[1]=--api-key", "mcp.servers.files.args[2]=SECRET789",
					"mcp.servers.files.args[3]=/srv/data", "management.endpoints.web.exposure.include=health,mcp")
			.run((context) -> {
				McpSupervisors supervisors = context.getBean(McpSupervisors.class);
				assertThat(supervisors.supervisor("remote").state()).isEqualTo(McpServerState.UP);
				ToolCallback echo = Arrays.stream(context.getBean(ToolCallbackProvider.class).getToolCallbacks())
					.filter((callback) -> callback.getToolDefinition().name().equals("remote_echo"))
					.findFirst()
					.orElseThrow();
				assertThat(echo.call("{\"message\":\"hi\"}")).contains("hi");
				remote.refuseEveryRequest();
				String lostDuringTheCall = modelSees(echo);
				await().atMost(TestServers.PATIENCE)
					.until(() -> supervisors.supervisor("remote").state() == McpServerState.FAILED);
				String failed = modelSees(echo);
				McpEndpoint endpoint = context.getBean(McpEndpoint.class);
				String remoteJson = this.json.writeValueAsString(endpoint.server("remote"));
				String filesJson = this.json.writeValueAsString(endpoint.server("files"));
				String allJson = this.json.writeValueAsString(endpoint.servers());
				String health = this.json
					.writeValueAsString(context.getBean(HealthEndpoint.class).healthForPath("mcp"));
				for (String secret : SECRETS) {
					assertThat(lostDuringTheCall).as("the model's message of a call lost under it")
						.doesNotContain(secret);
					assertThat(failed).as("the model's message of a failed server").doesNotContain(secret);
					assertThat(remoteJson).as("the endpoint").doesNotContain(secret);
					assertThat(filesJson).as("the endpoint").doesNotContain(secret);
					assertThat(allJson).as("the endpoint").doesNotContain(secret);
					assertThat(health).as("the health details").doesNotContain(secret);
				}
				assertThat(lostDuringTheCall).contains("MCP server 'remote'");
				assertThat(failed).contains("MCP server 'remote'").contains("has failed");
				assertThat(remoteJson).contains("api_key=******").contains("region=******");
				assertThat(filesJson).contains("--token=******")
					.contains("\"--api-key\",\"******\"")
					.contains("/srv/data");
				assertThat(health).contains("HTTP 401").contains("cannot start");
			});
		for (String secret : SECRETS) {
			assertThat(output.toString()).as("the logs").doesNotContain(secret);
		}
	}

	@Test
	void secretsAreNotInTheStartupFailureNorItsAnalysis(CapturedOutput output) {
		SpringApplicationBuilder application = new SpringApplicationBuilder(Config.class).web(WebApplicationType.NONE)
			.properties("mcp.servers.files.command=" + MISSING, "mcp.servers.files.args[0]=--token=SECRET456",
					"mcp.servers.files.args[1]=API_KEY=SECRET789", "mcp.servers.files.fail-on-startup-error=true",
					"mcp.servers.remote.transport=streamable-http",
					"mcp.servers.remote.url=http://127.0.0.1:9/mcp?api_key=SECRET123&password=PASSWORD1",
					"mcp.servers.remote.fail-on-startup-error=true", "mcp.servers.remote.initialization-timeout=5s");
		Throwable failure = catchThrowable(application::run);
		assertThat(failure).hasRootCauseInstanceOf(McpServerStartupException.class);
		for (String secret : SECRETS) {
			assertThat(NestedExceptionUtils.getMostSpecificCause(failure).getMessage()).as("the startup exception")
				.doesNotContain(secret);
			assertThat(output.toString()).as("the logs and the failure analysis").doesNotContain(secret);
		}
		assertThat(output).contains("APPLICATION FAILED TO START")
			.contains("MCP server 'files'")
			.contains("MCP server 'remote'")
			.contains("http://127.0.0.1:9/mcp?api_key=******&password=******");
	}

	private static String modelSees(ToolCallback callback) {
		try {
			callback.call("{\"message\":\"hi\"}");
		}
		catch (ToolExecutionException ex) {
			return new DefaultToolExecutionExceptionProcessor(false).process(ex);
		}
		return fail("the call succeeded");
	}

	@Configuration(proxyBeanMethods = false)
	@ImportAutoConfiguration(McpSupervisorAutoConfiguration.class)
	static class Config {

	}

}
