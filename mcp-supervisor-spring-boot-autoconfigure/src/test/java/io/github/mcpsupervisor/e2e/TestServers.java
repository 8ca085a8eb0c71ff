package io.github.mcpsupervisor.e2e;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

import io.github.mcpsupervisor.demo.DemoMcpServer;
import io.github.mcpsupervisor.supervisor.CallPolicy;
import io.github.mcpsupervisor.transport.StdioServerDefinition;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The real MCP servers the end-to-end tests run: the project's demo server (this JVM's
 * java and class path) and npm's server-everything (installed by the build with npm ci).
 */
final class TestServers {

	/** Calls that fail at once during an outage instead of waiting for recovery. */
	static final CallPolicy NO_WAIT = new CallPolicy(Duration.ZERO, CallPolicy.Retry.SAFE, true, Set.of());

	private TestServers() {
	}

	static String java() {
		return Path.of(System.getProperty("java.home"), "bin", "java").toString();
	}

	static List<String> demoArgs() {
		return List.of("-cp", System.getProperty("java.class.path"), DemoMcpServer.class.getName());
	}

	/** The demo server's command line as one shell word list, for wrapping in sh -c. */
	static String demoShellCommand() {
		List<String> words = new ArrayList<>();
		words.add(java());
		words.addAll(demoArgs());
		return String.join(" ", words.stream().map((word) -> "'" + word + "'").toList());
	}

	static Path everythingScript() {
		Path script = Path.of(System.getProperty("mcp.test.npm-dir", "../test-servers"), "node_modules",
				"@modelcontextprotocol", "server-everything", "dist", "index.js");
		assertThat(script).as("npm ci must have installed server-everything").exists();
		return script;
	}

	static StdioServerDefinition demo(String name, Map<String, String> env) {
		return definition(name, java(), demoArgs(), env);
	}

	static StdioServerDefinition everything(String name) {
		return definition(name, "node", List.of(everythingScript().toString()), Map.of());
	}

	static StdioServerDefinition definition(String name, String command, List<String> args, Map<String, String> env) {
		return new StdioServerDefinition(name, command, args, env, null, Duration.ofSeconds(20), Duration.ofSeconds(20),
				Duration.ofSeconds(1));
	}

	static boolean isExecutable(String path) {
		return Files.isExecutable(Path.of(path));
	}

}
