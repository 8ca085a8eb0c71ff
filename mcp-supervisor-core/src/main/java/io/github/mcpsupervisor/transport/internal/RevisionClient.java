package io.github.mcpsupervisor.transport.internal;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeoutException;
import java.util.function.Consumer;
import java.util.function.Function;

import io.github.mcpsupervisor.internal.CauseChain;
import io.github.mcpsupervisor.supervisor.McpConnector.McpServerRequests;
import io.github.mcpsupervisor.supervisor.ToolSet.SessionInfo;
import io.github.mcpsupervisor.transport.internal.ToolListing.ToolListingException;
import io.modelcontextprotocol.client.McpAsyncClient;
import io.modelcontextprotocol.spec.McpError;
import io.modelcontextprotocol.spec.McpSchema.CallToolRequest;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import io.modelcontextprotocol.spec.McpSchema.Tool;
import org.jspecify.annotations.Nullable;
import reactor.core.publisher.Mono;

/**
 * The protocol client of one generation in one MCP revision, over the transport that its
 * carrier's binding built: it opens the session the revision has, lists tools, sends
 * calls and requests, probes liveness, and reads the failures of its SDK.
 *
 * @since 0.1.0
 */
public interface RevisionClient {

	/**
	 * Returns the revision the client speaks.
	 * @return the revision's date, such as {@code 2025-11-25}
	 */
	String revision();

	/**
	 * Names what opens a session in this revision, for the messages of a failed start.
	 * @return the name, such as {@code initialize}
	 */
	String handshake();

	/**
	 * Opens the session, lists the server's tools and follows what the application
	 * follows on the server. Bounded by the initialization and the request timeouts.
	 * @param streamFailed told when a stream the client keeps open on the server breaks
	 */
	void open(Consumer<Throwable> streamFailed);

	/**
	 * Returns the tools listed by {@link #open(Consumer)}.
	 * @return the tools
	 */
	List<Tool> tools();

	/**
	 * Returns how long the last listing of the tools holds, as the server said.
	 * @return how long, or {@code null} when the revision says nothing of it
	 */
	default @Nullable Duration toolsFreshFor() {
		return null;
	}

	List<Tool> listTools();

	CallToolResult callTool(CallToolRequest request);

	/**
	 * Sends a request written for the 2025-11-25 client.
	 * @param <T> the type of the result
	 * @param method the MCP method, for messages
	 * @param request what to send on the client
	 * @return the result
	 * @see io.github.mcpsupervisor.supervisor.McpConnector.McpConnection#request(String,
	 * Function)
	 */
	<T> @Nullable T request(String method, Function<McpAsyncClient, Mono<T>> request);

	/**
	 * Sends a request in this revision.
	 * @param <T> the type of the result
	 * @param method the MCP method, for messages
	 * @param request what to send
	 * @return the result
	 * @see io.github.mcpsupervisor.supervisor.McpConnector.McpConnection#send(String,
	 * Function)
	 */
	<T> @Nullable T send(String method, Function<McpServerRequests, Mono<T>> request);

	/**
	 * Returns what the client and the server told each other.
	 * @return the session, or {@code null} before it is open
	 */
	@Nullable SessionInfo session();

	/**
	 * Probes the server's liveness within the timeout.
	 * @param timeout how long the answer may take
	 * @return {@code null} when the server answered, otherwise why not
	 */
	@Nullable RuntimeException ping(Duration timeout);

	/**
	 * Closes the client and what it follows on the server; its failures are its own.
	 */
	void close();

	/**
	 * Returns whether a failure is the server's answer (an error, a result of another
	 * shape, a listing over the limits) or its silence until a timeout: a failure that
	 * leaves the server running, not one that its exit may explain.
	 * @param ex the failure
	 * @return whether the server answered or let the request time out
	 */
	default boolean isAnswered(RuntimeException ex) {
		return CauseChain.cause(ex, McpError.class) != null || CauseChain.cause(ex, TimeoutException.class) != null
				|| ex instanceof ToolListingException;
	}

	/**
	 * Reads a failed start as the server's answer that it speaks other revisions only,
	 * which no new attempt changes.
	 * @param ex the failure of {@link #open(Consumer)}
	 * @return the refusal, or {@code null} when the failure is another
	 */
	@Nullable Refusal refusal(RuntimeException ex);

	/**
	 * Returns the failure of a start during which the server exited.
	 * @param message what the carrier tells of the exit
	 * @param ex the failure of {@link #open(Consumer)}
	 * @return the failure to report
	 */
	default RuntimeException exitedDuringHandshake(String message, RuntimeException ex) {
		return ex;
	}

	/**
	 * The server's answer that it speaks other revisions only.
	 *
	 * @param message what to tell of it, or {@code null} for the carrier's own account of
	 * the failure
	 */
	record Refusal(@Nullable String message) {

	}

}
