package io.github.mcpsupervisor.supervisor;

import io.github.mcpsupervisor.internal.ServerText;
import io.github.mcpsupervisor.supervisor.McpServerStatus.ExitStatus;
import org.jspecify.annotations.Nullable;

/**
 * One transition of a supervised server.
 *
 * @param server the server's name
 * @param from the previous state
 * @param to the new state
 * @param generation the generation concerned
 * @param cause why the transition happened, without control characters and at most 500
 * characters long (then followed by a marker)
 * @param exit the exit of the process, when a process ending caused it
 * @since 0.1.0
 */
public record McpServerStateChange(String server, McpServerState from, McpServerState to, int generation, String cause,
		@Nullable ExitStatus exit) {

	public McpServerStateChange {
		cause = ServerText.bounded(cause, ServerText.MAX_LENGTH);
	}

}
