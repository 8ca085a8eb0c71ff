package io.github.mcpsupervisor.e2e;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import io.github.mcpsupervisor.connector.McpConnectors;
import io.github.mcpsupervisor.supervisor.McpServerSupervisor;
import io.github.mcpsupervisor.supervisor.McpSupervisors;
import io.github.mcpsupervisor.supervisor.McpSupervisors.SupervisedServer;
import io.github.mcpsupervisor.supervisor.ThreadPoolSupervisorScheduler;
import io.github.mcpsupervisor.tool.McpSupervisorToolCallbackProvider;
import io.github.mcpsupervisor.transport.StdioServerDefinition;

import org.springframework.ai.tool.ToolCallback;

/**
 * Supervises one stdio MCP server and gives its tools to Spring AI, without Spring Boot.
 */
public final class SupervisedTools implements AutoCloseable {

	// the timers and workers of the supervisors: daemon threads, ended by close()
	private final ThreadPoolSupervisorScheduler scheduler = new ThreadPoolSupervisorScheduler();

	private final McpSupervisors supervisors;

	private final McpSupervisorToolCallbackProvider tools;

	// npm's server-everything, started by npx, which the application supervises
	public static void main(String[] args) {
		StdioServerDefinition everything = new StdioServerDefinition("everything", "npx",
				List.of("-y", "@modelcontextprotocol/server-everything"), Map.of(), null, Duration.ofSeconds(30),
				Duration.ofSeconds(60), Duration.ofSeconds(5));
		try (SupervisedTools tools = new SupervisedTools(everything)) {
			for (ToolCallback tool : tools.toolCallbacks()) {
				System.out.println(tool.getToolDefinition().name() + ": " + tool.getToolDefinition().description());
			}
		}
	}

	SupervisedTools(StdioServerDefinition server) {
		McpServerSupervisor supervisor = McpServerSupervisor
			.builder(server.name(), McpConnectors.stdio(server, this.scheduler), this.scheduler)
			.build();
		// required, and failing the start if its first attempt fails; 30 s for that
		// attempt, 10 s for the server to be gone at the stop
		this.supervisors = new McpSupervisors(
				List.of(new SupervisedServer(supervisor, true, true, Duration.ofSeconds(30), Duration.ofSeconds(10))));
		this.tools = new McpSupervisorToolCallbackProvider(this.supervisors);
		try {
			this.supervisors.start();
			// checks the names of the tools the server listed: <server>_<tool>
			this.tools.start();
		}
		catch (RuntimeException ex) {
			close();
			throw ex;
		}
	}

	/**
	 * Returns the tools of the servers as they are now, for a chat client's
	 * {@code toolCallbacks(…)}: ask again for each request.
	 * @return the tools
	 */
	ToolCallback[] toolCallbacks() {
		return this.tools.getToolCallbacks();
	}

	/**
	 * Returns the servers: their status, and resets and restarts.
	 * @return the supervisors
	 */
	McpSupervisors supervisors() {
		return this.supervisors;
	}

	@Override
	public void close() {
		this.tools.stop();
		// every process tree terminated, bounded by the stop timeouts
		this.supervisors.stop();
		this.scheduler.close();
	}

}
