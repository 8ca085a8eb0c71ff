package io.github.mcpsupervisor.demo;

import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BiFunction;

import io.modelcontextprotocol.json.McpJsonDefaults;
import io.modelcontextprotocol.server.McpServer;
import io.modelcontextprotocol.server.McpServerFeatures.SyncToolSpecification;
import io.modelcontextprotocol.server.McpSyncServer;
import io.modelcontextprotocol.server.McpSyncServerExchange;
import io.modelcontextprotocol.server.transport.StdioServerTransportProvider;
import io.modelcontextprotocol.spec.McpSchema.CallToolRequest;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import io.modelcontextprotocol.spec.McpSchema.ServerCapabilities;
import io.modelcontextprotocol.spec.McpSchema.TextContent;
import io.modelcontextprotocol.spec.McpSchema.Tool;
import io.modelcontextprotocol.spec.McpSchema.ToolAnnotations;

/**
 * A small stdio MCP server with tools that make supervision visible: {@code echo},
 * {@code add}, {@code crash} (replies, then exits), {@code slow}, {@code pid},
 * {@code add-tool} (registers one more tool and notifies the client),
 * {@code list-requests} (how many {@code tools/list} requests it received) and
 * misbehaviours of third-party servers ({@code freeze}, {@code garbage},
 * {@code flood-stderr}, {@code flood-stdout}, {@code spawn-helper}, {@code notify-flood},
 * {@code big-result}). {@code slow} and {@code slow-write} write {@value #CALL_STARTED}
 * and their name to stderr when a call reaches them. With the environment variable
 * {@code DEMO_EXIT_AFTER_MS} set it exits with code 1 that long after it started. It also
 * offers a few resources, one of them updated for its subscribers
 * ({@link DemoResources}), and two prompts ({@link DemoPrompts}).
 *
 * <p>
 * It exits when its standard input closes, as a stdio server should. Run it with
 * {@code java -cp <classpath> io.github.mcpsupervisor.demo.DemoMcpServer}. With
 * {@code --protocol=2026-07-28} it speaks revision 2026-07-28 instead, on the SDK's
 * modern server, and with {@code --http=<port>} it does so over stateless Streamable HTTP
 * on the loopback address ({@link ModernDemoServer}).
 */
public final class DemoMcpServer {

	/**
	 * The start of the stderr line that {@code slow} and {@code slow-write} write when a
	 * call reaches them, followed by the tool's name.
	 */
	public static final String CALL_STARTED = "call started: ";

	private static final Map<String, Object> NO_ARGUMENTS = Map.of("type", "object", "properties", Map.of());

	private DemoMcpServer() {
	}

	public static void main(String[] args) {
		// Quiet logging on stderr, whichever SLF4J provider the class path brings.
		System.setProperty("org.slf4j.simpleLogger.defaultLogLevel", "warn");
		System.setProperty("org.slf4j.simpleLogger.logFile", "System.err");
		System.setProperty("logback.configurationFile", "io/github/mcpsupervisor/demo/demo-logback.xml");
		if (ModernDemoServer.isRequested(args)) {
			ModernDemoServer.run(args);
			return;
		}
		serve(System.in);
	}

	/**
	 * Serve revision 2025-11-25 on the given input and standard output.
	 * @param in the protocol's input
	 */
	static void serve(InputStream in) {
		ToolsListCounter listings = new ToolsListCounter(in);
		ExitOnEndOfInput stdin = new ExitOnEndOfInput(listings);
		ProtocolOutput protocol = new ProtocolOutput(System.out);
		// stdout carries the protocol only: whatever logging is on the class path goes to
		// stderr
		System.setOut(System.err);
		var transport = new SerializedStdioTransportProvider(
				new StdioServerTransportProvider(McpJsonDefaults.getMapper(), stdin, protocol));
		AtomicReference<McpSyncServer> server = new AtomicReference<>();
		DemoResources resources = new DemoResources(server);
		server.set(McpServer.sync(transport)
			.serverInfo("mcp-supervisor-demo", "1.0.0")
			.capabilities(ServerCapabilities.builder().tools(true).resources(true, false).prompts(false).build())
			.tools(echo(), add(), crash(protocol), slow(), slowWrite(), pid(), addTool(server), freeze(stdin),
					garbage(protocol), floodStderr(), floodStdout(protocol), spawnHelper(), notifyFlood(server),
					listRequests(listings), bigResult())
			.resources(resources.resources())
			.resourceTemplates(resources.templates())
			.prompts(DemoPrompts.prompts())
			.build());
		exitLaterIfAsked(System.getenv("DEMO_EXIT_AFTER_MS"));
		System.err.println("demo MCP server ready, pid " + ProcessHandle.current().pid());
	}

	// Lets tests simulate a server that crashes shortly after it started.
	static void exitLaterIfAsked(String millis) {
		if (millis != null && !millis.isBlank()) {
			Thread exit = new Thread(() -> {
				pause(Long.parseLong(millis.strip()));
				System.err.println("exiting as DEMO_EXIT_AFTER_MS asks");
				Runtime.getRuntime().halt(1);
			}, "demo-exit-later");
			exit.setDaemon(true);
			exit.start();
		}
	}

