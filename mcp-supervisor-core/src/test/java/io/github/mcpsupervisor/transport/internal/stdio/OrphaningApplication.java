package io.github.mcpsupervisor.transport.internal.stdio;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;

import io.github.mcpsupervisor.client.internal.McpClientFactory;
import io.github.mcpsupervisor.client.internal.McpServerSession;
import io.github.mcpsupervisor.demo.ServerCommands;
import io.github.mcpsupervisor.supervisor.HealthCheckPolicy;
import io.github.mcpsupervisor.supervisor.McpServerSupervisor;
import io.github.mcpsupervisor.supervisor.ReconnectPolicy;
import io.github.mcpsupervisor.supervisor.ThreadPoolSupervisorScheduler;
import io.github.mcpsupervisor.transport.StdioServerDefinition;

/**
 * An application that starts a stdio server whose process group holds a helper, reports
 * the server's pid and runs until it is killed: what a JVM killed with SIGKILL leaves.
 */
public final class OrphaningApplication {

	private OrphaningApplication() {
	}

	/**
	 * Runs until killed.
	 * @param args the runtime directory, or {@code none} to record nothing
	 * @throws Exception if the server cannot be supervised
	 */
	public static void main(String[] args) throws Exception {
		ProcessRecords records = "none".equals(args[0]) ? ProcessRecords.none() : ProcessRecords.open(Path.of(args[0]));
		List<String> demo = new ArrayList<>(ServerCommands.demo());
		demo.addAll(1, OrphanedServersIT.FAST_START);
		String script = "sleep 600 & exec "
				+ String.join(" ", demo.stream().map(OrphaningApplication::quoted).toList());
		StdioServerDefinition server = new StdioServerDefinition("orphan", "sh", List.of("-c", script), Map.of(), null,
				Duration.ofSeconds(20), Duration.ofSeconds(20), Duration.ofSeconds(1));
		ThreadPoolSupervisorScheduler scheduler = new ThreadPoolSupervisorScheduler();
		McpServerSupervisor supervisor = McpServerSupervisor
			.builder("orphan",
					new StdioConnector(server, scheduler::execute, McpClientFactory.standard(),
							new McpServerSession("orphan", List.of()), records),
					scheduler)
			.reconnect(ReconnectPolicy.builder()
				.enabled(false)
				.initialDelay(Duration.ofMillis(100))
				.maxDelay(Duration.ofSeconds(5))
				.maxAttempts(1)
				.jitter(0)
				.build())
			.healthCheck(HealthCheckPolicy.disabled(Duration.ofSeconds(5)))
			.build();
		String state = supervisor.start().join().state().toString();
		System.out.println("pid=" + supervisor.status().pid());
		System.out.println("started=" + state);
		// lives until the test kills it with SIGKILL
		new CountDownLatch(1).await();
	}

	private static String quoted(String word) {
		return "'" + word.replace("'", "'\\''") + "'";
	}

}
