package io.github.mcpsupervisor.supervisor;

import io.github.mcpsupervisor.supervisor.McpConnector.McpConnection;
import io.github.mcpsupervisor.supervisor.McpServerStatus.ExitStatus;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

/**
 * Ends a server's generations for its state machine — lost, hung, restarted, stopped —
 * outside the lock: closes their clients, terminates their process trees, and reports
 * whether each tree is confirmed gone. The next attempt never starts before that: one
 * process per server at any time.
 */
final class Retirements {

	private static final Log logger = LogFactory.getLog(McpServerSupervisor.class);

	private final String name;

	private final WorkTracker work;

	private final Outcomes outcomes;

	Retirements(String name, WorkTracker work, Outcomes outcomes) {
		this.name = name;
		this.work = work;
		this.outcomes = outcomes;
	}

	/**
	 * Retires the generation that ended, on the worker that saw it end.
	 * @param connection the generation that ended
	 * @param exit its process's exit, if it has one
	 */
	void retireLost(McpConnection connection, @Nullable ExitStatus exit) {
		closeQuietly(connection);
		this.outcomes.terminated(connection, terminateQuietly(connection), exit);
	}

	/**
	 * Kills the tree of a live generation that is alive but useless: its exit then drives
	 * the usual reconnect; a tree that survives the kill is reported.
	 * @param connection the generation
	 */
	void endHung(McpConnection connection) {
		this.work.track(() -> {
			if (!terminateQuietly(connection)) {
				this.outcomes.survivedKill(connection);
			}
		});
	}

	/**
	 * Terminates again a generation whose tree could not be confirmed gone.
	 * @param connection the generation
	 */
	void terminateAgain(McpConnection connection) {
		this.work.track(() -> this.outcomes.terminated(connection, terminateQuietly(connection), null));
	}

	/**
	 * Retires a generation on request (restart).
	 * @param connection the retired generation
	 */
	void restart(McpConnection connection) {
		closeQuietly(connection);
		terminateAgain(connection);
	}

	/**
	 * Retires on a worker a generation no longer kept: a spare that failed, ended or is
	 * no longer kept, or a live generation stopped while unused.
	 * @param connection the generation
	 */
	void retireInBackground(McpConnection connection) {
		this.work.track(() -> {
			closeQuietly(connection);
			this.outcomes.terminated(connection, terminateQuietly(connection), null);
		});
	}

	/**
	 * Retires for good (stop) the generations a stop ended.
	 * @param stopped the generations
	 */
	void stop(Stopped stopped) {
		if (stopped.live() != null) {
			closeQuietly(stopped.live());
			terminateAgain(stopped.live());
		}
		if (stopped.connecting() != null) {
			terminateAgain(stopped.connecting());
		}
		if (stopped.unconfirmed() != null) {
			terminateAgain(stopped.unconfirmed());
		}
		if (stopped.spare() != null) {
			retireInBackground(stopped.spare());
		}
	}

	/**
	 * Ends a generation that came up after the stop.
	 * @param connection the generation
	 */
	void discard(McpConnection connection) {
		closeQuietly(connection);
		terminateQuietly(connection);
	}

	// A failure of the SDK's close must never stop the state machine.
	private void closeQuietly(McpConnection connection) {
		try {
			connection.closeClient();
		}
		catch (RuntimeException ex) {
			logger.debug("MCP server '" + this.name + "': closing the client of generation " + connection.generation()
					+ " failed", ex);
		}
	}

	private boolean terminateQuietly(McpConnection connection) {
		return terminateQuietly(this.name, connection);
	}

	// A failure to terminate counts as not confirmed gone.
	static boolean terminateQuietly(String name, McpConnection connection) {
		try {
			return connection.terminate();
		}
		catch (RuntimeException ex) {
			logger.warn("MCP server '" + name + "': terminating generation " + connection.generation() + " failed", ex);
			return false;
		}
	}

	/**
	 * The connections a stop ended: the live one, retired, one still connecting, one
	 * whose tree was not confirmed gone, and the standby's spare.
	 *
	 * @param live the live generation, if any
	 * @param connecting the running attempt, if any
	 * @param unconfirmed the tree not confirmed gone, if any
	 * @param spare the spare, starting or ready, if any
	 */
	record Stopped(@Nullable McpConnection live, @Nullable McpConnection connecting,
			@Nullable McpConnection unconfirmed, @Nullable McpConnection spare) {

		static final Stopped NOTHING = new Stopped(null, null, null, null);

	}

	/**
	 * Where the end of a termination goes.
	 */
	interface Outcomes {

		/**
		 * A generation's tree was terminated.
		 * @param connection the generation
		 * @param confirmed whether the tree is confirmed gone
		 * @param exit its process's exit, if it has one
		 */
		void terminated(McpConnection connection, boolean confirmed, @Nullable ExitStatus exit);

		/**
		 * A live generation ended as hung was not confirmed gone after its kill.
		 * @param connection the generation
		 */
		void survivedKill(McpConnection connection);

	}

}
