package io.github.mcpsupervisor.transport.internal;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Function;
import java.util.function.UnaryOperator;

import io.github.mcpsupervisor.client.internal.ListChanges;
import io.github.mcpsupervisor.internal.CauseChain;
import io.github.mcpsupervisor.internal.ServerText;
import io.github.mcpsupervisor.supervisor.ExitStatus;
import io.github.mcpsupervisor.supervisor.McpCapabilityException;
import io.github.mcpsupervisor.supervisor.McpConnectException;
import io.github.mcpsupervisor.supervisor.McpConnectException.Kind;
import io.github.mcpsupervisor.supervisor.McpConnection;
import io.github.mcpsupervisor.supervisor.SessionInfo;
import io.modelcontextprotocol.client.McpAsyncClient;
import io.modelcontextprotocol.spec.McpClientTransport;
import io.modelcontextprotocol.spec.McpError;
import io.modelcontextprotocol.spec.McpSchema.CallToolRequest;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import io.modelcontextprotocol.spec.McpSchema.JSONRPCResponse.JSONRPCError;
import io.modelcontextprotocol.spec.McpSchema.Tool;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;
import reactor.core.publisher.Mono;

/**
 * What every generation does with its SDK client, whatever reaches the server: calls that
 * never touch a client once the generation is lost, pings with a real timeout, a close
 * that the SDK's failures cannot escape. Transports react to failures in their own way
 * through the hooks.
 *
 * @since 0.1.0
 */
public abstract class ClientConnection implements McpConnection {

	private static final Log logger = LogFactory.getLog(ClientConnection.class);

	private static final String TOOL = "tool";

	private static final String REQUEST = "request";

	/** The error a server answers when it supports none of the client's versions. */
	private static final int UNSUPPORTED_PROTOCOL_VERSION = -32022;

	private final String server;

	private final int generation;

	/**
	 * Completes when the generation has ended; with the process exit, if there is one.
	 */
	protected final CompletableFuture<ExitStatus> lost = new CompletableFuture<>();

	protected volatile @Nullable McpAsyncClient client;

	protected volatile List<Tool> tools = List.of();

	private final Duration requestTimeout;

	private final CallTimeouts timeouts;

	private final ClientSetup setup;

	private final String defaultLossReason;

	private final AtomicReference<@Nullable String> endedBecause = new AtomicReference<>();

	private final AtomicInteger callsInFlight = new AtomicInteger();

	// the SDK's own timeout of every request of the client, once it is built
	private volatile @Nullable Duration clientTimeout;

	protected ClientConnection(String server, int generation, Duration requestTimeout, ClientSetup setup,
			String defaultLossReason) {
		this(server, generation, new CallTimeouts(requestTimeout, Map.of()), setup, defaultLossReason);
	}

	protected ClientConnection(String server, int generation, CallTimeouts timeouts, ClientSetup setup,
			String defaultLossReason) {
		this.server = server;
		this.generation = generation;
		this.requestTimeout = timeouts.requestTimeout();
		this.timeouts = timeouts;
		this.setup = setup;
		this.defaultLossReason = defaultLossReason;
	}

	/**
	 * Builds the client of this generation over its transport.
	 * @param transport the transport
	 * @param initializationTimeout the bound of the handshake
	 * @return the client, not yet initialized
	 */
	protected final McpAsyncClient createClient(McpClientTransport transport, Duration initializationTimeout) {
		ListChanges listChanges = new ListChanges(this.setup.factory(), this.setup.session(), this.requestTimeout,
				() -> !this.lost.isDone(), scoped());
		RequestCancellingTransport cancelling = new RequestCancellingTransport(transport, this.server,
				this::requestCancelled);
		this.clientTimeout = SdkClients.requestTimeout(this.timeouts.longest(), initializationTimeout);
		return SdkClients.create(this.setup, cancelling, this::redact, this.timeouts.longest(), initializationTimeout,
				(notification) -> {
					McpAsyncClient current = this.client;
					if (current != null && !this.lost.isDone()) {
						listChanges.changed(current, notification);
					}
				});
	}

	/**
	 * Masks the secrets of the server's configuration wherever a text of the server
	 * quotes them.
	 * @param text a text of the server
	 * @return the text with the secrets masked
	 */
	protected String redact(String text) {
		return text;
	}

