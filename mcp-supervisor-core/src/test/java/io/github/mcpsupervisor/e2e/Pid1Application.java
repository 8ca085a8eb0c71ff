package io.github.mcpsupervisor.e2e;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import io.github.mcpsupervisor.supervisor.HealthCheckPolicy;
import io.github.mcpsupervisor.supervisor.McpServerState;
import io.github.mcpsupervisor.supervisor.McpServerStatus;
import io.github.mcpsupervisor.supervisor.McpServerSupervisor;
import io.github.mcpsupervisor.supervisor.ReconnectPolicy;
import io.github.mcpsupervisor.supervisor.ThreadPoolSupervisorScheduler;
import io.github.mcpsupervisor.transport.StdioServerDefinition;
import io.github.mcpsupervisor.transport.internal.stdio.StdioConnector;

import static org.awaitility.Awaitility.await;

/**
 * An application that supervises a wrapper-launched server (as {@code npx} and
 * {@code uvx} launch them), kills the wrapper and reports what became of the server. Run
 * as PID 1 of a new PID namespace, it is laid out as in a container whose entrypoint is
 * {@code java -jar}: orphans are re-parented to it, and it reaps none of them.
 */
public final class Pid1Application {

	private Pid1Application() {
	}

	public static void main(String[] args) throws Exception {
		System.out.println("pid=" + ProcessHandle.current().pid());
		String script = TestServers.demoShellCommand() + "; exit $?";
		StdioServerDefinition wrapped = TestServers.definition("wrapped", "sh", List.of("-c", script), Map.of());
		try (ThreadPoolSupervisorScheduler scheduler = new ThreadPoolSupervisorScheduler()) {
			McpServerSupervisor supervisor = McpServerSupervisor
				.builder("wrapped", new StdioConnector(wrapped, scheduler::execute), scheduler)
				.reconnect(ReconnectPolicy.builder()
					.initialDelay(Duration.ofMillis(100))
					.maxDelay(Duration.ofSeconds(5))
					.maxAttempts(5)
					.jitter(0)
					.build())
				.healthCheck(HealthCheckPolicy.disabled(Duration.ofSeconds(5)))
				.build();
			System.out.println("started=" + supervisor.start().join().state());
			ProcessHandle.of(supervisor.status().pid()).orElseThrow().destroyForcibly();
			await().atMost(TestServers.PATIENCE).until(() -> {
				McpServerStatus status = supervisor.status();
				return status.state() == McpServerState.FAILED
						|| (status.state() == McpServerState.UP && status.generation() == 2);
			});
			McpServerStatus status = supervisor.status();
			System.out.println("state=" + status.state() + " generation=" + status.generation() + " lastError="
					+ status.lastError());
			supervisor.stop().get(30, TimeUnit.SECONDS);
		}
		System.exit(0);
	}

}
