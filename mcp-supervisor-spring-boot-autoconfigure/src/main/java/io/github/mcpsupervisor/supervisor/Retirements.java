package io.github.mcpsupervisor.supervisor;

import io.github.mcpsupervisor.supervisor.ServerState.Level;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

/**
 * Ends a server's generations — lost, hung, restarted, stopped — and decides what follows
 * once a retired generation's tree is gone. The next attempt never starts before that:
 * one process per server at any time.
 */
final class Retirements {

	private static final Log logger = LogFactory.getLog(McpServerSupervisor.class);

	private final ServerState state;

	private final SupervisorLock lock;

	private final ReconnectPolicy policy;

	private final WorkTracker work;

	private @Nullable Attempts attempts;

	Retirements(ServerState state, SupervisorLock lock, ReconnectPolicy policy, WorkTracker work) {
		this.state = state;
		this.lock = lock;
		this.policy = policy;
		this.work = work;
	}

	void setAttempts(Attempts attempts) {
		this.attempts = attempts;
	}

	/**
	 * Reacts to the end of a generation: a stale one is inert; the live one is retired
	 * and the server reconnects (or stays DISCONNECTED) once its tree is gone.
	 * @param connection the generation that ended
	 * @param exit its process's exit, if it has one
	 */
	void onLost(McpConnection connection, @Nullable ExitStatus exit) {
		boolean live = this.lock.locked(() -> {
			if (this.state.live == null || this.state.live.connection != connection) {
				return false; // a stale generation: inert
			}
			String endedBecause = this.state.live.endedBecause;
			this.state.retire();
			this.state.lastExit = exit;
			this.state.lastStderr = connection.stderrTail();
			String how = (endedBecause != null) ? endedBecause
					: (exit != null) ? exit.describe() : connection.lossReason();
			this.state.lastError = "connection lost: " + how;
			if (this.state.outageStartedAt == null) {
				this.state.outageStartedAt = this.state.now();
			}
			String lost = "connection lost (generation " + connection.generation() + ", " + how
					+ ((exit != null && exit.lastStderrLine() != null) ? "; last stderr line: " + exit.lastStderrLine()
							: "")
					+ ")";
			if (this.policy.enabled()) {
				this.state.log(Level.WARN, lost);
				this.state.transition(McpServerState.RECONNECTING, "connection lost: " + how, exit);
				RestartCause cause = (endedBecause != null) ? RestartCause.LIVENESS : RestartCause.CRASH;
				SupervisorListener listener = this.state.listener();
				this.state.notify(() -> listener.restarting(this.state.name, cause));
			}
			else {
				this.state.log(Level.ERROR, lost + " and reconnect is disabled; its tools stay registered and fail"
						+ " until it is reset; " + this.state.resetHint());
				this.state.transition(McpServerState.DISCONNECTED, "connection lost: " + how, exit);
			}
			return true;
		});
		if (live) {
			closeQuietly(connection);
			afterTermination(connection, terminateQuietly(connection), exit);
		}
	}

	/**
	 * Ends a live generation that is alive but useless: its tree is killed, and its exit
	 * then drives the usual reconnect, with the given cause.
	 * @param connection the generation
	 * @param because why it is ended
	 */
	void end(McpConnection connection, String because) {
		boolean ending = this.lock.locked(() -> {
			Generation live = this.state.live;
			if (live == null || live.connection != connection || live.endedBecause != null) {
				return false;
			}
			live.endedBecause = because;
			this.state.log(Level.WARN, because + "; ending generation " + connection.generation());
			return true;
		});
		if (ending) {
			this.work.track(() -> {
				if (!terminateQuietly(connection)) {
					notEnded(connection);
				}
			});
		}
	}

	// A generation ended as hung survived its kill: it never exits, so it is given up
	// here instead of staying UP forever.
	private void notEnded(McpConnection connection) {
		this.lock.locked(() -> {
			Generation live = this.state.live;
			if (live == null || live.connection != connection || this.state.state == McpServerState.STOPPED) {
				return;
			}
			this.state.retire();
			this.state.lastStderr = connection.stderrTail();
		});
		afterTermination(connection, false, null);
	}

	/**
	 * Terminates again a generation whose tree could not be confirmed gone, before
	 * anything new is launched: the attempt follows once it is confirmed gone. Called
	 * under the lock.
	 * @return whether such a generation exists, and the attempt waits for it
	 */
	boolean recheckUnconfirmed() {
		McpConnection unconfirmed = this.state.unconfirmed;
		if (unconfirmed == null) {
			return false;
		}
		this.state.terminating = true;
		this.state.connectWhenIdle = true;
		this.work.track(() -> afterTermination(unconfirmed, terminateQuietly(unconfirmed), null));
		return true;
	}

	/**
	 * Retires a generation on request (restart): the next attempt follows once its tree
	 * is gone.
	 * @param connection the retired generation
	 */
	void restart(McpConnection connection) {
		closeQuietly(connection);
		this.work.track(() -> afterTermination(connection, terminateQuietly(connection), null));
	}

	/**
	 * Retires a generation for good (stop, or one that came up after the stop).
	 * @param connection the generation
	 * @param wasLive whether its client is open
	 */
	void stop(McpConnection connection, boolean wasLive) {
		if (wasLive) {
			closeQuietly(connection);
		}
		this.work.track(() -> {
			boolean confirmed = terminateQuietly(connection);
			this.lock.locked(() -> {
				if (!confirmed) {
					// a later start checks it again before it launches
					this.state.unconfirmed = connection;
				}
				else if (this.state.unconfirmed == connection) {
					this.state.unconfirmed = null;
				}
			});
		});
	}

	void discard(McpConnection connection) {
		closeQuietly(connection);
		terminateQuietly(connection);
	}

	void onStable(Generation generation) {
		this.lock.locked(() -> {
			if (this.state.live == generation) {
				this.state.budget.reset();
				this.state.outageStartedAt = null;
				this.state.log(Level.DEBUG,
						"generation " + generation.connection.generation() + " stable, outage budget reset");
			}
		});
	}

	// What follows once a retired generation's tree is terminated.
	private void afterTermination(McpConnection connection, boolean confirmed, @Nullable ExitStatus exit) {
		this.lock.locked(() -> {
			this.state.terminating = false;
			if (confirmed && this.state.unconfirmed == connection) {
				this.state.unconfirmed = null;
			}
			if (this.state.state == McpServerState.STOPPED) {
				return;
			}
			if (!confirmed) {
				this.state.unconfirmed = connection;
				this.state.connectWhenIdle = false;
				this.state.giveUp("the process tree of generation " + connection.generation()
						+ " could not be confirmed gone; not reconnecting so that two servers never run", exit);
			}
			else if (this.state.connectWhenIdle) {
				this.attempts.reconnectNow();
			}
			else if (this.state.state == McpServerState.RECONNECTING) {
				this.attempts.retryOrGiveUp(exit);
			}
		});
	}

	// A failure of the SDK's close must never stop the state machine.
	private void closeQuietly(McpConnection connection) {
		try {
			connection.closeClient();
		}
		catch (RuntimeException ex) {
			logger.debug("MCP server '" + this.state.name + "': closing the client of generation "
					+ connection.generation() + " failed", ex);
		}
	}

	// A failure to terminate counts as not confirmed gone.
	private boolean terminateQuietly(McpConnection connection) {
		try {
			return connection.terminate();
		}
		catch (RuntimeException ex) {
			logger.warn("MCP server '" + this.state.name + "': terminating generation " + connection.generation()
					+ " failed", ex);
			return false;
		}
	}

}
