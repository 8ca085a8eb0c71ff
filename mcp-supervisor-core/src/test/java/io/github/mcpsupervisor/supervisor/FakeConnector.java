package io.github.mcpsupervisor.supervisor;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.ServiceConfigurationError;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Function;

import io.github.mcpsupervisor.internal.Caller;
import io.github.mcpsupervisor.supervisor.McpConnector.McpConnectException;
import io.github.mcpsupervisor.supervisor.McpConnector.McpConnectException.Kind;
import io.github.mcpsupervisor.supervisor.McpConnector.McpConnection;
import io.github.mcpsupervisor.supervisor.McpServerStatus.ExitStatus;
import io.github.mcpsupervisor.supervisor.ToolSet.SessionInfo;
import io.modelcontextprotocol.client.McpAsyncClient;
import io.modelcontextprotocol.spec.McpSchema.CallToolRequest;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import io.modelcontextprotocol.spec.McpSchema.TextContent;
import io.modelcontextprotocol.spec.McpSchema.Tool;
import org.jspecify.annotations.Nullable;
import reactor.core.publisher.Mono;

/**
 * Fake generations that model a server process: alive from open until it is terminated (a
 * crash leaves it unconfirmed until terminate, like orphaned descendants). It records the
 * events of every generation and the most processes ever alive at once.
 */
public final class FakeConnector implements McpConnector {

	final List<FakeConnection> connections = new ArrayList<>();

	final List<String> events = new ArrayList<>();

	private final Deque<Outcome> script = new ArrayDeque<>();

	private Outcome defaultOutcome = Outcome.CONNECT;

	public List<Tool> serverTools = List.of(tool("echo"), tool("add"));

	/** The last lines each generation wrote to stderr. */
	public List<String> stderr = List.of("boom");

	/** What each generation's client and server told each other, if anything. */
	public @Nullable SessionInfo session;

	boolean terminationConfirmed = true;

	int alive;

	int maxAlive;

	int callsOnClosedClients;

	int listings;

	/** How many of the next re-listings fail. */
	int failingListings;

	/** What happens while a re-listing runs, before it fails or answers. */
	Runnable duringListing = () -> {
	};

	int pings;

	boolean answersPings = true;

	/** Whether closing a client throws, as the SDK's close can. */
	boolean closeFails;

	/** The generation and the caller of each call, as the connection saw them. */
	public final List<String> callers = new CopyOnWriteArrayList<>();

	/** Whether every generation dies under its first call. */
	boolean crashOnCalls;

	/** How many of the next creations throw, as a broken connector would. */
	int failingCreations;

	/** What the next creation throws, if anything, undeclared checked exceptions too. */
	@Nullable Throwable creationThrows;

	/** Whether pings throw instead of answering. */
	boolean pingsThrow;

	/** Calls in flight on every generation, as the connections report them. */
	int callsInFlight;

	/** Whether the server sends a message (e.g. another call's result) during a ping. */
	boolean messagesDuringPings;

	long messages;

	/** Runs once when a stderr tail is next read, under the supervisor's lock. */
	@Nullable Runnable duringStderrTail;

	/**
	 * Runs once in the next open, once its process is alive, on the worker that opens.
	 */
	@Nullable Runnable duringOpen;

	/** Runs once at the start of the next termination, on the worker that terminates. */
	@Nullable Runnable duringTermination;

	/** Runs once as the next client is closed, on the thread that closes it. */
	@Nullable Runnable duringClose;

	/** What the supervisor runs once the server's authorization exists. */
	@Nullable Runnable authorized;

	@Override
	public void whenAuthorized(Runnable authorized) {
		this.authorized = authorized;
	}

	/** Completes the server's authorization, as a person would. */
	void authorize() {
		Runnable action = this.authorized;
		if (action == null) {
			throw new IllegalStateException("no supervisor waits for the authorization");
		}
		action.run();
	}

	/** Whether the application holds a subscription on the server. */
	volatile boolean subscribed;

	/** How long the listings of the generations hold, as their server says. */
	@Nullable Duration toolsFreshFor;

	@Override
	public boolean keepsAwake() {
		return this.subscribed;
	}

