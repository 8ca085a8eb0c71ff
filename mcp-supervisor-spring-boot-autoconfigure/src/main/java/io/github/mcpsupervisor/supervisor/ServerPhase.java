package io.github.mcpsupervisor.supervisor;

import java.util.Set;

import org.jspecify.annotations.Nullable;

/**
 * The phases of a server's state machine, {@link ServerLifecycle}: each public
 * {@link McpServerState} split by what the server is waiting for, so that no flag beside
 * the phase says what happens next. {@link #TABLE} is the transition table that the state
 * machine refuses to leave.
 */
enum ServerPhase {

	/** Not started, or stopped. */
	STOPPED(McpServerState.STOPPED),

	/** Started while a previous stop's terminations still run: connects once they end. */
	STARTING_AWAITING_STOP(McpServerState.STARTING),

	/** Terminating again a tree not confirmed gone before the first attempt. */
	STARTING_TERMINATING_THEN_CONNECT(McpServerState.STARTING),

	/** The first attempt runs. */
	STARTING_CONNECTING(McpServerState.STARTING),

	/**
	 * The first attempt runs, and a restart asked for another one at once if it fails.
	 */
	STARTING_CONNECTING_AGAIN(McpServerState.STARTING),

	/** A generation is live. */
	UP(McpServerState.UP),

	/** The lost generation's tree is being terminated; the backoff follows. */
	RECONNECTING_TERMINATING(McpServerState.RECONNECTING),

	/** A retired generation's tree is being terminated; an attempt follows at once. */
	RECONNECTING_TERMINATING_THEN_CONNECT(McpServerState.RECONNECTING),

	/** The next attempt waits for its backoff delay. */
	RECONNECTING_BACKING_OFF(McpServerState.RECONNECTING),

	/** An attempt runs. */
	RECONNECTING_CONNECTING(McpServerState.RECONNECTING),

	/**
	 * An attempt runs, and a reset or restart asked for another one at once if it fails.
	 */
	RECONNECTING_CONNECTING_AGAIN(McpServerState.RECONNECTING),

	/** The lost generation's tree is being terminated; reconnect is disabled. */
	DISCONNECTED_TERMINATING(McpServerState.DISCONNECTED),

	/** The lost generation's tree is being terminated; a reset asked for an attempt. */
	DISCONNECTED_TERMINATING_THEN_CONNECT(McpServerState.DISCONNECTED),

	/** Lost, reconnect disabled: waits for a reset. */
	DISCONNECTED(McpServerState.DISCONNECTED),

	/** Waits for an authorization (or a reset): no attempt runs. */
	NEEDS_AUTHORIZATION(McpServerState.NEEDS_AUTHORIZATION),

	/**
	 * Given up: waits for a reset, or for the end of its cooldown when a spent budget
	 * gave it up and the policy has one.
	 */
	FAILED(McpServerState.FAILED);

