package io.github.mcpsupervisor.autoconfigure;

import java.util.Arrays;
import java.util.List;

import io.github.mcpsupervisor.autoconfigure.internal.McpConnectorFactory;
import io.github.mcpsupervisor.supervisor.FakeConnector;
import io.github.mcpsupervisor.tool.McpSupervisorToolCallbackProvider;
import io.github.mcpsupervisor.tool.McpToolNamesException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.ai.mcp.DefaultMcpToolNamePrefixGenerator;
import org.springframework.ai.mcp.McpToolNamePrefixGenerator;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.ImportAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * {@code tool-names} and the application's {@link McpToolNamePrefixGenerator}, through
 * the auto-configuration, with servers whose tools are given.
 */
@ExtendWith(OutputCaptureExtension.class)
class McpToolNamingAutoConfigurationTests {

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(McpSupervisorAutoConfiguration.class))
		.withUserConfiguration(FakeServers.class)
		.withPropertyValues("mcp.servers.files.command=files", "mcp.servers.web.command=web");

	@Test
	void runWhenToolNamesAreNotSetShouldPrefixThem() {
		this.contextRunner.run((context) -> assertThat(names(context.getBean(McpSupervisorToolCallbackProvider.class)))
			.containsExactly("files_read_file", "files_search", "web_search"));
	}

	@Test
	void runWhenOneServerKeepsSpringAisNamesShouldNameOnlyItsTools() {
		this.contextRunner.withPropertyValues("mcp.servers.files.tool-names=spring-ai")
			.run((context) -> assertThat(names(context.getBean(McpSupervisorToolCallbackProvider.class)))
				.containsExactly("read_file", "search", "web_search"));
	}

	@Test
	void runWhenTheDefaultsKeepSpringAisNamesAndTwoServersHaveOneShouldRefuseTheStart() {
		this.contextRunner.withPropertyValues("mcp.defaults.tool-names=spring-ai")
			.run((context) -> assertThat(context).getFailure()
				.rootCause()
				.isInstanceOfSatisfying(McpToolNamesException.class, (refused) -> assertThat(refused.getRefusals())
					.containsExactly(
							"tool 'search' of MCP server 'web' is named 'search' like tool 'search' of MCP server 'files'")));
	}

	@Test
	void runWhenAServerOverridesTheDefaultsShouldPrefixItsTools() {
		this.contextRunner
			.withPropertyValues("mcp.defaults.tool-names=spring-ai", "mcp.servers.web.tool-names=prefixed")
			.run((context) -> assertThat(names(context.getBean(McpSupervisorToolCallbackProvider.class)))
				.containsExactly("read_file", "search", "web_search"));
	}

	@Test
	void runWhenToolNamesIsNotAValueShouldFail() {
		this.contextRunner.withPropertyValues("mcp.defaults.tool-names=plain")
			.run((context) -> assertThat(context).hasFailed());
	}

	@Test
	void runWhenAGeneratorNamesTheServersThatKeepSpringAisNamesShouldUseItForThemAlone() {
		this.contextRunner.withPropertyValues("mcp.servers.web.tool-names=spring-ai")
			.withBean(McpToolNamePrefixGenerator.class,
					() -> (connection, tool) -> "remote_" + connection.clientInfo().title() + "_" + tool.name())
			.run((context) -> assertThat(names(context.getBean(McpSupervisorToolCallbackProvider.class)))
				.containsExactly("files_read_file", "files_search", "remote_web_search"));
	}

	@Test
	void runWhenSpringAisDefaultGeneratorIsABeanShouldGiveItsFirstNamesDeterministically() {
		this.contextRunner.withPropertyValues("mcp.servers.files.tool-names=spring-ai")
			.withBean(McpToolNamePrefixGenerator.class, DefaultMcpToolNamePrefixGenerator::new)
			.run((context) -> {
				McpSupervisorToolCallbackProvider provider = context.getBean(McpSupervisorToolCallbackProvider.class);
				assertThat(names(provider)).containsExactly("read_file", "search", "web_search");
				provider.invalidateCache();
				assertThat(names(provider)).as("no alt_<n>_ renames on a rebuild")
					.containsExactly("read_file", "search", "web_search");
			});
	}

	@Test
	void runWhenSpringAisDefaultGeneratorIsABeanAndEveryToolIsPrefixedShouldStart() {
		this.contextRunner
			.withBean("defaultMcpToolNamePrefixGenerator", McpToolNamePrefixGenerator.class,
					DefaultMcpToolNamePrefixGenerator::new)
			.run((context) -> assertThat(names(context.getBean(McpSupervisorToolCallbackProvider.class)))
				.containsExactly("files_read_file", "files_search", "web_search"));
	}

	@Test
	void runWhenAGeneratorWouldNameNoToolShouldRefuseTheStart() {
		this.contextRunner
			.withBean("myToolNames", McpToolNamePrefixGenerator.class, McpToolNamePrefixGenerator::noPrefix)
			.run((context) -> assertThat(context).getFailure()
				.rootCause()
				.isInstanceOf(McpToolNamingException.class)
				.hasMessageContaining("bean 'myToolNames'")
				.hasMessageContaining("so it would name no tool"));
	}

	@Test
	void runWhenTwoGeneratorsAndNoneIsPrimaryShouldRefuseTheStart() {
		this.contextRunner.withPropertyValues("mcp.defaults.tool-names=spring-ai")
			.withBean("one", McpToolNamePrefixGenerator.class, McpToolNamePrefixGenerator::noPrefix)
			.withBean("two", McpToolNamePrefixGenerator.class, McpToolNamePrefixGenerator::noPrefix)
			.run((context) -> assertThat(context).getFailure()
				.rootCause()
				.isInstanceOf(McpToolNamingException.class)
				.hasMessageContaining("2 McpToolNamePrefixGenerator beans (bean 'one'")
				.hasMessageContaining("none of them is @Primary"));
	}

	@Test
	void runWhenNoServerIsConfiguredShouldAcceptAGenerator() {
		new ApplicationContextRunner().withConfiguration(AutoConfigurations.of(McpSupervisorAutoConfiguration.class))
			.withBean(McpToolNamePrefixGenerator.class, McpToolNamePrefixGenerator::noPrefix)
			.run((context) -> assertThat(context).hasNotFailed());
	}

	@Test
	void startRefusedForCollidingNamesShouldSayWhichToolsAndTheWaysOut(CapturedOutput output) {
		SpringApplicationBuilder application = new SpringApplicationBuilder(Application.class)
			.web(WebApplicationType.NONE)
			.properties("mcp.servers.files.command=files", "mcp.servers.web.command=web",
					"mcp.defaults.tool-names=spring-ai");
		assertThatExceptionOfType(RuntimeException.class).isThrownBy(application::run)
			.havingRootCause()
			.isInstanceOf(McpToolNamesException.class);
		assertThat(output).contains("APPLICATION FAILED TO START")
			.contains("MCP tools whose names are taken or not accepted by models:")
			.contains("- tool 'search' of MCP server 'web' is named 'search' like tool 'search' of MCP server 'files'")
			.contains("set mcp.servers.files.tool-names=prefixed or mcp.servers.web.tool-names=prefixed")
			.contains("leave one of the tools out with a McpToolFilter bean");
	}

	@Test
	void startRefusedForAnUnusedGeneratorShouldSayHowToUseIt(CapturedOutput output) {
		SpringApplicationBuilder application = new SpringApplicationBuilder(Application.class, Generator.class)
			.web(WebApplicationType.NONE)
			.properties("mcp.servers.files.command=files");
		assertThatExceptionOfType(Exception.class).isThrownBy(application::run);
		assertThat(output).contains("APPLICATION FAILED TO START")
			.contains("every MCP server's tools are named 'prefixed'")
			.contains("Set mcp.defaults.tool-names=spring-ai");
	}

	private static List<String> names(McpSupervisorToolCallbackProvider provider) {
		return Arrays.stream(provider.getToolCallbacks())
			.map((callback) -> callback.getToolDefinition().name())
			.toList();
	}

	/** Servers named after their command: files has read_file and search, web search. */
	@Configuration(proxyBeanMethods = false)
	static class FakeServers {

		@Bean
		McpConnectorFactory fakeConnectors() {
			return (server) -> {
				FakeConnector connector = new FakeConnector();
				connector.serverTools = ("files".equals(server.command()))
						? List.of(FakeConnector.tool("read_file"), FakeConnector.tool("search"))
						: List.of(FakeConnector.tool("search"));
				return connector;
			};
		}

	}

	@Configuration(proxyBeanMethods = false)
	@ImportAutoConfiguration(McpSupervisorAutoConfiguration.class)
	static class Application extends FakeServers {

	}

	@Configuration(proxyBeanMethods = false)
	static class Generator {

		@Bean
		McpToolNamePrefixGenerator myToolNames() {
			return McpToolNamePrefixGenerator.noPrefix();
		}

	}

}
