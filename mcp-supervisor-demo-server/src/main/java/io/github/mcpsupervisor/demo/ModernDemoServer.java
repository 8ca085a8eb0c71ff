package io.github.mcpsupervisor.demo;

import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;

import io.modelcontextprotocol.json.McpJsonDefaults;
import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.modern.McpSchema.Implementation;
import io.modelcontextprotocol.modern.server.HmacRequestStateCodec;
import io.modelcontextprotocol.modern.server.McpServer;
import io.modelcontextprotocol.modern.server.feature.McpChangeFeed;
import io.modelcontextprotocol.modern.server.feature.PromptsFeature;
import io.modelcontextprotocol.modern.server.feature.ResourcesFeature;
import io.modelcontextprotocol.modern.server.feature.ToolsFeature;
import io.modelcontextprotocol.modern.server.transport.StdioMcpTransport;

/**
 * The demo server in revision 2026-07-28, on the SDK's modern server: over stdio with
 * {@code --protocol=2026-07-28}, over stateless Streamable HTTP on the loopback address
 * with {@code --http=<port>} (0 picks a free port; the port is written to stderr as
 * {@value ModernDemoHttp#LISTENING} followed by the number). Either way it exits when its
 * standard input closes. The stdio server answers {@code initialize} with the SDK's
 * unsupported-version error, or, with {@code --legacy=serve}, serves a client that starts
 * with it in revision 2025-11-25 ({@link DemoMcpServer}): the first message decides.
 */
final class ModernDemoServer {

	/** The argument that selects the protocol revision. */
	static final String PROTOCOL = "--protocol=";

	/** The argument that selects Streamable HTTP and its port. */
	static final String HTTP = "--http=";

	/**
	 * The argument that says what the stdio server does with {@code initialize}:
	 * {@code reject} (the default, the SDK's answer) or {@code serve}.
	 */
	static final String LEGACY = "--legacy=";

	/** The revision this server speaks. */
	static final String REVISION = "2026-07-28";

	/** The revision of the {@code initialize} handshake. */
	static final String LEGACY_REVISION = "2025-11-25";

	private ModernDemoServer() {
	}

	/**
	 * Return whether the arguments ask for the 2026-07-28 server.
	 * @param args the command line arguments
	 * @return whether to run this server rather than the 2025-11-25 one
	 * @throws IllegalArgumentException if an argument is unknown
	 */
	static boolean isRequested(String[] args) {
		boolean modern = false;
		for (String arg : args) {
			if (arg.equals(PROTOCOL + REVISION) || arg.startsWith(HTTP)) {
				modern = true;
			}
			else if ((arg.startsWith(PROTOCOL) && !arg.equals(PROTOCOL + LEGACY_REVISION))
					|| (arg.startsWith(LEGACY) && !arg.equals(LEGACY + "serve") && !arg.equals(LEGACY + "reject"))) {
				throw new IllegalArgumentException("unknown argument " + arg + "; the demo server takes " + PROTOCOL
						+ LEGACY_REVISION + " (default), " + PROTOCOL + REVISION + ", " + HTTP + "<port> and " + LEGACY
						+ "reject|serve");
			}
		}
		return modern;
	}

	static void run(String[] args) {
		Integer port = null;
		boolean serveLegacy = false;
		for (String arg : args) {
			if (arg.startsWith(HTTP)) {
				port = Integer.valueOf(arg.substring(HTTP.length()));
			}
			serveLegacy |= arg.equals(LEGACY + "serve");
		}
		McpJsonMapper jsonMapper = McpJsonDefaults.getMapper();
		if (port == null) {
			InputStream in = System.in;
			if (serveLegacy) {
				FirstMessage first = FirstMessage.read(System.in, jsonMapper);
				if (first.isLegacyInitialize()) {
					DemoMcpServer.serve(first.andRest(System.in));
					return;
				}
				in = first.andRest(System.in);
			}
			ExitOnEndOfInput stdin = new ExitOnEndOfInput(in);
			ProtocolOutput protocol = new ProtocolOutput(System.out);
			// stdout carries the protocol only
			System.setOut(System.err);
			McpServer server = server(jsonMapper, (context, exitCode) -> exitAfterReply(protocol, exitCode));
			// its Mono completes when the input ends
			new StdioMcpTransport(server, jsonMapper, stdin, protocol).start().subscribe();
			System.err.println("demo MCP server (" + REVISION + ", stdio) ready, pid " + ProcessHandle.current().pid());
		}
		else {
			ModernDemoHttp http = new ModernDemoHttp();
			McpServer server = server(jsonMapper, http::exitAfterReply);
			int actual = http.start(server, jsonMapper, port);
			System.err.println(
					"demo MCP server (" + REVISION + ", Streamable HTTP) ready, pid " + ProcessHandle.current().pid());
			System.err.println(ModernDemoHttp.LISTENING + actual);
			exitOnEndOfInput();
		}
		DemoMcpServer.exitLaterIfAsked(System.getenv("DEMO_EXIT_AFTER_MS"));
		awaitExit();
	}

	private static McpServer server(McpJsonMapper jsonMapper, ModernDemoTools.ExitAfterReply exit) {
		McpChangeFeed changes = new McpChangeFeed();
		return McpServer.builder()
			.serverInfo(Implementation.builder("mcp-supervisor-demo", "1.0.0").build())
			.jsonMapper(jsonMapper)
			.feature(ToolsFeature.ofSync(new ModernDemoTools(changes, jsonMapper, exit)))
			.feature(ResourcesFeature.ofSync(ModernDemoContent.resources()))
			.feature(PromptsFeature.ofSync(ModernDemoContent.prompts()))
			.subscriptions(changes)
			.requestStateCodec(HmacRequestStateCodec.builder().key(randomKey()).build())
			.build();
	}

	// One process, one key: the state sealed by this process is opened by it only.
	private static byte[] randomKey() {
		byte[] key = new byte[32];
		new SecureRandom().nextBytes(key);
		return key;
	}

	// The reply is written before the exit, however slow the machine.
	private static void exitAfterReply(ProtocolOutput protocol, int exitCode) {
		long written = protocol.lines();
		Thread exit = new Thread(() -> {
			protocol.awaitLinesAfter(written, Duration.ofSeconds(10));
			DemoMcpServer.pause(200);
			Runtime.getRuntime().halt(exitCode);
		}, "demo-crash");
		exit.start();
	}

	// Over HTTP stdin carries nothing, but its end still means the parent is gone.
	private static void exitOnEndOfInput() {
		PrintStream err = System.err;
		Thread watch = new Thread(() -> {
			try {
				while (System.in.read() != -1) {
					// nothing is expected on stdin
				}
			}
			catch (IOException ex) {
				err.println("stdin failed: " + ex);
			}
			Runtime.getRuntime().halt(0);
		}, "demo-stdin-watch");
		watch.setDaemon(true);
		watch.start();
	}

	private static void awaitExit() {
		try {
			new CountDownLatch(1).await();
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}

}
