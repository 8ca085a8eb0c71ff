package io.github.mcpsupervisor.tool;

import java.time.Duration;

/**
 * Observes every call of a supervised tool, for example to time it.
 *
 * @since 0.1.0
 */
@FunctionalInterface
public interface ToolCallObserver {

	/** An observer that ignores everything. */
	ToolCallObserver NONE = (server, serverTool, tool, outcome, duration) -> {
	};

	/**
	 * A call ended.
	 * @param server the server's name
	 * @param serverTool the tool's name on the server
	 * @param tool the tool's name as the model sees and calls it (the name of its
	 * {@code ToolDefinition}, as chat logs and Spring AI's tool observations show it)
	 * @param outcome how it ended
	 * @param duration how long it took
	 */
	void called(String server, String serverTool, String tool, Outcome outcome, Duration duration);

	/**
	 * How a tool call ended.
	 */
	enum Outcome {

		/** The server returned a result. */
		SUCCESS,

		/** The server answered with an error (a JSON-RPC error or an error result). */
		ERROR,

		/**
		 * The server was not up (a kept tool of a down server answered with its
		 * unavailable notice, too), or its connection was lost during the call.
		 */
		UNAVAILABLE,

		/**
		 * The call acts for a user whose authorization is missing or refused: the user
		 * must connect their account, or the server refuses it, or the call was made for
		 * no user. The server is up.
		 */
		UNAUTHORIZED,

		/** The call failed otherwise (bad arguments, timeout). */
		FAILURE

	}

}