	/**
	 * Every transition the state machine may take, in the order of its Javadoc's table.
	 */
	static final Set<Edge> TABLE = Set.of(
	// @formatter:off
			edge(STOPPED, Event.START, STARTING_AWAITING_STOP),
			edge(STOPPED, Event.START, STARTING_TERMINATING_THEN_CONNECT),
			edge(STOPPED, Event.START, STARTING_CONNECTING),
			edge(STARTING_AWAITING_STOP, Event.STOP_ENDED, STARTING_TERMINATING_THEN_CONNECT),
			edge(STARTING_AWAITING_STOP, Event.STOP_ENDED, STARTING_CONNECTING),
			edge(STARTING_AWAITING_STOP, Event.RESTART, STARTING_AWAITING_STOP),
			edge(STARTING_TERMINATING_THEN_CONNECT, Event.TERMINATED, STARTING_CONNECTING),
			edge(STARTING_TERMINATING_THEN_CONNECT, Event.TERMINATED, FAILED),
			edge(STARTING_TERMINATING_THEN_CONNECT, Event.RESTART, STARTING_TERMINATING_THEN_CONNECT),
			edge(STARTING_CONNECTING, Event.CONNECTED, UP),
			edge(STARTING_CONNECTING, Event.ATTEMPT_FAILED, RECONNECTING_BACKING_OFF),
			edge(STARTING_CONNECTING, Event.ATTEMPT_FAILED, DISCONNECTED),
			edge(STARTING_CONNECTING, Event.ATTEMPT_FAILED, FAILED),
			edge(STARTING_CONNECTING, Event.ATTEMPT_FAILED, NEEDS_AUTHORIZATION),
			edge(STARTING_CONNECTING, Event.RESTART, STARTING_CONNECTING_AGAIN),
			edge(STARTING_CONNECTING, Event.AUTHORIZED, STARTING_CONNECTING_AGAIN),
			edge(STARTING_CONNECTING_AGAIN, Event.CONNECTED, UP),
			edge(STARTING_CONNECTING_AGAIN, Event.ATTEMPT_FAILED, STARTING_CONNECTING),
			edge(STARTING_CONNECTING_AGAIN, Event.ATTEMPT_FAILED, FAILED),
			edge(STARTING_CONNECTING_AGAIN, Event.RESTART, STARTING_CONNECTING_AGAIN),
			edge(STARTING_CONNECTING_AGAIN, Event.AUTHORIZED, STARTING_CONNECTING_AGAIN),
			edge(UP, Event.LOST, UP),
			edge(UP, Event.LOST, RECONNECTING_CONNECTING),
			edge(UP, Event.LOST, RECONNECTING_TERMINATING),
			edge(UP, Event.LOST, DISCONNECTED_TERMINATING),
			edge(UP, Event.SURVIVED_KILL, FAILED),
			edge(UP, Event.RESTART, UP),
			edge(UP, Event.RESTART, RECONNECTING_TERMINATING_THEN_CONNECT),
			edge(RECONNECTING_TERMINATING, Event.TERMINATED, RECONNECTING_BACKING_OFF),
			edge(RECONNECTING_TERMINATING, Event.TERMINATED, FAILED),
			edge(RECONNECTING_TERMINATING, Event.RESET, RECONNECTING_TERMINATING_THEN_CONNECT),
			edge(RECONNECTING_TERMINATING, Event.RESTART, RECONNECTING_TERMINATING_THEN_CONNECT),
			edge(RECONNECTING_TERMINATING_THEN_CONNECT, Event.TERMINATED, RECONNECTING_CONNECTING),
			edge(RECONNECTING_TERMINATING_THEN_CONNECT, Event.TERMINATED, FAILED),
			edge(RECONNECTING_TERMINATING_THEN_CONNECT, Event.RESET, RECONNECTING_TERMINATING_THEN_CONNECT),
			edge(RECONNECTING_TERMINATING_THEN_CONNECT, Event.RESTART, RECONNECTING_TERMINATING_THEN_CONNECT),
			edge(RECONNECTING_BACKING_OFF, Event.RETRY_DUE, RECONNECTING_CONNECTING),
			edge(RECONNECTING_BACKING_OFF, Event.RETRY_DUE, RECONNECTING_TERMINATING_THEN_CONNECT),
			edge(RECONNECTING_BACKING_OFF, Event.RESET, RECONNECTING_CONNECTING),
			edge(RECONNECTING_BACKING_OFF, Event.RESET, RECONNECTING_TERMINATING_THEN_CONNECT),
			edge(RECONNECTING_BACKING_OFF, Event.RESTART, RECONNECTING_CONNECTING),
			edge(RECONNECTING_BACKING_OFF, Event.RESTART, RECONNECTING_TERMINATING_THEN_CONNECT),
			edge(RECONNECTING_CONNECTING, Event.CONNECTED, UP),
			edge(RECONNECTING_CONNECTING, Event.ATTEMPT_FAILED, RECONNECTING_BACKING_OFF),
			edge(RECONNECTING_CONNECTING, Event.ATTEMPT_FAILED, DISCONNECTED),
			edge(RECONNECTING_CONNECTING, Event.ATTEMPT_FAILED, FAILED),
			edge(RECONNECTING_CONNECTING, Event.ATTEMPT_FAILED, NEEDS_AUTHORIZATION),
			edge(RECONNECTING_CONNECTING, Event.RESET, RECONNECTING_CONNECTING_AGAIN),
			edge(RECONNECTING_CONNECTING, Event.RESTART, RECONNECTING_CONNECTING_AGAIN),
			edge(RECONNECTING_CONNECTING, Event.AUTHORIZED, RECONNECTING_CONNECTING_AGAIN),
			edge(RECONNECTING_CONNECTING_AGAIN, Event.CONNECTED, UP),
			edge(RECONNECTING_CONNECTING_AGAIN, Event.ATTEMPT_FAILED, RECONNECTING_CONNECTING),
			edge(RECONNECTING_CONNECTING_AGAIN, Event.ATTEMPT_FAILED, RECONNECTING_TERMINATING_THEN_CONNECT),
			edge(RECONNECTING_CONNECTING_AGAIN, Event.ATTEMPT_FAILED, FAILED),
			edge(RECONNECTING_CONNECTING_AGAIN, Event.RESET, RECONNECTING_CONNECTING_AGAIN),
			edge(RECONNECTING_CONNECTING_AGAIN, Event.RESTART, RECONNECTING_CONNECTING_AGAIN),
			edge(RECONNECTING_CONNECTING_AGAIN, Event.AUTHORIZED, RECONNECTING_CONNECTING_AGAIN),
			edge(DISCONNECTED_TERMINATING, Event.TERMINATED, DISCONNECTED),
			edge(DISCONNECTED_TERMINATING, Event.TERMINATED, FAILED),
			edge(DISCONNECTED_TERMINATING, Event.RESET, DISCONNECTED_TERMINATING_THEN_CONNECT),
			edge(DISCONNECTED_TERMINATING, Event.RESTART, DISCONNECTED_TERMINATING_THEN_CONNECT),
			edge(DISCONNECTED_TERMINATING_THEN_CONNECT, Event.TERMINATED, RECONNECTING_CONNECTING),
			edge(DISCONNECTED_TERMINATING_THEN_CONNECT, Event.TERMINATED, FAILED),
			edge(DISCONNECTED_TERMINATING_THEN_CONNECT, Event.RESET, DISCONNECTED_TERMINATING_THEN_CONNECT),
			edge(DISCONNECTED_TERMINATING_THEN_CONNECT, Event.RESTART, DISCONNECTED_TERMINATING_THEN_CONNECT),
			edge(DISCONNECTED, Event.RESET, RECONNECTING_CONNECTING),
			edge(DISCONNECTED, Event.RESTART, RECONNECTING_CONNECTING),
			edge(NEEDS_AUTHORIZATION, Event.AUTHORIZED, RECONNECTING_CONNECTING),
			edge(NEEDS_AUTHORIZATION, Event.AUTHORIZED, RECONNECTING_TERMINATING_THEN_CONNECT),
			edge(NEEDS_AUTHORIZATION, Event.RESET, RECONNECTING_CONNECTING),
			edge(NEEDS_AUTHORIZATION, Event.RESET, RECONNECTING_TERMINATING_THEN_CONNECT),
			edge(NEEDS_AUTHORIZATION, Event.RESTART, RECONNECTING_CONNECTING),
			edge(NEEDS_AUTHORIZATION, Event.RESTART, RECONNECTING_TERMINATING_THEN_CONNECT),
			edge(FAILED, Event.RESET, RECONNECTING_CONNECTING),
			edge(FAILED, Event.RESET, RECONNECTING_TERMINATING_THEN_CONNECT),
			edge(FAILED, Event.RESTART, RECONNECTING_CONNECTING),
			edge(FAILED, Event.RESTART, RECONNECTING_TERMINATING_THEN_CONNECT),
			edge(FAILED, Event.COOLDOWN_OVER, RECONNECTING_CONNECTING),
			edge(FAILED, Event.COOLDOWN_OVER, RECONNECTING_TERMINATING_THEN_CONNECT),
			edge(STARTING_AWAITING_STOP, Event.STOP, STOPPED),
			edge(STARTING_TERMINATING_THEN_CONNECT, Event.STOP, STOPPED),
			edge(STARTING_CONNECTING, Event.STOP, STOPPED),
			edge(STARTING_CONNECTING_AGAIN, Event.STOP, STOPPED),
			edge(UP, Event.STOP, STOPPED),
			edge(RECONNECTING_TERMINATING, Event.STOP, STOPPED),
			edge(RECONNECTING_TERMINATING_THEN_CONNECT, Event.STOP, STOPPED),
			edge(RECONNECTING_BACKING_OFF, Event.STOP, STOPPED),
			edge(RECONNECTING_CONNECTING, Event.STOP, STOPPED),
			edge(RECONNECTING_CONNECTING_AGAIN, Event.STOP, STOPPED),
			edge(DISCONNECTED_TERMINATING, Event.STOP, STOPPED),
			edge(DISCONNECTED_TERMINATING_THEN_CONNECT, Event.STOP, STOPPED),
			edge(DISCONNECTED, Event.STOP, STOPPED),
			edge(NEEDS_AUTHORIZATION, Event.STOP, STOPPED),
			edge(FAILED, Event.STOP, STOPPED));
	// @formatter:on

