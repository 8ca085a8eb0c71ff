package io.github.mcpsupervisor.benchmark;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import io.github.mcpsupervisor.demo.ServerCommands;
import io.github.mcpsupervisor.supervisor.McpServerSupervisor;
import io.github.mcpsupervisor.supervisor.McpServerUnavailableException;
import io.github.mcpsupervisor.transport.StdioServerDefinition;
import io.modelcontextprotocol.spec.McpSchema.CallToolRequest;

/**
 * The servers the scenarios run and what they do to them: define, call, kill, count.
 */
final class BenchmarkServers {

	private BenchmarkServers() {
	}

	static StdioServerDefinition demo(String name, Map<String, String> env) {
		return definition(name, ServerCommands.demo(), env);
	}

	/**
	 * The demo server in revision 2026-07-28 over stdio, on the SDK's modern server (a
	 * JVM, as the 2025-11-25 demo server).
	 * @param name the server's name
	 * @return its definition
	 */
	static StdioServerDefinition modernDemo(String name) {
		return definition(name, ServerCommands.modernDemo(), Map.of());
	}

	/**
	 * The TypeScript SDK v2 server of {@code test-servers} over stdio.
	 * @param name the server's name
	 * @param legacy whether it serves 2025-11-25 too; without, 2026-07-28 only
	 * @return its definition
	 */
	static StdioServerDefinition typeScript(String name, boolean legacy) {
		return definition(name, ServerCommands.modernStdio(npmDirectory(), legacy), Map.of());
	}

	static StdioServerDefinition everything() {
		return definition("everything", ServerCommands.everything(npmDirectory()), Map.of());
	}

	/**
	 * The minimal stdio server of {@code test-servers}: node, no dependencies, tens of
	 * milliseconds to start.
	 * @param name the server's name
	 * @return its definition
	 */
	static StdioServerDefinition fixture(String name) {
		Path script = npmDirectory().resolve("minimal-mcp-server.js");
		return definition(name, List.of("node", script.toString(), name), Map.of());
	}

	static Path npmDirectory() {
		return Path.of(System.getProperty("benchmark.npm-dir", "test-servers"));
	}

	static StdioServerDefinition definition(String name, List<String> command, Map<String, String> env) {
		return new StdioServerDefinition(name, command.get(0), command.subList(1, command.size()), env, null,
				Duration.ofSeconds(20), Duration.ofSeconds(20), Duration.ofSeconds(2));
	}

	static void kill(McpServerSupervisor supervisor) {
		Long pid = supervisor.status().pid();
		if (pid != null) {
			ProcessHandle.of(pid).ifPresent(ProcessHandle::destroyForcibly);
		}
	}

	static CallToolRequest request(String tool, Map<String, Object> arguments) {
		return CallToolRequest.builder(tool).arguments(arguments).build();
	}

	static void callUntilItSucceeds(McpServerSupervisor supervisor, String tool, Map<String, Object> arguments,
			Duration patience) throws InterruptedException {
		long deadline = System.nanoTime() + patience.toNanos();
		while (System.nanoTime() < deadline) {
			try {
				supervisor.callTool(request(tool, arguments));
				return;
			}
			catch (McpServerUnavailableException ex) {
				Thread.sleep(1);
			}
		}
		throw new IllegalStateException("no recovery within " + patience);
	}

	// The server processes of this JVM: every child is one (the benchmark runs nothing
	// else).
	static long demoProcesses() {
		return ProcessHandle.current().children().count();
	}

	static double millis(long nanos) {
		return nanos / 1e6;
	}

}
