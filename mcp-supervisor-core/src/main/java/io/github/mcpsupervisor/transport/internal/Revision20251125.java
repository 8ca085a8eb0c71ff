package io.github.mcpsupervisor.transport.internal;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeoutException;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.UnaryOperator;

import io.github.mcpsupervisor.client.internal.ListChanges;
import io.github.mcpsupervisor.internal.Caller;
import io.github.mcpsupervisor.internal.CauseChain;
import io.github.mcpsupervisor.supervisor.McpCapabilityException;
import io.github.mcpsupervisor.supervisor.McpConnector.McpServerRequests;
import io.github.mcpsupervisor.supervisor.ToolSet.SessionInfo;
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
import reactor.util.context.Context;

/**
 * The client of one generation in MCP revision 2025-11-25, over the SDK's
 * {@link McpAsyncClient}: a session opened with {@code initialize}, requests bounded by
 * their own timeouts and cancelled when their caller stops waiting, pings with a real
 * timeout, and a close that the SDK's failures cannot escape.
 *
 * @since 0.1.0
 */
public final class Revision20251125 implements RevisionClient {

	private static final Log logger = LogFactory.getLog(Revision20251125.class);

	private static final String TOOL = "tool";

	private static final String REQUEST = "request";

	/** The error a server answers when it supports none of the client's versions. */
	private static final int UNSUPPORTED_PROTOCOL_VERSION = -32022;

	private final GenerationLife life;

	private final ClientSetup setup;

	private final Duration requestTimeout;

	private volatile @Nullable McpAsyncClient client;

	private volatile List<Tool> tools = List.of();

	// what a failed request other than a call is told as
	private volatile UnaryOperator<RuntimeException> requestFailure = UnaryOperator.identity();

	// the SDK's own timeout of every request of the client, once it is built
	private volatile @Nullable Duration clientTimeout;

	/**
	 * Creates the client of a generation, not yet connected.
	 * @param life the generation's life
	 * @param setup how the server's generations build their clients
	 */
	public Revision20251125(GenerationLife life, ClientSetup setup) {
		this.life = life;
		this.setup = setup;
		this.requestTimeout = setup.timeouts().requestTimeout();
	}

	/**
	 * Builds the client of the generation over the transport that its carrier's binding
	 * built; the application's client factory and customizers run here.
	 * @param transport the transport
	 * @param requestCancelled told the JSON-RPC id of a request that its call gave up on,
	 * so that the transport ends what it still holds of it
	 * @param requestFailure what a failed request other than a call is told as (an answer
	 * the transport could not read, as the server's error)
	 */
	public void connect(McpClientTransport transport, Consumer<Object> requestCancelled,
			UnaryOperator<RuntimeException> requestFailure) {
		this.requestFailure = requestFailure;
		ListChanges listChanges = new ListChanges(this.setup.factory(), this.setup.session(), this.requestTimeout,
				() -> !this.life.isLost(), scoped());
		RequestCancellingTransport cancelling = new RequestCancellingTransport(transport, this.life.server(),
				requestCancelled);
		this.clientTimeout = SdkClients.requestTimeout(this.setup.timeouts().longest(),
				this.setup.initializationTimeout());
		this.client = SdkClients.create(this.setup, cancelling, this.life::redact, this.setup.timeouts().longest(),
				this.setup.initializationTimeout(), (notification) -> {
					McpAsyncClient current = this.client;
					if (current != null && !this.life.isLost()) {
						listChanges.changed(current, notification);
					}
				});
	}

	@Override
	public String revision() {
		return Revisions.V2025_11_25;
	}

	@Override
	public String handshake() {
		return "initialize";
	}

	/**
	 * Initializes the client, asks it for log messages at the configured level, lists its
	 * tools and gives the new generation what the application asked of the server before
	 * (its resource subscriptions).
	 */
	@Override
	public void open(Consumer<Throwable> streamFailed) {
		McpAsyncClient created = this.life.require(this.client);
		created.initialize().block();
		this.setup.session().askForLogs(created, this.requestTimeout, scoped(), this.life::redact);
		this.tools = ToolListing.listAll(created, this.life.server(), this.requestTimeout, this.life::loggable);
		this.setup.session().restore(created, this.requestTimeout, scoped());
	}

