package io.github.mcpsupervisor.internal;

import java.util.Map;

import org.jspecify.annotations.Nullable;

/**
 * Observes each request a supervisor routes to its server for the application: tool calls
 * and the requests of the server's client (resources, prompts, completions,
 * subscriptions). It starts on the caller's thread, before the request waits for a
 * generation, and ends on it, once the request has its answer or has failed (retried once
 * on the next generation or not), so that the caller's own observation is its parent.
 * Implementations must be quick and must not throw.
 *
 * @since 0.1.0
 */
@FunctionalInterface
public interface McpRequestObserver {

	/** An observer that observes nothing. */
	McpRequestObserver NONE = new McpRequestObserver() {

		// nothing is kept of a request: one serves them all
		private final Request unobserved = new Request() {
		};

		@Override
		public Request start(String server, String method, @Nullable String tool, @Nullable Map<String, Object> meta) {
			return this.unobserved;
		}

	};

	/**
	 * A request starts.
	 * @param server the server's name
	 * @param method the MCP method, for example {@code tools/call}
	 * @param tool the tool's name on the server for {@code tools/call}, {@code null}
	 * otherwise
	 * @param meta the request's {@code _meta} as the application set it, {@code null}
	 * when it set none or the request has no {@code _meta} of its own
	 * @return the started request, to be ended
	 */
	Request start(String server, String method, @Nullable String tool, @Nullable Map<String, Object> meta);

	/**
	 * One observed request.
	 */
	interface Request {

		/**
		 * Returns the {@code _meta} to send: the application's, with what the observer
		 * adds (trace context, for example) and never a key of the application's
		 * replaced.
		 * @param meta the application's {@code _meta}
		 * @return the {@code _meta} to send
		 */
		default @Nullable Map<String, Object> meta(@Nullable Map<String, Object> meta) {
			return meta;
		}

		/**
		 * The request is sent on a generation: once, and a second time when it is retried
		 * on the next generation.
		 * @param generation the generation's number
		 */
		default void attempt(int generation) {
		}

		/**
		 * The request ended.
		 * @param result the server's result, {@code null} when it failed or answers
		 * nothing
		 * @param error why it failed, {@code null} when it did not
		 */
		default void end(@Nullable Object result, @Nullable Throwable error) {
		}

	}

}