	private static SyncToolSpecification echo() {
		Tool tool = Tool.builder("echo", schema(Map.of("message", Map.of("type", "string")), List.of("message")))
			.description("Echoes the given message back")
			.annotations(ToolAnnotations.builder().readOnlyHint(true).build())
			.build();
		return spec(tool, (exchange, request) -> text(String.valueOf(request.arguments().get("message"))));
	}

	private static SyncToolSpecification add() {
		Tool tool = Tool
			.builder("add",
					schema(Map.of("a", Map.of("type", "number"), "b", Map.of("type", "number")), List.of("a", "b")))
			.description("Adds two numbers")
			.annotations(ToolAnnotations.builder().readOnlyHint(true).build())
			.build();
		return spec(tool, (exchange, request) -> {
			double sum = number(request, "a") + number(request, "b");
			return text((sum == Math.rint(sum)) ? String.valueOf((long) sum) : String.valueOf(sum));
		});
	}

	private static SyncToolSpecification crash(ProtocolOutput protocol) {
		Tool tool = Tool.builder("crash", schema(Map.of("exitCode", Map.of("type", "integer")), List.of()))
			.description("Replies, then ends this server process with the given exit code (default 3)")
			.build();
		return spec(tool, (exchange, request) -> {
			int exitCode = (request.arguments().get("exitCode") instanceof Number n) ? n.intValue() : 3;
			long written = protocol.lines();
			Thread exit = new Thread(() -> {
				// the reply is written before the exit, however slow the machine: a halt
				// after a fixed pause lost it on a loaded machine
				protocol.awaitLinesAfter(written, Duration.ofSeconds(10));
				pause(200);
				Runtime.getRuntime().halt(exitCode);
			}, "demo-crash");
			exit.start();
			return text("crashing with exit code " + exitCode);
		});
	}

	private static SyncToolSpecification slow() {
		Tool tool = Tool.builder("slow", schema(Map.of("millis", Map.of("type", "integer")), List.of("millis")))
			.description("Waits the given number of milliseconds, then replies")
			.annotations(ToolAnnotations.builder().readOnlyHint(true).build())
			.build();
		return spec(tool, (exchange, request) -> {
			long millis = (long) number(request, "millis");
			markStarted("slow");
			pause(millis);
			return text("waited " + millis + " ms");
		});
	}

	private static SyncToolSpecification slowWrite() {
		Tool tool = Tool.builder("slow-write", schema(Map.of("millis", Map.of("type", "integer")), List.of("millis")))
			.description("Waits the given number of milliseconds, then replies; not read-only, not idempotent")
			.build();
		return spec(tool, (exchange, request) -> {
			long millis = (long) number(request, "millis");
			markStarted("slow-write");
			pause(millis);
			return text("wrote after " + millis + " ms");
		});
	}

	private static SyncToolSpecification freeze(ExitOnEndOfInput stdin) {
		Tool tool = Tool.builder("freeze", NO_ARGUMENTS)
			.description("Replies, then stops reading requests: the process stays alive but never answers again")
			.build();
		return spec(tool, (exchange, request) -> {
			stdin.freeze();
			return text("frozen");
		});
	}

	private static SyncToolSpecification garbage(PrintStream protocol) {
		Tool tool = Tool.builder("garbage", NO_ARGUMENTS)
			.description("Writes a line that is not JSON-RPC to stdout, then replies")
			.build();
		return spec(tool, (exchange, request) -> {
			protocol.println("this line is not JSON-RPC");
			protocol.flush();
			return text("garbage written");
		});
	}

	private static SyncToolSpecification floodStderr() {
		Tool tool = Tool
			.builder("flood-stderr", schema(Map.of("megabytes", Map.of("type", "integer")), List.of("megabytes")))
			.description("Writes the given number of megabytes to stderr as one line, then replies")
			.build();
		return spec(tool, (exchange, request) -> {
			long megabytes = (long) number(request, "megabytes");
			byte[] chunk = new byte[1024 * 1024];
			Arrays.fill(chunk, (byte) 'x');
			for (long i = 0; i < megabytes; i++) {
				System.err.write(chunk, 0, chunk.length);
			}
			System.err.println();
			System.err.println("flood done");
			return text("wrote " + megabytes + " MB to stderr");
		});
	}

	private static SyncToolSpecification floodStdout(PrintStream protocol) {
		Tool tool = Tool.builder("flood-stdout", NO_ARGUMENTS)
			.description("Writes one endless line to stdout, the protocol stream, until the process ends")
			.build();
		return spec(tool, (exchange, request) -> {
			byte[] chunk = new byte[64 * 1024];
			Arrays.fill(chunk, (byte) 'x');
			while (!protocol.checkError()) {
				protocol.write(chunk, 0, chunk.length);
			}
			return text("stdout closed");
		});
	}

