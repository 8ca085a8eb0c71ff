package io.github.mcpsupervisor.e2e;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import io.github.mcpsupervisor.supervisor.McpServerState;
import io.github.mcpsupervisor.supervisor.McpServerStatus;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import org.springframework.ai.tool.ToolCallback;
import org.springframework.util.ClassUtils;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The application of the reference page "Supervisors without Spring Boot"
 * ({@code docs/without-boot.md}), run against the demo server: the page shows
 * {@link SupervisedTools} as it is.
 */
@Tag("boot-independent")
class WithoutBootIT {

	private static final Path PAGE = Path.of("../docs/without-boot.md");

	private static final Path EXAMPLE = Path.of("src/test/java/io/github/mcpsupervisor/e2e/SupervisedTools.java");

	private static final Pattern JAVA_BLOCK = Pattern.compile("```java\n(.*?)```", Pattern.DOTALL);

	@Test
	void theApplicationGivesTheToolsOfItsServerToSpringAiAndLeavesNoProcessBehind() {
		long pid;
		try (SupervisedTools tools = new SupervisedTools(TestServers.demo("demo", Map.of()))) {
			McpServerStatus status = tools.supervisors().supervisor("demo").status();
			assertThat(status.state()).isEqualTo(McpServerState.UP);
			ToolCallback[] callbacks = tools.toolCallbacks();
			assertThat(Arrays.stream(callbacks).map((callback) -> callback.getToolDefinition().name()))
				.contains("demo_echo", "demo_add");
			ToolCallback echo = Arrays.stream(callbacks)
				.filter((callback) -> callback.getToolDefinition().name().equals("demo_echo"))
				.findFirst()
				.orElseThrow();
			assertThat(echo.call("{\"message\":\"without Boot\"}")).contains("without Boot");
			pid = status.pid();
			assertThat(TestServers.isRunning(pid)).isTrue();
		}
		await().atMost(TestServers.PATIENCE).until(() -> !TestServers.isRunning(pid));
	}

	@Test
	void theApplicationRunsWithoutSpringBootOnItsClassPath() {
		assertThat(ClassUtils.isPresent("org.springframework.boot.SpringApplication", getClass().getClassLoader()))
			.isFalse();
	}

	@Test
	void thePageShowsTheApplicationAsItIs() throws IOException {
		Matcher block = JAVA_BLOCK.matcher(Files.readString(PAGE));
		assertThat(block.find()).as("a Java block in " + PAGE).isTrue();
		String source = Files.readString(EXAMPLE);
		assertThat(block.group(1)).isEqualTo(source.substring(source.indexOf("import ")));
	}

}
