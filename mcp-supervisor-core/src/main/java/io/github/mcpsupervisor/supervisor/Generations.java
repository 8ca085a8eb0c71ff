package io.github.mcpsupervisor.supervisor;

import io.github.mcpsupervisor.supervisor.McpConnector.McpConnection;
import org.jspecify.annotations.Nullable;

/**
 * What the jobs around a server's state machine (liveness, tool sync) may see of its
 * generations and do to them. The methods marked so are called under the supervisor's
 * lock.
 */
interface Generations {

	String name();

	/**
	 * Returns a text of the server fit for a log line.
	 * @param text the server's text
	 * @return the text, its secrets masked
	 */
	String loggable(@Nullable String text);

	ToolSet tools();

	/**
	 * Returns the live generation; under the lock.
	 * @return the live generation, if any
	 */
	@Nullable Generation live();

	/**
	 * Returns whether a generation is the live one; under the lock.
	 * @param generation the generation
	 * @return whether it is live
	 */
	boolean isLive(Generation generation);

	/**
	 * Replaces the tool set of the live generation; under the lock.
	 * @param replacement the new tool set
	 */
	void replaceTools(ToolSet replacement);

	/**
	 * Ends a live generation that is alive but useless (hung): its tree is killed and the
	 * server reconnects as after a crash.
	 * @param connection the generation
	 * @param because why, for the logs and the state
	 */
	void end(McpConnection connection, String because);

}
