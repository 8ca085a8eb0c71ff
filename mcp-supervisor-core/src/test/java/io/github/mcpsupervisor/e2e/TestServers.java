package io.github.mcpsupervisor.e2e;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import io.github.mcpsupervisor.demo.DemoMcpServer;
import io.github.mcpsupervisor.demo.ServerCommands;
import io.github.mcpsupervisor.supervisor.CallPolicy;
import io.github.mcpsupervisor.transport.StdioServerDefinition;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import io.modelcontextprotocol.spec.McpSchema.TextContent;

/**
 * The end-to-end tests' shared fixture: the real MCP servers they run (the project's demo
 * server on this JVM's java and class path, and npm's server-everything installed by the
 * build with npm ci) and the helpers they all use.
 */
final class TestServers {

	/** How long an end-to-end step may take on a loaded machine before it fails. */
	static final Duration PATIENCE = Duration.ofSeconds(60);

	/** Calls that fail at once during an outage instead of waiting for recovery. */
	static final CallPolicy NO_WAIT = CallPolicy.builder()
		.waitForRecovery(Duration.ZERO)
		.retry(CallPolicy.Retry.SAFE)
		.build();

	private TestServers() {
	}

	static String java() {
		return ServerCommands.java();
	}

	/**
	 * The arguments of {@link #java()} that run a server class of this JVM's class path:
	 * the server's JVM starts faster with the client compiler alone and the serial
	 * collector, and no test measures a server's peak speed.
	 * @param main the server's main class
	 * @param args its arguments
	 * @return the arguments
	 */
	static List<String> javaServerArgs(Class<?> main, String... args) {
		List<String> command = new ArrayList<>(List.of("-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-cp",
				System.getProperty("java.class.path"), main.getName()));
		command.addAll(List.of(args));
		return List.copyOf(command);
	}

	/** The command that runs the demo server, {@link #javaServerArgs} its arguments. */
	static List<String> demoCommand() {
		List<String> command = new ArrayList<>();
		command.add(java());
		command.addAll(javaServerArgs(DemoMcpServer.class));
		return List.copyOf(command);
	}

	/** The demo server's command, each word single-quoted, for wrapping it in sh -c. */
	static String demoShellCommand() {
		return shellCommand(demoCommand());
	}

	private static String shellCommand(List<String> command) {
		List<String> words = new ArrayList<>();
		for (String word : command) {
			words.add("'" + word.replace("'", "'\\''") + "'");
		}
		return String.join(" ", words);
	}

	static Path everythingScript() {
		return ServerCommands.everythingScript(npmDirectory());
	}

	/** Where the build installed the npm servers. */
	static Path npmDirectory() {
		return Path.of(System.getProperty("mcpsupervisor.test.npm-dir", "../test-servers"));
	}

	/**
	 * Returns the demo server as the properties of {@code mcp.servers.<name>}, each of
	 * its arguments a property of its own, as an application configures it.
	 * @param name the server's name
	 * @return the properties
	 */
	static String[] demoProperties(String name) {
		StdioServerDefinition demo = demo(name, Map.of());
		List<String> properties = new ArrayList<>();
		properties.add("mcp.servers." + name + ".command=" + demo.command());
		for (int i = 0; i < demo.args().size(); i++) {
			properties.add("mcp.servers." + name + ".args[" + i + "]=" + demo.args().get(i));
		}
		return properties.toArray(String[]::new);
	}

	static StdioServerDefinition demo(String name, Map<String, String> env) {
		List<String> command = demoCommand();
		return definition(name, command.get(0), command.subList(1, command.size()), env);
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

	/** The text of a result's first content, which the demo server's tools all return. */
	static String text(CallToolResult result) {
		return ((TextContent) result.content().get(0)).text();
	}

	static long millis(long nanos) {
		return TimeUnit.NANOSECONDS.toMillis(nanos);
	}

	/**
	 * Returns whether the process runs: alive and, where {@code /proc} tells, not a
	 * zombie waiting to be reaped by a parent that does not reap.
	 */
	static boolean isRunning(long pid) {
		if (ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false)) {
			try {
				String stat = Files.readString(Path.of("/proc", Long.toString(pid), "stat"));
				return stat.charAt(stat.lastIndexOf(')') + 2) != 'Z';
			}
			catch (IOException | RuntimeException ex) {
				return !Files.isDirectory(Path.of("/proc", Long.toString(pid)));
			}
		}
		return false;
	}

	static long micros(long nanos) {
		return TimeUnit.NANOSECONDS.toMicros(nanos);
	}

}