	private final McpServerState state;

	ServerPhase(McpServerState state) {
		this.state = state;
	}

	/**
	 * Returns the public state that this phase shows.
	 * @return the state users see
	 */
	McpServerState state() {
		return this.state;
	}

	/**
	 * Returns the phase that a reset or restart leaves a busy phase in: the same work,
	 * then an attempt at once.
	 * @return the phase, or {@code null} when this phase is not busy (nothing to wait
	 * for)
	 */
	@Nullable ServerPhase thenConnect() {
		return switch (this) {
			case STARTING_AWAITING_STOP, STARTING_TERMINATING_THEN_CONNECT, STARTING_CONNECTING_AGAIN,
					RECONNECTING_TERMINATING_THEN_CONNECT, RECONNECTING_CONNECTING_AGAIN,
					DISCONNECTED_TERMINATING_THEN_CONNECT ->
				this;
			case STARTING_CONNECTING -> STARTING_CONNECTING_AGAIN;
			case RECONNECTING_TERMINATING -> RECONNECTING_TERMINATING_THEN_CONNECT;
			case RECONNECTING_CONNECTING -> RECONNECTING_CONNECTING_AGAIN;
			case DISCONNECTED_TERMINATING -> DISCONNECTED_TERMINATING_THEN_CONNECT;
			case STOPPED, UP, RECONNECTING_BACKING_OFF, DISCONNECTED, NEEDS_AUTHORIZATION, FAILED -> null;
		};
	}