	@Override
	public McpConnection create(int generation, Runnable toolsChanged) {
		if (this.failingCreations > 0) {
			this.failingCreations--;
			throw new IllegalStateException("scripted failure to create generation " + generation);
		}
		Throwable thrown = this.creationThrows;
		if (thrown != null) {
			this.creationThrows = null;
			FakeConnector.<RuntimeException>sneakyThrow(thrown);
		}
		FakeConnection connection = new FakeConnection(generation, toolsChanged);
		this.connections.add(connection);
		return connection;
	}

	FakeConnector then(Outcome... outcomes) {
		this.script.addAll(List.of(outcomes));
		return this;
	}

	public FakeConnector always(Outcome outcome) {
		this.defaultOutcome = outcome;
		return this;
	}

	public FakeConnection last() {
		return this.connections.get(this.connections.size() - 1);
	}

	public FakeConnection generation(int generation) {
		return this.connections.stream()
			.filter((connection) -> connection.generation() == generation)
			.findFirst()
			.orElseThrow();
	}

	int spawns() {
		return this.connections.size();
	}

	public static Tool tool(String name) {
		return Tool.builder(name, Map.of("type", "object")).description("the " + name + " tool").build();
	}

	public enum Outcome {

		CONNECT, FAIL, MISCONFIGURED,

		/** The server refuses the application until someone authorizes it. */
		UNAUTHORIZED,

		/** The open throws a LinkageError, leaving its process running. */
		INCOMPATIBLE,

		/**
		 * The open throws an Error that is neither a LinkageError nor the JVM's own,
		 * leaving its process running.
		 */
		ERROR,

		/** The open throws a checked exception it does not declare. */
		UNDECLARED,

		/** The open throws a VirtualMachineError, leaving its process running. */
		FATAL

	}

	@SuppressWarnings("unchecked")
	private static <T extends Throwable> void sneakyThrow(Throwable ex) throws T {
		throw (T) ex;
	}

	public final class FakeConnection implements McpConnection {

		final int generation;

		public final Runnable toolsChanged;

		final CompletableFuture<ExitStatus> lost = new CompletableFuture<>();

		boolean processAlive;

		boolean clientClosed;

		boolean terminated;

		String lossReason = "process ended";

		List<Tool> tools = List.of();

		public Function<CallToolRequest, CallToolResult> onCall;

		/** Answers a request other than a tool call, by its method. */
		public Function<String, Object> onRequest;

		FakeConnection(int generation, Runnable toolsChanged) {
			this.generation = generation;
			this.toolsChanged = toolsChanged;
			this.onRequest = (method) -> {
				if (FakeConnector.this.crashOnCalls) {
					crash(137);
					throw new IllegalStateException("MCP session with server terminated");
				}
				return method + " from g" + generation;
			};
			this.onCall = (request) -> {
				if (FakeConnector.this.crashOnCalls) {
					crash(137);
					throw new IllegalStateException("MCP session with server terminated");
				}
				return CallToolResult.builder()
					.content(List.of(TextContent.builder(request.name() + " from g" + generation).build()))
					.build();
			};
		}

		@Override
		public int generation() {
			return this.generation;
		}

		@Override
		public void open() throws McpConnectException {
			FakeConnector.this.events.add("open g" + this.generation);
			this.processAlive = true;
			FakeConnector.this.alive++;
			FakeConnector.this.maxAlive = Math.max(FakeConnector.this.maxAlive, FakeConnector.this.alive);
			Runnable during = FakeConnector.this.duringOpen;
			if (during != null) {
				FakeConnector.this.duringOpen = null;
				during.run();
			}
			Outcome outcome = FakeConnector.this.script.isEmpty() ? FakeConnector.this.defaultOutcome
					: FakeConnector.this.script.poll();
			if (outcome == Outcome.INCOMPATIBLE) {
				throw new NoSuchMethodError("io.modelcontextprotocol.modern.client.McpClient.async");
			}
			if (outcome == Outcome.ERROR) {
				throw new ServiceConfigurationError("scripted ERROR");
			}
			if (outcome == Outcome.UNDECLARED) {
				FakeConnector.<RuntimeException>sneakyThrow(new IOException("scripted UNDECLARED"));
			}
			if (outcome == Outcome.FATAL) {
				throw new StackOverflowError("scripted FATAL");
			}
			if (outcome != Outcome.CONNECT) {
				boolean confirmed = terminate();
				Kind kind = !confirmed ? Kind.NOT_CONFIRMED_DEAD : (outcome == Outcome.MISCONFIGURED)
						? Kind.CONFIGURATION : (outcome == Outcome.UNAUTHORIZED) ? Kind.AUTHORIZATION : Kind.TRANSIENT;
				throw new McpConnectException(kind, "scripted " + outcome, new ExitStatus(1, "boom"), null);
			}
			this.tools = FakeConnector.this.serverTools;
		}

