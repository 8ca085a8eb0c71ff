package io.github.mcpsupervisor.transport.internal.stdio;

import java.util.List;

import io.github.mcpsupervisor.transport.internal.stdio.ProcessTree.Launch;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Tests for {@link ProcessTree}.
 */
@EnabledOnOs(OS.LINUX)
@Tag("boot-independent")
class ProcessTreeIT {

	@Test
	void launchShouldStartACommandFromThePathInItsOwnSession() {
		Launch launch = ProcessTree.launch(List.of("sh", "-c", "exit 0"), null);
		assertThat(launch.ownGroup()).isTrue();
		assertThat(launch.commandLine().get(0)).endsWith("/setsid");
		assertThat(launch.commandLine().get(1)).startsWith("/").endsWith("/sh");
		assertThat(launch.commandLine().subList(2, 4)).containsExactly("-c", "exit 0");
	}

	@Test
	void launchShouldLeaveACommandThatCannotBeFoundToTheJdksOwnError() {
		List<String> missing = List.of("/nonexistent/mcp-server", "--flag");
		assertThat(ProcessTree.launch(missing, null)).isEqualTo(new Launch(missing, false));
		List<String> notOnPath = List.of("no-such-mcp-server-on-the-path");
		assertThat(ProcessTree.launch(notOnPath, null)).isEqualTo(new Launch(notOnPath, false));
	}

	@Test
	void aStartedProcessLeadsItsOwnGroupWhichHoldsItsChildren() throws Exception {
		Launch launch = ProcessTree.launch(List.of("sh", "-c", "sleep 30 & wait"), null);
		Process process = new ProcessBuilder(launch.commandLine()).start();
		try {
			await().until(() -> ProcessTree.group(process.pid()).size() == 2);
			assertThat(ProcessTree.group(process.pid())).extracting(ProcessHandle::pid).contains(process.pid());
			assertThat(ProcessTree.isRunning(process.toHandle())).isTrue();
		}
		finally {
			ProcessTree.group(process.pid()).forEach(ProcessHandle::destroyForcibly);
			process.destroyForcibly().waitFor();
		}
	}

}
