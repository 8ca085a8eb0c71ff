package io.github.mcpsupervisor.supervisor;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.function.Function;

import io.github.mcpsupervisor.supervisor.McpServerStatus.ExitStatus;
import io.github.mcpsupervisor.supervisor.ToolSet.SessionInfo;
import io.modelcontextprotocol.client.McpAsyncClient;
import io.modelcontextprotocol.spec.McpSchema.CallToolRequest;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import io.modelcontextprotocol.spec.McpSchema.CompleteRequest;
import io.modelcontextprotocol.spec.McpSchema.CompleteResult;
import io.modelcontextprotocol.spec.McpSchema.GetPromptResult;
import io.modelcontextprotocol.spec.McpSchema.ListPromptsResult;
import io.modelcontextprotocol.spec.McpSchema.ListResourceTemplatesResult;
import io.modelcontextprotocol.spec.McpSchema.ListResourcesResult;
import io.modelcontextprotocol.spec.McpSchema.ReadResourceResult;
import io.modelcontextprotocol.spec.McpSchema.Root;
import io.modelcontextprotocol.spec.McpSchema.ServerCapabilities;
import io.modelcontextprotocol.spec.McpSchema.Tool;
import org.jspecify.annotations.Nullable;
import reactor.core.publisher.Mono;

/**
 * Creates the connection of each generation of one server: the contract of a transport,
 * with the {@link McpConnection connections} it creates, their {@link McpConnectException
 * failures} and the {@link McpServerRequests requests} they send. An application that
 * builds its supervisors itself gets the connector of a server from
 * {@code McpConnectors}.
 *
 * @since 0.1.0
 */
@FunctionalInterface
public interface McpConnector extends AutoCloseable {

	/**
	 * Creates the connection of a new generation without opening it (cheap, no process
	 * yet).
	 * @param generation the generation number, increasing from 1
	 * @param toolsChanged called when the server announces that its tool list changed
	 * @return a connection, not yet opened
	 */
	McpConnection create(int generation, Runnable toolsChanged);

	/**
	 * Masks the secrets of the server's configuration (arguments, URL, headers,
	 * credential-like environment variables) wherever a text of the server quotes them,
	 * before the text is logged.
	 * @param text a text of the server (an error message, a tool name)
	 * @return the text with the secrets masked; by default the text itself
	 */
	default String redact(String text) {
		return text;
	}

	/**
	 * Registers what to run once the server's authorization exists again (a person
	 * completed it after an attempt failed with
	 * {@link McpConnectException.Kind#AUTHORIZATION AUTHORIZATION}); called once, before
	 * the first attempt.
	 * @param authorized what to run, on any thread
	 */
	default void whenAuthorized(Runnable authorized) {
	}

	/**
	 * Returns whether the server must not be stopped while unused now: the application
	 * holds a subscription on it (a resource subscription, carried over a
	 * {@code subscriptions/listen} stream in 2026-07-28), whose updates would be lost.
	 * @return whether it must stay up; by default {@code false}
	 */
	default boolean keepsAwake() {
		return false;
	}

	/**
	 * Releases what the connector holds for its server (its use of a shared HTTP client,
	 * its registration with the server's authorization) once its supervisor has stopped
	 * for good: the server was removed or replaced. No generation is created after.
	 */
	@Override
	default void close() {
	}

	/**
	 * One generation of a server: a process (or session) of its own and an MCP client of
	 * its own. It is used once: opened, used, lost or terminated, and never reopened.
	 *
	 * @since 0.1.0
	 */
	interface McpConnection {

		int generation();

		/**
		 * Spawns the server, initializes the session and discovers its tools (following
		 * pagination within limits). Blocks at most the initialization timeout, the
		 * request timeout (the tool listing) and the termination bound. On failure the
		 * process tree is already terminated.
		 * @throws McpConnectException if the connection could not be established
		 */
		void open() throws McpConnectException;

		/**
		 * Returns the tools discovered by {@link #open()}.
		 * @return the tools
		 */
		List<Tool> tools();

		/**
		 * Returns how long the last listing of the tools holds, as the server said (the
		 * {@code ttlMs} of a 2026-07-28 listing; none said is none at all).
		 * @return how long, or {@code null} when the revision says nothing of it
		 */
		default @Nullable Duration toolsFreshFor() {
			return null;
		}

		/**
		 * Lists the server's tools again, following pagination within limits, each name
		 * once.
		 * @return the tools
		 */
		List<Tool> listTools();

		CallToolResult callTool(CallToolRequest request);

		/**
		 * Sends a request other than a tool call (resources, prompts, completions,
		 * subscriptions, roots) on this generation's 2025-11-25 client, bounded by the
		 * request timeout. The client is never handed out: the request runs on it and is
		 * awaited here. A generation of another revision has no such client and refuses
		 * it.
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
		 * bounded by the request timeout. A 2025-11-25 generation sends it on its client
		 * as {@link #request(String, Function)} does.
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
		 * Returns how many messages the server has sent on this generation so far,
		 * counted as they come off the connection (over Streamable HTTP, the whole
		 * answers to requests), before anything of this JVM reads them. Any message is a
		 * sign of life, also one that answers another request than a ping, and also one
		 * that something local holds back.
		 * @return the count, or 0 if the transport does not tell
		 */
		default long messagesReceived() {
			return 0;
		}

