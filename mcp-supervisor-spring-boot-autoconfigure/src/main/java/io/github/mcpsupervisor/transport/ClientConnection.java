package io.github.mcpsupervisor.transport;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

import io.github.mcpsupervisor.supervisor.ExitStatus;
import io.github.mcpsupervisor.supervisor.McpConnection;
import io.modelcontextprotocol.client.McpAsyncClient;
import io.modelcontextprotocol.spec.McpError;
import io.modelcontextprotocol.spec.McpSchema.CallToolRequest;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import io.modelcontextprotocol.spec.McpSchema.Tool;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

/**
 * What every generation does with its SDK client, whatever reaches the server: calls that
 * never touch a client once the generation is lost, pings with a real timeout, a close
 * that the SDK's failures cannot escape. Transports react to failures in their own way
 * through the hooks.
 */
abstract class ClientConnection implements McpConnection {

	private static final Log logger = LogFactory.getLog(ClientConnection.class);

	private final String server;

	private final int generation;

	/**
	 * Completes when the generation has ended; with the process exit, if there is one.
	 */
	protected final CompletableFuture<ExitStatus> lost = new CompletableFuture<>();

	protected volatile @Nullable McpAsyncClient client;

	protected volatile List<Tool> tools = List.of();

	private final Duration requestTimeout;

	private final String defaultLossReason;

	private final AtomicReference<@Nullable String> endedBecause = new AtomicReference<>();

	private final AtomicInteger callsInFlight = new AtomicInteger();

	ClientConnection(String server, int generation, Duration requestTimeout, String defaultLossReason) {
		this.server = server;
		this.generation = generation;
		this.requestTimeout = requestTimeout;
		this.defaultLossReason = defaultLossReason;
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
			List<Tool> listed = ToolListing.listAll(requireClient(), this.server, this.requestTimeout);
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
		this.callsInFlight.incrementAndGet();
		try {
			// block's own bound, not a timeout operator: no timer is scheduled per call
			return McpClients.requireResult(requireClient().callTool(request).block(this.requestTimeout));
		}
		catch (McpError ex) {
			throw ex; // the server answered
		}
		catch (RuntimeException ex) {
			callFailed(ex);
			throw ex;
		}
		finally {
			this.callsInFlight.decrementAndGet();
		}
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
		RuntimeException failure = McpClients.ping(current, timeout);
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