	/**
	 * Returns whether an attempt that fails in this phase is followed by another one at
	 * once.
	 * @return whether a reset or restart asked for it
	 */
	boolean connectsAgain() {
		return this == STARTING_CONNECTING_AGAIN || this == RECONNECTING_CONNECTING_AGAIN;
	}

	private static Edge edge(ServerPhase from, Event event, ServerPhase to) {
		return new Edge(from, event, to);
	}

	/**
	 * What moves a server from one phase to another.
	 */
	enum Event {

		/** {@link McpServerSupervisor#start()}. */
		START,

		/** The terminations of the stop that preceded a start have ended. */
		STOP_ENDED,

		/** An attempt connected. */
		CONNECTED,

		/** An attempt failed. */
		ATTEMPT_FAILED,

		/** The live generation ended (its process exited or its connection closed). */
		LOST,

		/** A live generation ended as hung was not confirmed gone after its kill. */
		SURVIVED_KILL,

		/** The termination of a retired generation's tree ended, confirmed or not. */
		TERMINATED,

		/** The backoff delay of the next attempt is over. */
		RETRY_DUE,

		/**
		 * The cooldown of a server given up after a spent budget is over: it tries again
		 * with a fresh budget.
		 */
		COOLDOWN_OVER,

		/** The server's authorization exists again (a person completed it). */
		AUTHORIZED,

		/** {@link McpServerSupervisor#reset()}. */
		RESET,

		/** {@link McpServerSupervisor#restart()}. */
		RESTART,

		/** {@link McpServerSupervisor#stop()}. */
		STOP

	}

	/**
	 * One row of the transition table.
	 *
	 * @param from the phase before
	 * @param event what happened
	 * @param to the phase after
	 */
	record Edge(ServerPhase from, Event event, ServerPhase to) {

	}

}
