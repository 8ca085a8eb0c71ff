package io.github.mcpsupervisor.demo;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The command lines of the real MCP servers that the project's tests and benchmark run:
 * the demo server on this JVM, npm's {@code @modelcontextprotocol/server-everything}, and
 * the TypeScript SDK v2 servers of the project's {@code test-servers} directory, whose
 * npm packages {@code npm ci} installs there.
 *
 * @since 0.1.0
 */
public final class ServerCommands {

	private static final Pattern LISTENING = Pattern.compile("listening on (\\d+)");

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
	 * Return the command that runs the demo server in revision 2026-07-28 over stdio, on
	 * the SDK's modern server, with this JVM's java and class path. It answers
	 * {@code initialize} with the SDK's error -32022 (unsupported protocol version).
	 * @return the command and its arguments
	 */
	public static List<String> modernDemo() {
		List<String> command = new ArrayList<>(demo());
		command.add(ModernDemoServer.PROTOCOL + ModernDemoServer.REVISION);
		return List.copyOf(command);
	}

	/**
	 * Return the command that runs the demo server in both revisions over stdio: a client
	 * that starts with {@code initialize} is served in 2025-11-25, any other in
	 * 2026-07-28.
	 * @return the command and its arguments
	 */
	public static List<String> dualDemo() {
		List<String> command = new ArrayList<>(modernDemo());
		command.add(ModernDemoServer.LEGACY + "serve");
		return List.copyOf(command);
	}

	/**
	 * Return a process builder of the demo server in revision 2026-07-28 over stateless
	 * Streamable HTTP on a loopback port, its stderr merged into its stdout. Read the
	 * port with {@link #awaitHttpPort(Process, Duration)}, which drains the output, or
	 * redirect the output when the port is fixed. The server exits when its standard
	 * input closes.
	 * @param port the port it listens on, 0 for a free one
	 * @return the process builder, not started
	 */
	public static ProcessBuilder modernDemoOverHttp(int port) {
		List<String> command = new ArrayList<>(demo());
		command.add(ModernDemoServer.HTTP + port);
		return new ProcessBuilder(command).redirectErrorStream(true);
	}

	/**
	 * Return the URL of the MCP endpoint of a demo server over HTTP.
	 * @param port the port it listens on
	 * @return the URL
	 */
	public static String modernDemoUrl(int port) {
		return "http://127.0.0.1:" + port + ModernDemoHttp.ENDPOINT;
	}