		/**
		 * Returns how many tool calls are in flight on this generation. Each is bounded
		 * by its own timeout (its tool's, or the request timeout): while one runs, an
		 * unanswered ping is no evidence of death on a server that handles one request at
		 * a time.
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
		 * Closes the client so that calls in flight fail at once. The client is never
		 * used again.
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

	/**
	 * A connection attempt failed.
	 *
	 * @since 0.1.0
	 */
	class McpConnectException extends Exception {

		private static final long serialVersionUID = 1L;

		private final Kind kind;

		private final transient @Nullable ExitStatus exit;

		public McpConnectException(Kind kind, String message, @Nullable ExitStatus exit, @Nullable Throwable cause) {
			super(message, cause);
			this.kind = kind;
			this.exit = exit;
		}

		public Kind getKind() {
			return this.kind;
		}

		public @Nullable ExitStatus getExit() {
			return this.exit;
		}

		/**
		 * What the failure means for the next attempt.
		 */
		public enum Kind {

			/** Worth retrying with backoff. */
			TRANSIENT,

			/**
			 * The server cannot start as configured (missing or non-executable command,
			 * bad working directory, exit 126/127): retrying would only storm.
			 */
			CONFIGURATION,

			/**
			 * The process tree could not be confirmed gone: a new attempt could run two
			 * servers.
			 */
			NOT_CONFIRMED_DEAD,

			/**
			 * The server needs an authorization that no attempt can obtain on its own (a
			 * person must authorize, or the authorization server refuses the client):
			 * nothing is retried until the authorization exists.
			 */
			AUTHORIZATION

		}

	}

	/**
	 * The requests other than tool calls that one generation sends to its server, in the
	 * types of revision 2025-11-25 whichever revision the generation speaks: a 2026-07-28
	 * generation sends them on the SDK's modern client and translates the answers.
	 *
	 * @since 0.1.0
	 */
	interface McpServerRequests {

		/**
		 * Returns the capabilities the server declared (at initialize, or in its answer
		 * to {@code server/discover}).
		 * @return the capabilities, or {@code null} when not known
		 */
		@Nullable ServerCapabilities serverCapabilities();

		/**
		 * Lists one page of the server's resources.
		 * @param cursor the page's cursor, {@code null} for the first
		 * @return the page
		 */
		Mono<ListResourcesResult> listResources(@Nullable String cursor);

		/**
		 * Lists one page of the server's resource templates.
		 * @param cursor the page's cursor, {@code null} for the first
		 * @return the page
		 */
		Mono<ListResourceTemplatesResult> listResourceTemplates(@Nullable String cursor);

		/**
		 * Reads a resource.
		 * @param uri its URI
		 * @return its contents
		 */
		Mono<ReadResourceResult> readResource(String uri);

		/**
		 * Lists one page of the server's prompts.
		 * @param cursor the page's cursor, {@code null} for the first
		 * @return the page
		 */
		Mono<ListPromptsResult> listPrompts(@Nullable String cursor);

		/**
		 * Gets a prompt.
		 * @param name its name
		 * @param arguments its arguments
		 * @return its messages
		 */
		Mono<GetPromptResult> getPrompt(String name, Map<String, Object> arguments);

		/**
		 * Completes an argument of a prompt or a resource template.
		 * @param request the completion request
		 * @return the completions
		 */
		Mono<CompleteResult> complete(CompleteRequest request);

		/**
		 * Subscribes to a resource's updates on this generation. A 2026-07-28 generation
		 * listens again for the subscriptions of the server's client session, which
		 * already has the resource.
		 * @param uri the resource's URI
		 * @return completes once the server has taken the subscription
		 */
		Mono<Void> subscribe(String uri);

		/**
		 * Ends a subscription on this generation.
		 * @param uri the resource's URI
		 * @return completes once the server has been told
		 */
		Mono<Void> unsubscribe(String uri);

		/**
		 * Tells the generation's server that the roots changed.
		 * @param previous the roots it was offered
		 * @param roots the roots it is offered now
		 * @return whether it was told: {@code false} when the generation started without
		 * roots (the next one is offered them); {@code true} for a revision that asks for
		 * roots when it needs them
		 */
		Mono<Boolean> changeRoots(List<Root> previous, List<Root> roots);

		/**
		 * Returns the requests of a 2025-11-25 generation, sent on its SDK client.
		 * @param client the generation's initialized client
		 * @return the requests
		 */
		static McpServerRequests of(McpAsyncClient client) {
			return new ClientRequests(client);
		}

	}

}