	// Puts the requests that the supervisor sends on its own in a scope: those left
	// unanswered when their timeout ends them are cancelled, as a call's are.
	private UnaryOperator<Mono<?>> scoped() {
		String reason = "timed out after " + this.requestTimeout.toMillis() + " ms";
		return (requests) -> RequestScope.scoped(requests, reason);
	}

	@Override
	public List<Tool> tools() {
		return this.tools;
	}

	@Override
	public List<Tool> listTools() {
		return ToolListing.listAll(this.life.require(this.client), this.life.server(), this.requestTimeout,
				this.life::loggable);
	}

	@Override
	public CallToolResult callTool(CallToolRequest request) {
		String tool = request.name();
		Duration timeout = this.setup.timeouts().of(tool);
		return SdkClients.requireResult(send(TOOL, tool, timeout, (client) -> {
			Mono<CallToolResult> call = client.callTool(request);
			return (isClientTimeout(timeout)) ? call : this.setup.timeouts().call(call, this.life.server(), tool);
		}));
	}

	@Override
	public <T> @Nullable T request(String method, Function<McpAsyncClient, Mono<T>> request) {
		try {
			return send(REQUEST, method, this.requestTimeout, (client) -> {
				Mono<T> sent = request.apply(client);
				return (isClientTimeout(this.requestTimeout)) ? sent
						: this.setup.timeouts().request(sent, this.life.server(), method);
			});
		}
		catch (McpError | McpCapabilityException ex) {
			throw ex;
		}
		catch (RuntimeException ex) {
			throw this.requestFailure.apply(ex);
		}
	}

	@Override
	public <T> @Nullable T send(String method, Function<McpServerRequests, Mono<T>> request) {
		return request(method, (client) -> request.apply(McpServerRequests.of(client)));
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
		RequestScope scope = new RequestScope();
		String abandoned = "the client stopped waiting for the answer";
		Function<Context, Context> caller = Caller.carried();
		try {
			return request.apply(this.life.require(this.client)).contextWrite(scope).contextWrite(caller).block();
		}
		catch (McpError | McpCapabilityException ex) {
			throw ex; // the server answered, or was not asked
		}
		catch (RuntimeException ex) {
			if (CauseChain.cause(ex, TimeoutException.class) != null || SdkClients.isBlockTimeout(ex)) {
				abandoned = CallTimeouts.reason(timeout);
				if (!CallTimeouts.isTimedOut(ex)) {
					// the SDK's own timer, which ends at the same time at the longest
					// bound
					RuntimeException failure = CallTimeouts.timedOut(this.life.server(), kind + " '" + name + "'",
							timeout);
					failure.addSuppressed(ex);
					throw failure;
				}
			}
			throw ex;
		}
		finally {
			scope.end(abandoned); // what is still unanswered is cancelled
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
	public @Nullable RuntimeException ping(Duration timeout) {
		McpAsyncClient current = this.client;
		if (current == null) {
			return new IllegalStateException("generation " + this.life.number() + " of MCP server '"
					+ this.life.server() + "' is not connected");
		}
		return SdkClients.ping(current, timeout);
	}

	@Override
	public void close() {
		McpAsyncClient current = this.client;
		try {
			if (current != null) {
				current.close();
			}
		}
		catch (RuntimeException ex) {
			// The SDK's close races with a re-initialization that a call on this dying
			// client started (NullPointerException in LifecycleInitializer).
			logger.debug("Closing the client of generation " + this.life.number() + " of MCP server '"
					+ this.life.server() + "' failed", ex);
		}
	}

	/**
	 * Reads a refusal of initialize that says the server speaks another MCP revision only
	 * (an unsupported-version error, as a 2026-07-28 server answers it).
	 */
	@Override
	public @Nullable Refusal refusal(RuntimeException ex) {
		McpError error = CauseChain.cause(ex, McpError.class);
		JSONRPCError answered = (error != null) ? error.getJsonRpcError() : null;
		if (answered == null || answered.code() != UNSUPPORTED_PROTOCOL_VERSION) {
			return null;
		}
		Object supported = (answered.data() instanceof Map<?, ?> data) ? data.get("supported") : null;
		String revisions = (supported != null) ? String.valueOf(supported) : "another revision";
		return new Refusal("the server does not speak MCP " + Revisions.V2025_11_25 + ": it supports " + revisions
				+ " (set the server's protocol to auto or to the revision it speaks)");
	}

}
