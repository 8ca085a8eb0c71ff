package io.github.mcpsupervisor.transport.internal;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import java.util.function.Supplier;

import io.github.mcpsupervisor.supervisor.McpCapabilityException;
import io.github.mcpsupervisor.supervisor.McpConnector.McpConnectException;
import io.github.mcpsupervisor.supervisor.McpConnector.McpConnection;
import io.github.mcpsupervisor.supervisor.McpConnector.McpServerRequests;
import io.github.mcpsupervisor.supervisor.McpServerStatus.ExitStatus;
import io.github.mcpsupervisor.supervisor.ToolSet.SessionInfo;
import io.modelcontextprotocol.client.McpAsyncClient;
import io.modelcontextprotocol.spec.McpError;
import io.modelcontextprotocol.spec.McpSchema.CallToolRequest;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import io.modelcontextprotocol.spec.McpSchema.Tool;
import org.jspecify.annotations.Nullable;
import reactor.core.publisher.Mono;

/**
 * The connection of one generation, whatever revision it speaks and however it reaches
 * its server: its calls counted while they are in flight, a failure that is not the
 * server's answer told to its carrier, and its client closed before its carrier's way to
 * the server.
 *
 * @since 0.1.0
 */
public final class GenerationConnection implements McpConnection {

	private final GenerationLife life;

	private final Carrier carrier;

	private final RevisionClient client;

	private final AtomicInteger callsInFlight = new AtomicInteger();

	/**
	 * Creates the connection of a generation, not yet opened.
	 * @param life the generation's life, shared with its carrier and its client
	 * @param carrier how the generation reaches its server
	 * @param client the client of the revision the generation speaks
	 */
	public GenerationConnection(GenerationLife life, Carrier carrier, RevisionClient client) {
		this.life = life;
		this.carrier = carrier;
		this.client = client;
		life.closeClientWith(this::closeClient);
	}

	@Override
	public int generation() {
		return this.life.number();
	}

	@Override
	public void open() throws McpConnectException {
		this.carrier.open();
	}

	@Override
	public List<Tool> tools() {
		return this.client.tools();
	}

	@Override
	public @Nullable Duration toolsFreshFor() {
		return this.client.toolsFreshFor();
	}

	@Override
	public List<Tool> listTools() {
		try {
			List<Tool> listed = this.client.listTools();
			this.carrier.listed();
			return listed;
		}
		catch (RuntimeException ex) {
			throw this.carrier.callFailed(ex);
		}
	}

	@Override
	public CallToolResult callTool(CallToolRequest request) {
		return inFlight(() -> this.client.callTool(request));
	}

	@Override
	public <T> @Nullable T request(String method, Function<McpAsyncClient, Mono<T>> request) {
		return inFlight(() -> this.client.request(method, request));
	}

	@Override
	public <T> @Nullable T send(String method, Function<McpServerRequests, Mono<T>> request) {
		return inFlight(() -> this.client.send(method, request));
	}

	// A call is counted while it runs: an unanswered ping is no evidence of death on a
	// server busy with it.
	private <T> T inFlight(Supplier<T> call) {
		this.callsInFlight.incrementAndGet();
		try {
			return call.get();
		}
		catch (McpError | McpCapabilityException | UnsupportedOperationException ex) {
			throw ex; // the server answered, or was not asked
		}
		catch (RuntimeException ex) {
			throw this.carrier.callFailed(ex);
		}
		finally {
			this.callsInFlight.decrementAndGet();
		}
	}

	@Override
	public @Nullable SessionInfo session() {
		return this.client.session();
	}

	@Override
	public boolean ping(Duration timeout) {
		if (this.life.isLost()) {
			return false;
		}
		RuntimeException failure = this.client.ping(timeout);
		if (failure != null) {
			this.carrier.pingFailed(failure);
		}
		return failure == null;
	}

	@Override
	public long messagesReceived() {
		return this.carrier.messagesReceived();
	}

	@Override
	public int callsInFlight() {
		return this.callsInFlight.get();
	}

	@Override
	public CompletableFuture<ExitStatus> onLost() {
		return this.life.lost();
	}

	@Override
	public String lossReason() {
		return this.life.lossReason();
	}

	@Override
	public void closeClient() {
		try {
			this.client.close();
		}
		finally {
			// closed even when the client's close failed: the transport refuses to
			// connect again
			this.carrier.close();
		}
	}

	@Override
	public boolean terminate() {
		return this.carrier.terminate();
	}

	@Override
	public @Nullable Long pid() {
		return this.carrier.pid();
	}

	@Override
	public List<String> stderrTail() {
		return this.carrier.stderrTail();
	}

	/**
	 * Returns the revision the generation speaks.
	 * @return the revision's date
	 */
	public String revision() {
		return this.client.revision();
	}

}