	// A text of the server fit for a log line.
	protected final String loggable(@Nullable String text) {
		return ServerText.forLog(redact(String.valueOf(text)));
	}

	/**
	 * Describes a client that could not be built: the application's client factory or one
	 * of its customizers threw, which no new attempt changes.
	 * @param ex what was thrown
	 * @param confirmed whether the generation's process tree is confirmed gone
	 * @return the failure of the attempt
	 */
	protected static McpConnectException clientBuildFailure(RuntimeException ex, boolean confirmed) {
		String message = "building the MCP client failed: " + CauseChain.rootMessage(ex);
		if (!confirmed) {
			return new McpConnectException(Kind.NOT_CONFIRMED_DEAD, message
					+ "; its process tree could not be confirmed gone, not reconnecting so that two servers never run",
					null, ex);
		}
		return new McpConnectException(Kind.CONFIGURATION, message, null, ex);
	}

	/**
	 * Describes a refusal of initialize that says the server speaks another MCP revision
	 * only (an unsupported-version error, as a 2026-07-28 server answers it): no new
	 * attempt changes that.
	 * @param ex the failure of initialize
	 * @return the failure of the attempt, or {@code null} when the failure is another
	 */
	protected static @Nullable McpConnectException otherRevision(RuntimeException ex) {
		McpError error = CauseChain.cause(ex, McpError.class);
		JSONRPCError answered = (error != null) ? error.getJsonRpcError() : null;
		if (answered == null || answered.code() != UNSUPPORTED_PROTOCOL_VERSION) {
			return null;
		}
		Object supported = (answered.data() instanceof Map<?, ?> data) ? data.get("supported") : null;
		String revisions = (supported != null) ? String.valueOf(supported) : "another revision";
		return new McpConnectException(Kind.CONFIGURATION, "the server does not speak MCP 2025-11-25: it supports "
				+ revisions + " (set the server's protocol to auto or to the revision it speaks)", null, ex);
	}

	/**
	 * Initializes the client, asks it for log messages at the configured level, lists its
	 * tools and gives the new generation what the application asked of the server before
	 * (its resource subscriptions).
	 * @param created the client of this generation
	 */
	protected final void initialize(McpAsyncClient created) {
		created.initialize().block();
		this.setup.session().askForLogs(created, this.requestTimeout, scoped(), this::redact);
		this.tools = ToolListing.listAll(created, this.server, this.requestTimeout, this::loggable);
		this.setup.session().restore(created, this.requestTimeout, scoped());
	}

	// Puts the requests that the supervisor sends on its own in a scope: those left
	// unanswered when their timeout ends them are cancelled, as a call's are.
	private UnaryOperator<Mono<?>> scoped() {
		String reason = "timed out after " + this.requestTimeout.toMillis() + " ms";
		return (requests) -> RequestScope.scoped(requests, reason);
	}

	@Override
	public int generation() {
		return this.generation;
	}

	@Override
	public List<Tool> tools() {
		return this.tools;
	}

	@Override
	public List<Tool> listTools() {
		try {
			List<Tool> listed = ToolListing.listAll(requireClient(), this.server, this.requestTimeout, this::loggable);
			afterListing();
			return listed;
		}
		catch (RuntimeException ex) {
			callFailed(ex);
			throw ex;
		}
	}

	@Override
	public CallToolResult callTool(CallToolRequest request) {
		String tool = request.name();
		Duration timeout = this.timeouts.of(tool);
		return SdkClients.requireResult(send(TOOL, tool, timeout, (client) -> {
			Mono<CallToolResult> call = client.callTool(request);
			return (isClientTimeout(timeout)) ? call : this.timeouts.call(call, this.server, tool);
		}));
	}

	@Override
	public <T> @Nullable T request(String method, Function<McpAsyncClient, Mono<T>> request) {
		return send(REQUEST, method, this.requestTimeout, (client) -> {
			Mono<T> sent = request.apply(client);
			return (isClientTimeout(this.requestTimeout)) ? sent : this.timeouts.request(sent, this.server, method);
		});
	}

	// Whether the SDK's own timer of each request ends a request of this timeout: a
	// second timer of the same bound (a schedule and a cancel on the timer threads, for
	// every call) would add nothing, and its failure is told as that of CallTimeouts.
	private boolean isClientTimeout(Duration timeout) {
		return timeout.equals(this.clientTimeout);
	}

