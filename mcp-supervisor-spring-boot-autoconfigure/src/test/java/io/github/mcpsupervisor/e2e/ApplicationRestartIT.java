package io.github.mcpsupervisor.e2e;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import io.github.mcpsupervisor.autoconfigure.McpSupervisorAutoConfiguration;
import io.github.mcpsupervisor.supervisor.McpServerState;
import io.github.mcpsupervisor.supervisor.McpServerStatus;
import io.github.mcpsupervisor.supervisor.McpSupervisors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * What an application keeps in its runtime directory for its next start: a stdio server
 * of {@code protocol: auto} found to speak 2025-11-25 is connected at the next start with
 * {@code initialize} at once, one process, without the probe's.
 */
class ApplicationRestartIT {

	@TempDir
	Path directory;

	@AfterEach
	void noChildIsLeftAfterTheContextCloses() {
		await().atMost(TestServers.PATIENCE).until(() -> ProcessHandle.current().children().findAny().isEmpty());
	}

	@Test
	void aSecondStartConnectsAKnown2025ServerWithASingleProcess() throws IOException {
		Path log = this.directory.resolve("starts.log");
		Path script = TestServers.npmDirectory().resolve("minimal-mcp-server.js").toAbsolutePath();
		ApplicationContextRunner application = new ApplicationContextRunner()
			.withConfiguration(AutoConfigurations.of(McpSupervisorAutoConfiguration.class))
			.withPropertyValues("mcp.runtime-directory=" + this.directory.resolve("runtime"),
					"mcp.servers.known.command=node", "mcp.servers.known.args[0]=" + script,
					"mcp.servers.known.env[MCP_START_LOG]=" + log, "mcp.servers.known.protocol=auto");
		application.run((context) -> assertThat(status(context.getBean(McpSupervisors.class)))
			.satisfies((status) -> assertThat(status.protocol()).isEqualTo("2025-11-25")));
		assertThat(starts(log)).as("the probe's process and the server's").isEqualTo(2);
		application.run((context) -> assertThat(status(context.getBean(McpSupervisors.class)))
			.satisfies((status) -> assertThat(status.protocol()).isEqualTo("2025-11-25")));
		assertThat(starts(log)).as("the second start's only process").isEqualTo(3);
	}

	private static McpServerStatus status(McpSupervisors supervisors) {
		McpServerStatus status = supervisors.supervisor("known").status();
		assertThat(status.state()).isEqualTo(McpServerState.UP);
		return status;
	}

	private static long starts(Path log) throws IOException {
		List<String> lines = Files.readAllLines(log);
		return lines.stream().filter((line) -> line.startsWith("start ")).count();
	}

}
