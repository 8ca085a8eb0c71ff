package io.github.mcpsupervisor.supervisor;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.function.Function;

import io.modelcontextprotocol.client.McpAsyncClient;
import io.modelcontextprotocol.spec.McpSchema.CallToolRequest;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import io.modelcontextprotocol.spec.McpSchema.Tool;
import org.jspecify.annotations.Nullable;
import reactor.core.publisher.Mono;

/**
 * One generation of a server: a process (or session) of its own and an MCP client of its
 * own. It is used once: opened, used, lost or terminated, and never reopened.
 *
 * @since 0.1.0
 */
public interface McpConnection {

	int generation();

	/**
	 * Spawns the server, initializes the session and discovers its tools (following
	 * pagination within limits). Blocks at most the initialization timeout, the request
	 * timeout (the tool listing) and the termination bound. On failure the process tree
	 * is already terminated.
	 * @throws McpConnectException if the connection could not be established
	 */
	void open() throws McpConnectException;

	/**
	 * Returns the tools discovered by {@link #open()}.
	 * @return the tools
	 */
	List<Tool> tools();

	/**
	 * Lists the server's tools again, following pagination within limits, each name once.
	 * @return the tools
	 */
	List<Tool> listTools();

	CallToolResult callTool(CallToolRequest request);

	/**
	 * Sends a request other than a tool call (resources, prompts, completions,
	 * subscriptions, roots) on this generation's 2025-11-25 client, bounded by the
	 * request timeout. The client is never handed out: the request runs on it and is
	 * awaited here. A generation of another revision has no such client and refuses it.
	 * @param <T> the type of the result
	 * @param method the MCP method, for messages
	 * @param request what to send on the client
	 * @return the result, {@code null} for a request that answers nothing
	 */
	default <T> @Nullable T request(String method, Function<McpAsyncClient, Mono<T>> request) {
		throw new UnsupportedOperationException("This connection does not send '" + method + "' requests");
	}

	/**
	 * Sends a request other than a tool call in the revision this generation speaks,
	 * bounded by the request timeout. A 2025-11-25 generation sends it on its client as
	 * {@link #request(String, Function)} does.
	 * @param <T> the type of the result
	 * @param method the MCP method, for messages
	 * @param request what to send
	 * @return the result, {@code null} for a request that answers nothing
	 */
	default <T> @Nullable T send(String method, Function<McpServerRequests, Mono<T>> request) {
		return request(method, (client) -> request.apply(McpServerRequests.of(client)));
	}

	/**
	 * Returns what the client and the server told each other at initialize.
	 * @return the session, or {@code null} before initialize or when not known
	 */
	default @Nullable SessionInfo session() {
		return null;
	}

	/**
	 * Pings the server.
	 * @param timeout how long to wait for the answer
	 * @return whether it answered in time
	 */
	boolean ping(Duration timeout);

	/**
	 * Returns how many messages the server has sent on this generation so far, counted as
	 * they come off the connection (over Streamable HTTP, the whole answers to requests),
	 * before anything of this JVM reads them. Any message is a sign of life, also one
	 * that answers another request than a ping, and also one that something local holds
	 * back.
	 * @return the count, or 0 if the transport does not tell
	 */
	default long messagesReceived() {
		return 0;
	}

	/**
	 * Returns how many tool calls are in flight on this generation. Each is bounded by
	 * its own timeout (its tool's, or the request timeout): while one runs, an unanswered
	 * ping is no evidence of death on a server that handles one request at a time.
	 * @return the count
	 */
	default int callsInFlight() {
		return 0;
	}

	/**
	 * Completes as soon as the generation has ended on its own (process exit, or a
	 * transport failure of a remote server).
	 * @return the exit of the generation's process, {@code null} when it has none
	 */
	CompletableFuture<ExitStatus> onLost();

	/**
	 * Describes how the generation ended when no process exit tells it (for example a
	 * refused HTTP connection).
	 * @return the reason
	 */
	default String lossReason() {
		return "process ended";
	}

	/**
	 * Returns whether the generation has ended.
	 * @return whether it is lost
	 */
	default boolean isLost() {
		return onLost().isDone();
	}

	/**
	 * Closes the client so that calls in flight fail at once. The client is never used
	 * again.
	 */
	void closeClient();

	/**
	 * Terminates the process tree, bounded in time: stdin closed and SIGTERM, a grace
	 * period, then SIGKILL of every process of the tree. Idempotent.
	 * @return whether every process of the tree is confirmed gone
	 */
	boolean terminate();

	/**
	 * Returns the pid of the server process, once spawned.
	 * @return the pid or {@code null}
	 */
	@Nullable Long pid();

	/**
	 * Returns the last lines the server wrote to stderr.
	 * @return the lines, oldest first
	 */
	List<String> stderrTail();

}