	// Sends a request bounded by its timeout (by the timer of CallTimeouts, on which
	// tests can run virtual time, or by the SDK's own timer when it ends at the same
	// time); its requests still unanswered when it ends are cancelled. What is sent is
	// named for the messages of its failure ("tool 'x'", "request 'y'"), built only then.
	private <T> @Nullable T send(String kind, String name, Duration timeout,
			Function<McpAsyncClient, Mono<T>> request) {
		this.callsInFlight.incrementAndGet();
		RequestScope scope = new RequestScope();
		String abandoned = "the client stopped waiting for the answer";
		try {
			return request.apply(requireClient()).contextWrite(scope).block();
		}
		catch (McpError | McpCapabilityException ex) {
			throw ex; // the server answered, or was not asked
		}
		catch (RuntimeException ex) {
			RuntimeException failure = ex;
			if (CauseChain.cause(ex, TimeoutException.class) != null || SdkClients.isBlockTimeout(ex)) {
				abandoned = CallTimeouts.reason(timeout);
				if (!CallTimeouts.isTimedOut(ex)) {
					// the SDK's own timer, which ends at the same time at the longest
					// bound
					failure = CallTimeouts.timedOut(this.server, kind + " '" + name + "'", timeout);
					failure.addSuppressed(ex);
				}
			}
			callFailed(failure);
			throw failure;
		}
		finally {
			scope.end(abandoned); // what is still unanswered is cancelled
			this.callsInFlight.decrementAndGet();
		}
	}

	@Override
	public @Nullable SessionInfo session() {
		McpAsyncClient current = this.client;
		if (current == null) {
			return null;
		}
		return new SessionInfo(current.getClientInfo(), current.getClientCapabilities(),
				current.getCurrentInitializationResult());
	}

	@Override
	public int callsInFlight() {
		return this.callsInFlight.get();
	}

	@Override
	public boolean ping(Duration timeout) {
		McpAsyncClient current = this.client;
		if (current == null || this.lost.isDone()) {
			return false;
		}
		RuntimeException failure = SdkClients.ping(current, timeout);
		if (failure != null) {
			pingFailed(failure);
		}
		return failure == null;
	}

	@Override
	public CompletableFuture<ExitStatus> onLost() {
		return this.lost;
	}

	@Override
	public String lossReason() {
		String reason = this.endedBecause.get();
		return (reason != null) ? reason : this.defaultLossReason;
	}

	/**
	 * Ends the generation for the given reason, unless it has already ended: it is lost
	 * from now on and its client is closed, so that calls in flight fail at once.
	 * @param reason why it ended, as {@link #lossReason()} tells it
	 */
	protected final void end(String reason) {
		if (!this.lost.isDone() && this.endedBecause.compareAndSet(null, reason)) {
			this.lost.complete(null);
		}
		closeClient();
	}

	/**
	 * Returns why {@link #end(String)} ended the generation.
	 * @return the reason, or {@code null} if it was not ended that way
	 */
	protected final @Nullable String endedBecause() {
		return this.endedBecause.get();
	}

	@Override
	public void closeClient() {
		McpAsyncClient current = this.client;
		try {
			if (current != null) {
				current.close();
			}
		}
		catch (RuntimeException ex) {
			// The SDK's close races with a re-initialization that a call on this dying
			// client started (NullPointerException in LifecycleInitializer).
			logger.debug("Closing the client of generation " + this.generation + " of MCP server '" + this.server
					+ "' failed", ex);
		}
		finally {
			afterClose();
		}
	}

	/**
	 * A request that its call gave up on was cancelled: the transport ends what it still
	 * holds of it.
	 * @param requestId the request's JSON-RPC id
	 */
	protected void requestCancelled(Object requestId) {
	}

	// A call or a re-listing failed other than by a server-answered error.
	protected abstract void callFailed(RuntimeException ex);

	// A ping was not answered in time.
	protected void pingFailed(RuntimeException ex) {
	}

	/** The tools were listed again. */
	protected void afterListing() {
	}

	/** The client was closed, or its close failed. */
	protected void afterClose() {
	}

	private McpAsyncClient requireClient() {
		McpAsyncClient current = this.client;
		if (current == null || this.lost.isDone()) {
			throw new IllegalStateException(
					"generation " + this.generation + " of MCP server '" + this.server + "' is not connected");
		}
		return current;
	}

}
