package io.github.mcpsupervisor.transport.internal.stdio;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import io.github.mcpsupervisor.supervisor.McpConnector.McpConnectException.Kind;
import io.github.mcpsupervisor.transport.StdioServerDefinition;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link GenerationProcess}.
 */
class GenerationProcessTests {

	@Test
	void aSpawnFailureOfARunnableCommandIsTransient(@TempDir Path directory) {
		// e.g. EAGAIN, ENOMEM or EMFILE while the machine is short of processes or files
		assertThat(GenerationProcess.spawnFailureKind(definition("sh", null))).isEqualTo(Kind.TRANSIENT);
		assertThat(GenerationProcess.spawnFailureKind(definition("sh", directory))).isEqualTo(Kind.TRANSIENT);
	}

	@Test
	void aMissingCommandOrWorkingDirectoryIsAConfigurationError(@TempDir Path directory) {
		assertThat(GenerationProcess.spawnFailureKind(definition("/nonexistent/mcp-server", null)))
			.isEqualTo(Kind.CONFIGURATION);
		assertThat(GenerationProcess.spawnFailureKind(definition("no-such-mcp-server-on-the-path", null)))
			.isEqualTo(Kind.CONFIGURATION);
		assertThat(GenerationProcess.spawnFailureKind(definition("sh", directory.resolve("missing"))))
			.isEqualTo(Kind.CONFIGURATION);
	}

	@Test
	void aCommandThatIsNotExecutableIsAConfigurationError(@TempDir Path directory) throws Exception {
		Path script = Files.writeString(directory.resolve("server.sh"), "#!/bin/sh\n");
		assertThat(GenerationProcess.spawnFailureKind(definition(script.toString(), null)))
			.isEqualTo(Kind.CONFIGURATION);
	}

	private static StdioServerDefinition definition(String command, @Nullable Path workingDirectory) {
		return new StdioServerDefinition("s", command, List.of(), Map.of(), workingDirectory, Duration.ofSeconds(1),
				Duration.ofSeconds(1), Duration.ofSeconds(1));
	}

}
