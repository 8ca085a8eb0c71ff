package io.github.mcpsupervisor.demo;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The command lines of the real MCP servers that the project's tests and benchmark run:
 * the demo server on this JVM, and npm's {@code @modelcontextprotocol/server-everything}
 * as installed by {@code npm ci} in the project's {@code test-servers} directory.
 *
 * @since 0.1.0
 */
public final class ServerCommands {

	private ServerCommands() {
	}

	/**
	 * Return the java executable of this JVM.
	 * @return the path of the {@code java} executable that runs this JVM
	 */
	public static String java() {
		return Path.of(System.getProperty("java.home"), "bin", "java").toString();
	}

	/**
	 * Return the command that runs the demo server with this JVM's java and class path.
	 * @return the command and its arguments
	 */
	public static List<String> demo() {
		return List.of(java(), "-cp", System.getProperty("java.class.path"), DemoMcpServer.class.getName());
	}

	/**
	 * Return the demo server's command as one shell word list, each word single-quoted,
	 * for wrapping it in {@code sh -c}.
	 * @return the quoted command line
	 */
	public static String demoShellCommand() {
		List<String> words = new ArrayList<>();
		for (String word : demo()) {
			words.add("'" + word.replace("'", "'\\''") + "'");
		}
		return String.join(" ", words);
	}

	/**
	 * Return the entry script of npm's server-everything installed under the given npm
	 * project directory.
	 * @param npmDirectory the directory holding {@code package.json} and
	 * {@code node_modules}
	 * @return the script to run with {@code node}
	 * @throws IllegalStateException if it is not installed
	 */
	public static Path everythingScript(Path npmDirectory) {
		Path script = npmDirectory
			.resolve(Path.of("node_modules", "@modelcontextprotocol", "server-everything", "dist", "index.js"));
		if (!Files.exists(script)) {
			throw new IllegalStateException(
					"server-everything is not installed at " + script + ": run npm ci in " + npmDirectory);
		}
		return script;
	}

	/**
	 * Return the command that runs npm's server-everything over stdio.
	 * @param npmDirectory the directory holding {@code package.json} and
	 * {@code node_modules}
	 * @return the command and its arguments
	 * @throws IllegalStateException if it is not installed
	 */
	public static List<String> everything(Path npmDirectory) {
		return List.of("node", everythingScript(npmDirectory).toString());
	}

	/**
	 * Return a process builder of npm's server-everything over Streamable HTTP on a
	 * loopback port, its output discarded.
	 * @param npmDirectory the directory holding {@code package.json} and
	 * {@code node_modules}
	 * @param port the port it listens on
	 * @return the process builder, not started
	 * @throws IllegalStateException if it is not installed
	 */
	public static ProcessBuilder everythingOverHttp(Path npmDirectory, int port) {
		ProcessBuilder builder = new ProcessBuilder("node", everythingScript(npmDirectory).toString(),
				"streamableHttp");
		builder.environment().put("PORT", String.valueOf(port));
		return builder.redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD);
	}

	/**
	 * Return whether something accepts connections on a loopback port.
	 * @param port the port
	 * @return whether a connection succeeds within 200 ms
	 */
	public static boolean isListening(int port) {
		try (Socket socket = new Socket()) {
			socket.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 200);
			return true;
		}
		catch (IOException ex) {
			return false;
		}
	}

}