	private static SyncToolSpecification spawnHelper() {
		Tool tool = Tool.builder("spawn-helper", NO_ARGUMENTS)
			.description("Starts a helper process (sleep 600) the way servers start browsers, and returns its pid")
			.build();
		return spec(tool, (exchange, request) -> {
			try {
				Process helper = new ProcessBuilder("sleep", "600").redirectErrorStream(true).start();
				return text(String.valueOf(helper.pid()));
			}
			catch (IOException ex) {
				throw new IllegalStateException("cannot start a helper", ex);
			}
		});
	}

	private static SyncToolSpecification pid() {
		Tool tool = Tool.builder("pid", NO_ARGUMENTS)
			.description("Returns the process id of this server")
			.annotations(ToolAnnotations.builder().readOnlyHint(true).build())
			.build();
		return spec(tool, (exchange, request) -> text(String.valueOf(ProcessHandle.current().pid())));
	}

	private static SyncToolSpecification addTool(AtomicReference<McpSyncServer> server) {
		Tool tool = Tool.builder("add-tool", schema(Map.of("name", Map.of("type", "string")), List.of("name")))
			.description("Registers a new tool with the given name that echoes its input (notifies the client)")
			.build();
		return spec(tool, (exchange, request) -> {
			String name = String.valueOf(request.arguments().get("name"));
			Tool added = Tool.builder(name, NO_ARGUMENTS).description("Added at run time").build();
			server.get().addTool(spec(added, (e, r) -> text(name)));
			return text("added " + name);
		});
	}

	private static SyncToolSpecification notifyFlood(AtomicReference<McpSyncServer> server) {
		Tool tool = Tool
			.builder("notify-flood", schema(Map.of("seconds", Map.of("type", "integer")), List.of("seconds")))
			.description("Sends notifications/tools/list_changed every millisecond for the given number of seconds, "
					+ "then replies with how many it sent")
			.build();
		return spec(tool, (exchange, request) -> {
			long until = System.nanoTime() + TimeUnit.SECONDS.toNanos((long) number(request, "seconds"));
			long sent = 0;
			while (System.nanoTime() < until) {
				server.get().notifyToolsListChanged();
				sent++;
				pause(1);
			}
			return text("sent " + sent + " notifications");
		});
	}

	private static SyncToolSpecification listRequests(ToolsListCounter listings) {
		Tool tool = Tool.builder("list-requests", NO_ARGUMENTS)
			.description("Returns how many tools/list requests this server has received")
			.annotations(ToolAnnotations.builder().readOnlyHint(true).build())
			.build();
		return spec(tool, (exchange, request) -> text(String.valueOf(listings.count())));
	}

	private static SyncToolSpecification bigResult() {
		Tool tool = Tool
			.builder("big-result", schema(Map.of("megabytes", Map.of("type", "integer")), List.of("megabytes")))
			.description("Returns a text of the given number of megabytes")
			.annotations(ToolAnnotations.builder().readOnlyHint(true).build())
			.build();
		return spec(tool, (exchange, request) -> text("x".repeat((int) number(request, "megabytes") * 1024 * 1024)));
	}

	// Tells whoever reads stderr that a call reached its handler.
	private static void markStarted(String tool) {
		System.err.println(CALL_STARTED + tool);
	}

	private static SyncToolSpecification spec(Tool tool,
			BiFunction<McpSyncServerExchange, CallToolRequest, CallToolResult> handler) {
		return SyncToolSpecification.builder().tool(tool).callHandler(handler).build();
	}

	private static Map<String, Object> schema(Map<String, Object> properties, List<String> required) {
		return Map.of("type", "object", "properties", properties, "required", required);
	}

	private static CallToolResult text(String text) {
		return CallToolResult.builder().content(List.of(TextContent.builder(text).build())).isError(false).build();
	}

	private static double number(CallToolRequest request, String name) {
		Object value = request.arguments().get(name);
		if (value instanceof Number n) {
			return n.doubleValue();
		}
		throw new IllegalArgumentException("argument '" + name + "' must be a number, was " + value);
	}

	static void pause(long millis) {
		try {
			Thread.sleep(millis);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}

	/**
	 * Counts the {@code tools/list} requests on standard input: the SDK's server offers
	 * no hook into its own listing.
	 */
	private static final class ToolsListCounter extends FilterInputStream {

		private static final byte[] METHOD = "\"tools/list\"".getBytes(StandardCharsets.UTF_8);

		private final AtomicLong count = new AtomicLong();

		private int matched;

		ToolsListCounter(InputStream in) {
			super(in);
		}

		long count() {
			return this.count.get();
		}

		@Override
		public int read() throws IOException {
			int b = super.read();
			if (b != -1) {
				scan((byte) b);
			}
			return b;
		}

		@Override
		public int read(byte[] b, int off, int len) throws IOException {
			int n = super.read(b, off, len);
			for (int i = 0; i < n; i++) {
				scan(b[off + i]);
			}
			return n;
		}

		// The pattern starts with a quote that occurs nowhere else in it: a mismatch
		// restarts the match at that quote.
		private void scan(byte b) {
			if (b == METHOD[this.matched]) {
				this.matched++;
				if (this.matched == METHOD.length) {
					this.count.incrementAndGet();
					this.matched = 0;
				}
			}
			else {
				this.matched = (b == METHOD[0]) ? 1 : 0;
			}
		}

	}

}