		@Override
		public List<Tool> tools() {
			return this.tools;
		}

		@Override
		public @Nullable Duration toolsFreshFor() {
			return FakeConnector.this.toolsFreshFor;
		}

		@Override
		public List<Tool> listTools() {
			FakeConnector.this.listings++;
			FakeConnector.this.duringListing.run();
			if (FakeConnector.this.failingListings > 0) {
				FakeConnector.this.failingListings--;
				throw new IllegalStateException("scripted listing failure");
			}
			return FakeConnector.this.serverTools;
		}

		@Override
		public CallToolResult callTool(CallToolRequest request) {
			if (this.clientClosed) {
				FakeConnector.this.callsOnClosedClients++;
				throw new IllegalStateException("closed client called");
			}
			recordCaller();
			return this.onCall.apply(request);
		}

		@Override
		public @Nullable SessionInfo session() {
			return FakeConnector.this.session;
		}

		// The fake has no client: the request is answered by onRequest.
		@Override
		@SuppressWarnings("unchecked")
		public <T> T request(String method, Function<McpAsyncClient, Mono<T>> request) {
			if (this.clientClosed) {
				FakeConnector.this.callsOnClosedClients++;
				throw new IllegalStateException("closed client called");
			}
			recordCaller();
			return (T) this.onRequest.apply(method);
		}

		private void recordCaller() {
			Caller caller = Caller.current();
			FakeConnector.this.callers.add("g" + this.generation + " "
					+ ((caller != null) ? Objects.requireNonNullElse(caller.user(), "no user") : "supervisor"));
		}

		@Override
		public boolean ping(Duration timeout) {
			FakeConnector.this.pings++;
			if (FakeConnector.this.pingsThrow) {
				throw new IllegalStateException("scripted ping failure");
			}
			if (FakeConnector.this.messagesDuringPings) {
				FakeConnector.this.messages++;
			}
			return FakeConnector.this.answersPings && !this.lost.isDone();
		}

		/**
		 * The server process exits on its own; its tree is confirmed gone only by
		 * terminate.
		 */
		public void crash(int exitCode) {
			FakeConnector.this.events.add("crash g" + this.generation);
			this.lost.complete(new ExitStatus(exitCode, "boom"));
		}

		/**
		 * The connection ends without a process exit, as a remote server's does.
		 * @param reason why it ended
		 */
		public void disconnect(String reason) {
			FakeConnector.this.events.add("disconnect g" + this.generation);
			this.lossReason = reason;
			this.lost.complete(null);
		}

		@Override
		public String lossReason() {
			return this.lossReason;
		}

		@Override
		public long messagesReceived() {
			return FakeConnector.this.messages;
		}

		@Override
		public int callsInFlight() {
			return FakeConnector.this.callsInFlight;
		}

		@Override
		public CompletableFuture<ExitStatus> onLost() {
			return this.lost;
		}

		@Override
		public void closeClient() {
			this.clientClosed = true;
			Runnable during = FakeConnector.this.duringClose;
			if (during != null) {
				FakeConnector.this.duringClose = null;
				during.run();
			}
			if (FakeConnector.this.closeFails) {
				throw new NullPointerException("the SDK's close raced with a re-initialization");
			}
		}

		@Override
		public boolean terminate() {
			Runnable during = FakeConnector.this.duringTermination;
			if (during != null) {
				FakeConnector.this.duringTermination = null;
				during.run();
			}
			if (!this.terminated) {
				FakeConnector.this.events.add("terminate g" + this.generation);
			}
			this.terminated = true;
			if (this.processAlive && FakeConnector.this.terminationConfirmed) {
				this.processAlive = false;
				FakeConnector.this.alive--;
				this.lost.complete(new ExitStatus(137, "killed"));
			}
			return !this.processAlive;
		}

		@Override
		public @Nullable Long pid() {
			return 1000L + this.generation;
		}

		@Override
		public List<String> stderrTail() {
			Runnable during = FakeConnector.this.duringStderrTail;
			if (during != null) {
				FakeConnector.this.duringStderrTail = null;
				during.run();
			}
			return FakeConnector.this.stderr;
		}

	}

}