	/**
	 * Wait until a demo server started from {@link #modernDemoOverHttp(int)} says which
	 * port it listens on, and return it; its further output is read and dropped.
	 * @param process the started process
	 * @param timeout how long to wait
	 * @return the port
	 * @throws IllegalStateException if the process ends or the time runs out before
	 */
	public static int awaitHttpPort(Process process, Duration timeout) {
		CompletableFuture<Integer> port = new CompletableFuture<>();
		// appended by the reader, read here
		StringBuffer seen = new StringBuffer();
		Thread reader = new Thread(() -> {
			try (BufferedReader lines = new BufferedReader(
					new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
				String line;
				while ((line = lines.readLine()) != null) {
					if (!port.isDone()) {
						seen.append(line).append('\n');
						if (line.startsWith(ModernDemoHttp.LISTENING)) {
							port.complete(Integer.valueOf(line.substring(ModernDemoHttp.LISTENING.length()).strip()));
						}
					}
				}
			}
			catch (IOException ex) {
				port.completeExceptionally(ex);
			}
			port.completeExceptionally(new IllegalStateException("the demo server ended before it listened"));
		}, "demo-http-output");
		reader.setDaemon(true);
		reader.start();
		try {
			return port.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
		}
		catch (ExecutionException | TimeoutException ex) {
			throw new IllegalStateException("the demo server gave no port within " + timeout + "; its output:\n" + seen,
					ex);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException("interrupted", ex);
		}
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

	/**
	 * Return a script of the TypeScript SDK v2 test servers in the npm project directory.
	 * @param npmDirectory the directory holding {@code package.json}, the scripts and
	 * {@code node_modules}
	 * @param name the script's file name, {@code modern-stdio-server.mjs} or
	 * {@code modern-http-server.mjs}
	 * @return the script to run with {@code node}
	 * @throws IllegalStateException if the script or the SDK is not installed
	 */
	public static Path modernScript(Path npmDirectory, String name) {
		Path script = npmDirectory.resolve(name);
		Path sdk = npmDirectory.resolve(Path.of("node_modules", "@modelcontextprotocol", "server", "package.json"));
		if (!Files.exists(script) || !Files.exists(sdk)) {
			throw new IllegalStateException("The TypeScript SDK v2 server " + script
					+ " or its SDK is not installed: run npm ci in " + npmDirectory);
		}
		return script;
	}

	/**
	 * Return the command that runs the TypeScript SDK v2 test server over stdio.
	 * @param npmDirectory the directory holding {@code package.json}, the scripts and
	 * {@code node_modules}
	 * @param legacy whether it also serves 2025-11-25 ({@code initialize}); without, it
	 * serves 2026-07-28 only and answers {@code initialize} with "Unsupported protocol
	 * version"
	 * @return the command and its arguments
	 * @throws IllegalStateException if it is not installed
	 */
	public static List<String> modernStdio(Path npmDirectory, boolean legacy) {
		return List.of("node", modernScript(npmDirectory, "modern-stdio-server.mjs").toString(),
				legacy ? "--legacy=serve" : "--legacy=reject");
	}

	/**
	 * Return a process builder of the TypeScript SDK v2 test server over stateless
	 * Streamable HTTP at {@code http://127.0.0.1:<port>/mcp}. Its stdout is discarded and
	 * its stderr piped for {@link #listeningPort(Process, Duration)}; it exits when its
	 * stdin closes, so that it never outlives the process that started it.
	 * @param npmDirectory the directory holding {@code package.json}, the scripts and
	 * {@code node_modules}
	 * @param port the port it listens on, or 0 for one the system picks
	 * @param legacy whether it also serves 2025-11-25 statelessly; without, it serves
	 * 2026-07-28 only
	 * @return the process builder, not started
	 * @throws IllegalStateException if it is not installed
	 */
	public static ProcessBuilder modernOverHttp(Path npmDirectory, int port, boolean legacy) {
		ProcessBuilder builder = new ProcessBuilder("node",
				modernScript(npmDirectory, "modern-http-server.mjs").toString(), String.valueOf(port),
				legacy ? "--legacy=stateless" : "--legacy=reject");
		return builder.redirectOutput(ProcessBuilder.Redirect.DISCARD);
	}

	/**
	 * Wait until a server started from {@link #modernOverHttp(Path, int, boolean)}
	 * accepts connections and return its port. Its stderr is read to the end on a daemon
	 * thread, so that the server never blocks on a full pipe.
	 * @param process the started server
	 * @param timeout how long to wait
	 * @return the port it listens on
	 * @throws TimeoutException if it does not listen within the timeout
	 * @throws IllegalStateException if it exits before it listens
	 * @throws InterruptedException if the thread is interrupted while waiting
	 */
	public static int listeningPort(Process process, Duration timeout) throws TimeoutException, InterruptedException {
		CompletableFuture<Integer> port = new CompletableFuture<>();
		Thread reader = new Thread(() -> {
			StringBuilder output = new StringBuilder();
			try (BufferedReader lines = process.errorReader(StandardCharsets.UTF_8)) {
				for (String line = lines.readLine(); line != null; line = lines.readLine()) {
					Matcher listening = LISTENING.matcher(line);
					if (listening.matches()) {
						port.complete(Integer.parseInt(listening.group(1)));
					}
					else if (!port.isDone()) {
						output.append(line).append('\n');
					}
				}
			}
			catch (IOException ex) {
				port.completeExceptionally(new UncheckedIOException(ex));
			}
			port.completeExceptionally(new IllegalStateException("The server exited before it listened: " + output));
		}, "mcp-server-stderr-" + process.pid());
		reader.setDaemon(true);
		reader.start();
		try {
			return port.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
		}
		catch (ExecutionException ex) {
			throw (ex.getCause() instanceof RuntimeException runtime) ? runtime : new IllegalStateException(ex);
		}
	}

}
