package io.github.mcpsupervisor.transport.internal;

import java.time.Duration;
import java.util.List;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.Supplier;

import io.github.mcpsupervisor.supervisor.McpConnector.McpServerRequests;
import io.github.mcpsupervisor.supervisor.ToolSet.SessionInfo;
import io.modelcontextprotocol.client.McpAsyncClient;
import io.modelcontextprotocol.spec.McpSchema.CallToolRequest;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import io.modelcontextprotocol.spec.McpSchema.Tool;
import org.jspecify.annotations.Nullable;
import reactor.core.publisher.Mono;

/**
 * A revision's client whose answers the test scripts, and that records what is done to
 * it.
 */
public final class ScriptedRevisionClient implements RevisionClient {

	/** Told what happens to the client. */
	public final List<String> events;

	/** Opens the session, or fails. */
	public Runnable opening = () -> {
	};

	/** Answers a call, or fails. */
	public Supplier<CallToolResult> call = () -> CallToolResult.builder().build();

	/** Lists the tools, or fails. */
	public Supplier<List<Tool>> listing = List::of;

	/** Answers a probe: {@code null} when answered. */
	public Supplier<@Nullable RuntimeException> pinging = () -> null;

	/** Closes the client, or fails. */
	public Runnable closing = () -> {
	};

	/** Reads a failed start as a refusal. */
	public Function<RuntimeException, @Nullable Refusal> refusing = (ex) -> null;

	/**
	 * Creates the client.
	 * @param events told what happens to the client
	 */
	public ScriptedRevisionClient(List<String> events) {
		this.events = events;
	}

	@Override
	public String revision() {
		return Revisions.V2025_11_25;
	}

	@Override
	public String handshake() {
		return "initialize";
	}

	@Override
	public void open(Consumer<Throwable> streamFailed) {
		this.opening.run();
	}

	@Override
	public List<Tool> tools() {
		return List.of();
	}

	@Override
	public List<Tool> listTools() {
		return this.listing.get();
	}

	@Override
	public CallToolResult callTool(CallToolRequest request) {
		return this.call.get();
	}

	@Override
	public <T> @Nullable T request(String method, Function<McpAsyncClient, Mono<T>> request) {
		return null;
	}

	@Override
	public <T> @Nullable T send(String method, Function<McpServerRequests, Mono<T>> request) {
		return null;
	}

	@Override
	public @Nullable SessionInfo session() {
		return null;
	}

	@Override
	public @Nullable RuntimeException ping(Duration timeout) {
		return this.pinging.get();
	}

	@Override
	public void close() {
		this.closing.run();
		this.events.add("client closed");
	}

	@Override
	public @Nullable Refusal refusal(RuntimeException ex) {
		return this.refusing.apply(ex);
	}

}
