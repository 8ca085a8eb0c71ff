package io.github.mcpsupervisor.e2e;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import io.github.mcpsupervisor.supervisor.HealthCheckPolicy;
import io.github.mcpsupervisor.supervisor.McpServerSupervisor;
import io.github.mcpsupervisor.supervisor.ReconnectPolicy;
import io.github.mcpsupervisor.supervisor.ThreadPoolSupervisorScheduler;
import io.github.mcpsupervisor.transport.StdioServerDefinition;
import io.github.mcpsupervisor.transport.internal.stdio.StdioConnector;

/**
 * An application, run with an environment that its test chooses, that starts a stdio
 * server which writes the environment it was given to a file before it serves.
 */
public final class InheritedEnvironmentApplication {

	private InheritedEnvironmentApplication() {
	}

	/**
	 * Runs the server once.
	 * @param args the file the server writes its environment to, then the entries of
	 * inherit-env
	 * @throws Exception if the server cannot be supervised
	 */
	public static void main(String[] args) throws Exception {
		Path file = Path.of(args[0]);
		List<String> inheritEnv = List.of(args).subList(1, args.length);
		// $0 of the script is the file
		String script = "env > \"$0\"; exec " + TestServers.demoShellCommand();
		StdioServerDefinition server = new StdioServerDefinition("env", "sh", List.of("-c", script, file.toString()),
				Map.of("OWN_VARIABLE", "own"), null, Duration.ofSeconds(20), Duration.ofSeconds(20),
				Duration.ofSeconds(1), inheritEnv);
		try (ThreadPoolSupervisorScheduler scheduler = new ThreadPoolSupervisorScheduler()) {
			McpServerSupervisor supervisor = McpServerSupervisor
				.builder("env", new StdioConnector(server, scheduler::execute), scheduler)
				.reconnect(ReconnectPolicy.builder()
					.enabled(false)
					.initialDelay(Duration.ofMillis(100))
					.maxDelay(Duration.ofSeconds(5))
					.maxAttempts(1)
					.jitter(0)
					.build())
				.healthCheck(HealthCheckPolicy.disabled(Duration.ofSeconds(5)))
				.build();
			System.out.println("started=" + supervisor.start().join().state());
			supervisor.stop().get(30, TimeUnit.SECONDS);
		}
		System.exit(0);
	}

}
