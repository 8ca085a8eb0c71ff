package io.github.mcpsupervisor.autoconfigure;

import io.github.mcpsupervisor.supervisor.McpSupervisors;
import io.github.mcpsupervisor.tool.McpSupervisorToolCallbackProvider;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.ai.mcp.McpToolNamePrefixGenerator;
import org.springframework.ai.mcp.SyncMcpToolCallbackProvider;
import org.springframework.ai.mcp.annotation.spring.ClientMcpSyncHandlersRegistry;
import org.springframework.ai.mcp.client.common.autoconfigure.McpClientAutoConfiguration;
import org.springframework.ai.mcp.client.common.autoconfigure.McpToolCallbackAutoConfiguration;
import org.springframework.ai.mcp.client.common.autoconfigure.StdioTransportAutoConfiguration;
import org.springframework.ai.mcp.client.common.autoconfigure.annotations.McpClientAnnotationScannerAutoConfiguration;
import org.springframework.ai.mcp.client.httpclient.autoconfigure.SseHttpClientTransportAutoConfiguration;
import org.springframework.ai.mcp.client.httpclient.autoconfigure.StreamableHttpHttpClientTransportAutoConfiguration;
import org.springframework.ai.model.tool.autoconfigure.ToolCallingAutoConfiguration;
import org.springframework.ai.tool.ToolCallbackProvider;
import org.springframework.beans.factory.NoUniqueBeanDefinitionException;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.ImportAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Configuration;
import org.springframework.stereotype.Component;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * Spring AI's MCP client starter on the class path next to the supervisor, with its real
 * auto-configurations.
 */
@SuppressWarnings("removal")
@ExtendWith(OutputCaptureExtension.class)
class SpringAiMcpClientStarterTests {

	private static final Class<?>[] SPRING_AI_MCP_CLIENT = { McpClientAutoConfiguration.class,
			McpToolCallbackAutoConfiguration.class, StdioTransportAutoConfiguration.class,
			StreamableHttpHttpClientTransportAutoConfiguration.class, SseHttpClientTransportAutoConfiguration.class,
			McpClientAnnotationScannerAutoConfiguration.class, ToolCallingAutoConfiguration.class };

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(McpSupervisorAutoConfiguration.class))
		.withConfiguration(AutoConfigurations.of(SPRING_AI_MCP_CLIENT))
		// as SpringApplication does with the environment post-processors it lists
		.withInitializer((context) -> new SpringAiToolCallbackEnvironmentPostProcessor()
			.postProcessEnvironment(context.getEnvironment(), new SpringApplication()));

	@Test
	void runWhenSpringAiHasNoConnectionsShouldLeaveOneToolCallbackProviderToInject() {
		this.contextRunner.withUserConfiguration(QuickStart.class).run((context) -> {
			assertThat(context).hasNotFailed()
				.hasSingleBean(ToolCallbackProvider.class)
				.hasSingleBean(SyncMcpToolCallbackProvider.class)
				.hasSingleBean(McpSupervisorToolCallbackProvider.class)
				.hasSingleBean(ClientMcpSyncHandlersRegistry.class)
				.doesNotHaveBean(McpToolNamePrefixGenerator.class);
			assertThat(context.getBean(QuickStart.class).tools)
				.isSameAs(context.getBean(McpSupervisorToolCallbackProvider.class));
		});
	}

	@Test
	void runWhenSpringAiHasAConnectionShouldStillRefuseTheStart() {
		this.contextRunner.withPropertyValues("spring.ai.mcp.client.stdio.connections.files.command=/nonexistent/mcp")
			.run((context) -> assertThat(context).getFailure().isInstanceOf(SpringAiMcpClientConflictException.class));
	}

	@Test
	void runWhenTheSupervisorIsDisabledShouldLeaveSpringAisToolCallbacksOn() {
		this.contextRunner.withPropertyValues("mcp.enabled=false")
			.run((context) -> assertThat(context).hasNotFailed()
				.doesNotHaveBean(McpSupervisors.class)
				.hasSingleBean(SyncMcpToolCallbackProvider.class)
				.doesNotHaveBean(McpSupervisorToolCallbackProvider.class));
	}

	@Test
	void runWhenTheApplicationTurnsSpringAisToolCallbacksOnShouldIgnoreItsDefaultNameGenerator() {
		this.contextRunner
			.withPropertyValues("spring.ai.mcp.client.toolcallback.enabled=true",
					"mcp.servers.files.command=/nonexistent/mcp")
			.run((context) -> {
				assertThat(context).hasNotFailed()
					.hasSingleBean(McpSupervisorToolCallbackProvider.class)
					.hasSingleBean(McpToolNamePrefixGenerator.class);
				assertThat(context.getBeansOfType(ToolCallbackProvider.class)).containsOnlyKeys("mcpToolCallbacks",
						"mcpSupervisorToolCallbackProvider");
			});
	}

	@Test
	void startWithSpringAisToolCallbacksOnAndOneProviderInjectedShouldNameTheProperty(CapturedOutput output) {
		SpringApplicationBuilder application = new SpringApplicationBuilder(Application.class, QuickStart.class)
			.web(WebApplicationType.NONE);
		assertThatExceptionOfType(RuntimeException.class)
			.isThrownBy(() -> application.run("--spring.ai.mcp.client.toolcallback.enabled=true"))
			.havingRootCause()
			.isInstanceOf(NoUniqueBeanDefinitionException.class);
		assertThat(output).contains("APPLICATION FAILED TO START")
			.contains("spring.ai.mcp.client.toolcallback.enabled=true")
			.contains("mcpSupervisorToolCallbackProvider")
			.contains("Remove spring.ai.mcp.client.toolcallback.enabled");
	}

	@Test
	void applicationWithSpringAisClientStarterShouldHaveOneToolCallbackProvider() {
		try (ConfigurableApplicationContext context = new SpringApplicationBuilder(Application.class)
			.web(WebApplicationType.NONE)
			.run()) {
			assertThat(context.getBeansOfType(ToolCallbackProvider.class)).hasSize(1)
				.containsValue(context.getBean(McpSupervisorToolCallbackProvider.class));
		}
	}

	@Configuration(proxyBeanMethods = false)
	@ImportAutoConfiguration({ McpSupervisorAutoConfiguration.class, McpClientAutoConfiguration.class,
			McpToolCallbackAutoConfiguration.class, StdioTransportAutoConfiguration.class,
			StreamableHttpHttpClientTransportAutoConfiguration.class, SseHttpClientTransportAutoConfiguration.class,
			McpClientAnnotationScannerAutoConfiguration.class, ToolCallingAutoConfiguration.class })
	static class Application {

	}

	/** The README's injection of the tools. */
	@Component
	static class QuickStart {

		final ToolCallbackProvider tools;

		QuickStart(ToolCallbackProvider tools) {
			this.tools = tools;
		}

	}

}
