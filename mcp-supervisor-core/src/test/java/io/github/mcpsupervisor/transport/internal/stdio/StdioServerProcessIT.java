package io.github.mcpsupervisor.transport.internal.stdio;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import io.github.mcpsupervisor.supervisor.McpServerStatus.ExitStatus;
import io.github.mcpsupervisor.transport.StdioServerDefinition;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Tests for {@link StdioServerProcess}: the termination of a server's whole process
 * group.
 */
@EnabledOnOs(OS.LINUX)
@Tag("boot-independent")
class StdioServerProcessIT {

	private static final int SLEEPERS = 300;

	@TempDir
	Path directory;

	@Test
	void anExitIsSeenWhileADescendantStillHoldsTheStdout() throws Exception {
		// no end of stdout tells of this exit: the sleeper holds the pipe open
		StdioServerDefinition definition = new StdioServerDefinition("leaving", "sh",
				List.of("-c", "sleep 600 & exit 3"), Map.of(), null, Duration.ofSeconds(5), Duration.ofSeconds(5),
				Duration.ofMillis(100));
		StdioServerProcess server = StdioServerProcess.start(definition, "leaving");
		try {
			assertThat(server.exited()).succeedsWithin(Duration.ofSeconds(30))
				.extracting(ExitStatus::exitCode)
				.isEqualTo(3);
		}
		finally {
			assertThat(server.terminate(definition.terminationGracePeriod())).isTrue();
		}
	}

	@Test
	void aMemberForkedWhileTheGroupIsKilledDiesBeforeTheTerminationIsConfirmed() throws Exception {
		// Every member ignores SIGTERM. A holds a FIFO open; B forks a new member as soon
		// as
		// A is killed and the FIFO ends, while the kill is still on its way through the
		// sleepers that started between them.
		Path fifo = this.directory.resolve("fifo");
		String script = "trap '' TERM; mkfifo '" + fifo + "'; sleep 600 > '" + fifo + "' & i=0; while [ $i -lt "
				+ SLEEPERS
				+ " ]; do sleep 600 & i=$((i+1)); done; { read x; j=0; while [ $j -lt 100 ]; do sleep 600 & j=$((j+1)); done; wait; } < '"
				+ fifo + "' & exec sleep 600";
		StdioServerDefinition definition = new StdioServerDefinition("forking", "sh", List.of("-c", script), Map.of(),
				null, Duration.ofSeconds(5), Duration.ofSeconds(5), Duration.ofMillis(100));
		StdioServerProcess server = StdioServerProcess.start(definition, "forking");
		long group = server.pid();
		try {
			await().atMost(Duration.ofSeconds(60)).until(() -> ProcessTree.group(group).size() >= SLEEPERS + 3);
			assertThat(server.terminate(definition.terminationGracePeriod())).isTrue();
			assertThat(ProcessTree.group(group)).as("members running after a termination reported complete").isEmpty();
		}
		finally {
			await().atMost(Duration.ofSeconds(60)).until(() -> {
				ProcessTree.group(group).forEach(ProcessHandle::destroyForcibly);
				return ProcessTree.group(group).isEmpty();
			});
		}
	}

}
