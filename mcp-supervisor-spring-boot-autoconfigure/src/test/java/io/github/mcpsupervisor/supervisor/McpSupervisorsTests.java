package io.github.mcpsupervisor.supervisor;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;

import io.github.mcpsupervisor.supervisor.McpSupervisors.SupervisedServer;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link McpSupervisors}.
 */
class McpSupervisorsTests {

	private final VirtualScheduler scheduler = new VirtualScheduler();

	@Test
	void startWaitsForHungServersInParallelNotOneAfterAnother() {
		// the virtual scheduler never runs the first attempts: every server hangs
		List<SupervisedServer> servers = IntStream.range(0, 3)
			.mapToObj((i) -> new SupervisedServer(
					McpServerSupervisor.builder("hung" + i, new FakeConnector(), this.scheduler).build(), false, false,
					Duration.ofSeconds(1), Duration.ofSeconds(1)))
			.toList();
		McpSupervisors supervisors = new McpSupervisors(servers);
		long started = System.nanoTime();
		supervisors.start();
		long took = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started);
		assertThat(took).as("3 hung servers with a 1 s bound each, waited for in parallel").isLessThan(2500);
		assertThat(supervisors.status()).extracting(McpServerStatus::state).containsOnly(McpServerState.STARTING);
	}

}
