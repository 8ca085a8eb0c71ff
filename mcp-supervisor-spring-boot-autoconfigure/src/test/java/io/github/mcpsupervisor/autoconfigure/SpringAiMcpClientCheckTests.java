package io.github.mcpsupervisor.autoconfigure;

import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;

import io.github.mcpsupervisor.supervisor.McpSupervisors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.asm.ClassWriter;
import org.springframework.asm.Opcodes;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.core.io.DefaultResourceLoader;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * Refusal to start when Spring AI's MCP client would connect to servers of its own.
 */
@ExtendWith(OutputCaptureExtension.class)
class SpringAiMcpClientCheckTests {

	private static final String MISSING = "/nonexistent/mcp-server";

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(McpSupervisorAutoConfiguration.class))
		.withClassLoader(new SpringAiClassLoader())
		.withPropertyValues("mcp.servers.files.command=" + MISSING);

	@Test
	void runWhenSpringAiHasAStdioConnectionWithOneOfOurNamesShouldFailBeforeCreatingAnyBean() {
		AtomicBoolean beanCreated = new AtomicBoolean();
		this.contextRunner
			.withPropertyValues("spring.ai.mcp.client.stdio.connections.files.command=npx",
					"spring.ai.mcp.client.stdio.connections.git.command=uvx")
			.withBean("anyBean", Object.class, () -> {
				beanCreated.set(true);
				return new Object();
			})
			.run((context) -> {
				assertThat(context).hasFailed();
				assertThat(beanCreated).isFalse();
				assertThat(context.getStartupFailure()).isInstanceOfSatisfying(SpringAiMcpClientConflictException.class,
						(conflict) -> {
							assertThat(conflict.getConnections())
								.containsOnlyKeys("spring.ai.mcp.client.stdio.connections");
							assertThat(conflict.getConnections().get("spring.ai.mcp.client.stdio.connections"))
								.containsExactly("files", "git");
							assertThat(conflict.getDuplicates()).containsExactly("files");
						});
			});
	}

	@Test
	void runWhenSpringAiHasHttpConnectionsShouldFail() {
		this.contextRunner
			.withPropertyValues("spring.ai.mcp.client.streamable-http.connections.search.url=https://mcp.example.com",
					"spring.ai.mcp.client.sse.connections.legacy.url=https://sse.example.com")
			.run((context) -> assertThat(context.getStartupFailure())
				.isInstanceOfSatisfying(SpringAiMcpClientConflictException.class, (conflict) -> {
					assertThat(conflict.getConnections()).containsOnlyKeys(
							"spring.ai.mcp.client.streamable-http.connections", "spring.ai.mcp.client.sse.connections");
					assertThat(conflict.getDuplicates()).isEmpty();
				}));
	}

	@Test
	void runWhenSpringAiReadsAClaudeDesktopFileShouldNameItsServers() {
		this.contextRunner
			.withPropertyValues(
					"spring.ai.mcp.client.stdio.servers-configuration=classpath:claude-desktop-servers.json")
			.run((context) -> assertThat(context.getStartupFailure())
				.isInstanceOfSatisfying(SpringAiMcpClientConflictException.class, (conflict) -> {
					assertThat(conflict.getConnections()).containsEntry(
							"spring.ai.mcp.client.stdio.servers-configuration (classpath:claude-desktop-servers.json)",
							List.of("files", "git"));
					assertThat(conflict.getDuplicates()).containsExactly("files");
				}));
	}

	@Test
	void runWhenSpringAiMcpClientIsDisabledShouldStart() {
		this.contextRunner
			.withPropertyValues("spring.ai.mcp.client.enabled=false",
					"spring.ai.mcp.client.stdio.connections.files.command=npx")
			.run((context) -> assertThat(context).hasNotFailed().hasSingleBean(McpSupervisors.class));
	}

	@Test
	void runWhenSpringAiHasNoConnectionsShouldStart() {
		this.contextRunner.withPropertyValues("spring.ai.mcp.client.request-timeout=5s")
			.run((context) -> assertThat(context).hasNotFailed().hasSingleBean(McpSupervisors.class));
	}

	@Test
	void runWhenSpringAiMcpClientIsAbsentShouldStart() {
		this.contextRunner.withClassLoader(new FilteredClassLoader(SpringAiMcpClientCheck.SPRING_AI_MCP_CLIENT))
			.withPropertyValues("spring.ai.mcp.client.stdio.connections.files.command=npx")
			.run((context) -> assertThat(context).hasNotFailed().hasSingleBean(McpSupervisors.class));
	}

	@Test
	void runWhenConfiguredTwiceShouldReportWhatAndTheWaysOut(CapturedOutput output) {
		SpringApplicationBuilder application = new SpringApplicationBuilder(
				McpServerStartupFailureAnalyzerTests.Config.class)
			.resourceLoader(new DefaultResourceLoader(new SpringAiClassLoader()))
			.web(WebApplicationType.NONE)
			.properties("mcp.servers.files.command=" + MISSING,
					"spring.ai.mcp.client.stdio.connections.files.command=npx",
					"spring.ai.mcp.client.streamable-http.connections.search.url=https://mcp.example.com");
		assertThatExceptionOfType(SpringAiMcpClientConflictException.class).isThrownBy(application::run);
		assertThat(output).contains("APPLICATION FAILED TO START")
			.contains("spring.ai.mcp.client.stdio.connections: files (also in mcp.servers)")
			.contains("spring.ai.mcp.client.streamable-http.connections: search")
			.contains("'files' would run twice")
			.contains("move the entries to mcp.servers")
			.contains("set spring.ai.mcp.client.enabled=false");
	}

	@Test
	void runWhenSpringAiHasHttpConnectionsShouldShowTheUrlEachBecomes(CapturedOutput output) {
		SpringApplicationBuilder application = new SpringApplicationBuilder(
				McpServerStartupFailureAnalyzerTests.Config.class)
			.resourceLoader(new DefaultResourceLoader(new SpringAiClassLoader()))
			.web(WebApplicationType.NONE)
			.properties("spring.ai.mcp.client.streamable-http.connections.search.url=http://host:3001",
					"spring.ai.mcp.client.streamable-http.connections.docs.url=https://docs.example.com/api/",
					"spring.ai.mcp.client.streamable-http.connections.docs.endpoint=v2/mcp",
					"spring.ai.mcp.client.streamable-http.connections.vault.url=https://ada:SECRET-77@vault.example.com",
					"spring.ai.mcp.client.streamable-http.connections.vault.endpoint=/mcp?api_key=SECRET-78");
		assertThatExceptionOfType(SpringAiMcpClientConflictException.class).isThrownBy(application::run);
		assertThat(output).contains("mcp.servers.search.url=http://host:3001/mcp")
			.contains("mcp.servers.docs.url=https://docs.example.com/api/v2/mcp")
			.contains("mcp.servers.vault.url=https://******@vault.example.com/mcp?api_key=******")
			.doesNotContain("SECRET-77")
			.doesNotContain("SECRET-78");
	}

	/**
	 * Defines an empty class named like Spring AI's MCP client auto-configuration, which
	 * is not on the test class path.
	 */
	static class SpringAiClassLoader extends ClassLoader {

		SpringAiClassLoader() {
			super(SpringAiMcpClientCheckTests.class.getClassLoader());
		}

		@Override
		protected Class<?> findClass(String name) throws ClassNotFoundException {
			if (!SpringAiMcpClientCheck.SPRING_AI_MCP_CLIENT.equals(name)) {
				throw new ClassNotFoundException(name);
			}
			ClassWriter writer = new ClassWriter(0);
			writer.visit(Opcodes.V17, Opcodes.ACC_PUBLIC, name.replace('.', '/'), null, "java/lang/Object", null);
			writer.visitEnd();
			byte[] bytes = writer.toByteArray();
			return defineClass(name, bytes, 0, bytes.length);
		}

	}

}
