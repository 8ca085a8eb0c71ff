package io.github.mcpsupervisor.supervisor;

import java.util.List;
import java.util.Set;
import java.util.function.Predicate;
import java.util.stream.Collectors;

import io.github.mcpsupervisor.supervisor.McpConnector.McpConnectException.Kind;
import org.jspecify.annotations.Nullable;

/**
 * The phases of a server's state machine, {@link ServerLifecycle}: each public
 * {@link McpServerState} split by what the server is waiting for, so that no flag beside
 * the phase says what happens next. {@link #ROWS} is the transition table with its
 * guards, which chooses each move, and {@link #TABLE} its moves, which the state machine
 * refuses to leave.
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
	FAILED(McpServerState.FAILED),

	/**
	 * Not running while unused: its tools stay listed (from its catalog, or as its last
	 * generation listed them), and the next call starts it.
	 */
	IDLE(McpServerState.IDLE),

	/** Stopped when idle: the last generation's tree is being terminated. */
	IDLE_STOPPING(McpServerState.IDLE),

	/**
	 * Stopped when idle, and a call came meanwhile: an attempt follows once the tree is
	 * gone.
	 */
	IDLE_STOPPING_THEN_CONNECT(McpServerState.STARTING);

	/**
	 * Every row of the transition table with its guard, in the order of its Javadoc's
	 * table: of the rows of a phase and an event, the first whose guard holds is the
	 * move.
	 */
	static final List<Row> ROWS = List.of(
	// @formatter:off
			row(STOPPED, Event.START, Guard.STOP_RUNNING, STARTING_AWAITING_STOP),
			row(STOPPED, Event.START, Guard.TREE_UNCONFIRMED, STARTING_TERMINATING_THEN_CONNECT),
			row(STOPPED, Event.START, Guard.ON_FIRST_USE, IDLE),
			row(STOPPED, Event.START, Guard.OTHERWISE, STARTING_CONNECTING),
			row(STARTING_AWAITING_STOP, Event.STOP_ENDED, Guard.TREE_UNCONFIRMED, STARTING_TERMINATING_THEN_CONNECT),
			row(STARTING_AWAITING_STOP, Event.STOP_ENDED, Guard.ON_FIRST_USE, IDLE),
			row(STARTING_AWAITING_STOP, Event.STOP_ENDED, Guard.OTHERWISE, STARTING_CONNECTING),
			row(STARTING_AWAITING_STOP, Event.RESTART, Guard.ALWAYS, STARTING_AWAITING_STOP),
			row(STARTING_TERMINATING_THEN_CONNECT, Event.TERMINATED, Guard.GONE, STARTING_CONNECTING),
			row(STARTING_TERMINATING_THEN_CONNECT, Event.TERMINATED, Guard.NOT_GONE, FAILED),
			row(STARTING_TERMINATING_THEN_CONNECT, Event.RESTART, Guard.ALWAYS, STARTING_TERMINATING_THEN_CONNECT),
			row(STARTING_CONNECTING, Event.CONNECTED, Guard.ALWAYS, UP),
			row(STARTING_CONNECTING, Event.ATTEMPT_FAILED, Guard.MISCONFIGURED, FAILED),
			row(STARTING_CONNECTING, Event.ATTEMPT_FAILED, Guard.ATTEMPT_NOT_GONE, FAILED),
			row(STARTING_CONNECTING, Event.ATTEMPT_FAILED, Guard.UNAUTHORIZED, NEEDS_AUTHORIZATION),
			row(STARTING_CONNECTING, Event.ATTEMPT_FAILED, Guard.RECONNECT_DISABLED, DISCONNECTED),
			row(STARTING_CONNECTING, Event.ATTEMPT_FAILED, Guard.BUDGET_LEFT, RECONNECTING_BACKING_OFF),
			row(STARTING_CONNECTING, Event.ATTEMPT_FAILED, Guard.BUDGET_SPENT, FAILED),
			row(STARTING_CONNECTING, Event.RESTART, Guard.ALWAYS, STARTING_CONNECTING_AGAIN),
			row(STARTING_CONNECTING, Event.AUTHORIZED, Guard.ALWAYS, STARTING_CONNECTING_AGAIN),
			row(STARTING_CONNECTING_AGAIN, Event.CONNECTED, Guard.ALWAYS, UP),
			row(STARTING_CONNECTING_AGAIN, Event.ATTEMPT_FAILED, Guard.MISCONFIGURED, FAILED),
			row(STARTING_CONNECTING_AGAIN, Event.ATTEMPT_FAILED, Guard.ATTEMPT_NOT_GONE, FAILED),
			row(STARTING_CONNECTING_AGAIN, Event.ATTEMPT_FAILED, Guard.OTHERWISE, STARTING_CONNECTING),
			row(STARTING_CONNECTING_AGAIN, Event.RESTART, Guard.ALWAYS, STARTING_CONNECTING_AGAIN),
			row(STARTING_CONNECTING_AGAIN, Event.AUTHORIZED, Guard.ALWAYS, STARTING_CONNECTING_AGAIN),
			row(UP, Event.LOST, Guard.SPARE_READY, UP),
			row(UP, Event.LOST, Guard.SPARE_STARTING, RECONNECTING_CONNECTING),
			row(UP, Event.LOST, Guard.RECONNECT_ENABLED, RECONNECTING_TERMINATING),
			row(UP, Event.LOST, Guard.RECONNECT_DISABLED, DISCONNECTED_TERMINATING),
			row(UP, Event.SURVIVED_KILL, Guard.ALWAYS, FAILED),
			row(UP, Event.RESTART, Guard.SPARE_READY, UP),
			row(UP, Event.RESTART, Guard.OTHERWISE, RECONNECTING_TERMINATING_THEN_CONNECT),
			row(UP, Event.IDLE_DUE, Guard.ALWAYS, IDLE_STOPPING),
			row(RECONNECTING_TERMINATING, Event.TERMINATED, Guard.NOT_GONE, FAILED),
			row(RECONNECTING_TERMINATING, Event.TERMINATED, Guard.BUDGET_LEFT, RECONNECTING_BACKING_OFF),
			row(RECONNECTING_TERMINATING, Event.TERMINATED, Guard.BUDGET_SPENT, FAILED),
			row(RECONNECTING_TERMINATING, Event.RESET, Guard.ALWAYS, RECONNECTING_TERMINATING_THEN_CONNECT),
			row(RECONNECTING_TERMINATING, Event.RESTART, Guard.ALWAYS, RECONNECTING_TERMINATING_THEN_CONNECT),
			row(RECONNECTING_TERMINATING_THEN_CONNECT, Event.TERMINATED, Guard.GONE, RECONNECTING_CONNECTING),
			row(RECONNECTING_TERMINATING_THEN_CONNECT, Event.TERMINATED, Guard.NOT_GONE, FAILED),
			row(RECONNECTING_TERMINATING_THEN_CONNECT, Event.RESET, Guard.ALWAYS, RECONNECTING_TERMINATING_THEN_CONNECT),
			row(RECONNECTING_TERMINATING_THEN_CONNECT, Event.RESTART, Guard.ALWAYS, RECONNECTING_TERMINATING_THEN_CONNECT),
			row(RECONNECTING_BACKING_OFF, Event.RETRY_DUE, Guard.TREE_UNCONFIRMED, RECONNECTING_TERMINATING_THEN_CONNECT),
			row(RECONNECTING_BACKING_OFF, Event.RETRY_DUE, Guard.NO_TREE_UNCONFIRMED, RECONNECTING_CONNECTING),
			row(RECONNECTING_BACKING_OFF, Event.RESET, Guard.TREE_UNCONFIRMED, RECONNECTING_TERMINATING_THEN_CONNECT),
			row(RECONNECTING_BACKING_OFF, Event.RESTART, Guard.TREE_UNCONFIRMED, RECONNECTING_TERMINATING_THEN_CONNECT),
			row(RECONNECTING_BACKING_OFF, Event.RESET, Guard.NO_TREE_UNCONFIRMED, RECONNECTING_CONNECTING),
			row(RECONNECTING_BACKING_OFF, Event.RESTART, Guard.NO_TREE_UNCONFIRMED, RECONNECTING_CONNECTING),
			row(RECONNECTING_CONNECTING, Event.CONNECTED, Guard.ALWAYS, UP),
			row(RECONNECTING_CONNECTING, Event.ATTEMPT_FAILED, Guard.MISCONFIGURED, FAILED),
			row(RECONNECTING_CONNECTING, Event.ATTEMPT_FAILED, Guard.ATTEMPT_NOT_GONE, FAILED),
			row(RECONNECTING_CONNECTING, Event.ATTEMPT_FAILED, Guard.UNAUTHORIZED, NEEDS_AUTHORIZATION),
			row(RECONNECTING_CONNECTING, Event.ATTEMPT_FAILED, Guard.RECONNECT_DISABLED, DISCONNECTED),
			row(RECONNECTING_CONNECTING, Event.ATTEMPT_FAILED, Guard.BUDGET_LEFT, RECONNECTING_BACKING_OFF),
			row(RECONNECTING_CONNECTING, Event.ATTEMPT_FAILED, Guard.BUDGET_SPENT, FAILED),
			row(RECONNECTING_CONNECTING, Event.RESET, Guard.ALWAYS, RECONNECTING_CONNECTING_AGAIN),
			row(RECONNECTING_CONNECTING, Event.RESTART, Guard.ALWAYS, RECONNECTING_CONNECTING_AGAIN),
			row(RECONNECTING_CONNECTING, Event.AUTHORIZED, Guard.ALWAYS, RECONNECTING_CONNECTING_AGAIN),
			row(RECONNECTING_CONNECTING_AGAIN, Event.CONNECTED, Guard.ALWAYS, UP),
			row(RECONNECTING_CONNECTING_AGAIN, Event.ATTEMPT_FAILED, Guard.MISCONFIGURED, FAILED),
			row(RECONNECTING_CONNECTING_AGAIN, Event.ATTEMPT_FAILED, Guard.ATTEMPT_NOT_GONE, FAILED),
			row(RECONNECTING_CONNECTING_AGAIN, Event.ATTEMPT_FAILED, Guard.TREE_UNCONFIRMED, RECONNECTING_TERMINATING_THEN_CONNECT),
			row(RECONNECTING_CONNECTING_AGAIN, Event.ATTEMPT_FAILED, Guard.OTHERWISE, RECONNECTING_CONNECTING),
			row(RECONNECTING_CONNECTING_AGAIN, Event.RESET, Guard.ALWAYS, RECONNECTING_CONNECTING_AGAIN),
			row(RECONNECTING_CONNECTING_AGAIN, Event.RESTART, Guard.ALWAYS, RECONNECTING_CONNECTING_AGAIN),
			row(RECONNECTING_CONNECTING_AGAIN, Event.AUTHORIZED, Guard.ALWAYS, RECONNECTING_CONNECTING_AGAIN),
			row(DISCONNECTED_TERMINATING, Event.TERMINATED, Guard.GONE, DISCONNECTED),
			row(DISCONNECTED_TERMINATING, Event.TERMINATED, Guard.NOT_GONE, FAILED),
			row(DISCONNECTED_TERMINATING, Event.RESET, Guard.ALWAYS, DISCONNECTED_TERMINATING_THEN_CONNECT),
			row(DISCONNECTED_TERMINATING, Event.RESTART, Guard.ALWAYS, DISCONNECTED_TERMINATING_THEN_CONNECT),
			row(DISCONNECTED_TERMINATING_THEN_CONNECT, Event.TERMINATED, Guard.GONE, RECONNECTING_CONNECTING),
			row(DISCONNECTED_TERMINATING_THEN_CONNECT, Event.TERMINATED, Guard.NOT_GONE, FAILED),
			row(DISCONNECTED_TERMINATING_THEN_CONNECT, Event.RESET, Guard.ALWAYS, DISCONNECTED_TERMINATING_THEN_CONNECT),
			row(DISCONNECTED_TERMINATING_THEN_CONNECT, Event.RESTART, Guard.ALWAYS, DISCONNECTED_TERMINATING_THEN_CONNECT),
			row(DISCONNECTED, Event.RESET, Guard.ALWAYS, RECONNECTING_CONNECTING),
			row(DISCONNECTED, Event.RESTART, Guard.ALWAYS, RECONNECTING_CONNECTING),
			row(NEEDS_AUTHORIZATION, Event.AUTHORIZED, Guard.TREE_UNCONFIRMED, RECONNECTING_TERMINATING_THEN_CONNECT),
			row(NEEDS_AUTHORIZATION, Event.AUTHORIZED, Guard.NO_TREE_UNCONFIRMED, RECONNECTING_CONNECTING),
			row(NEEDS_AUTHORIZATION, Event.RESET, Guard.TREE_UNCONFIRMED, RECONNECTING_TERMINATING_THEN_CONNECT),
			row(NEEDS_AUTHORIZATION, Event.RESTART, Guard.TREE_UNCONFIRMED, RECONNECTING_TERMINATING_THEN_CONNECT),
			row(NEEDS_AUTHORIZATION, Event.RESET, Guard.NO_TREE_UNCONFIRMED, RECONNECTING_CONNECTING),
			row(NEEDS_AUTHORIZATION, Event.RESTART, Guard.NO_TREE_UNCONFIRMED, RECONNECTING_CONNECTING),
			row(FAILED, Event.RESET, Guard.TREE_UNCONFIRMED, RECONNECTING_TERMINATING_THEN_CONNECT),
			row(FAILED, Event.RESTART, Guard.TREE_UNCONFIRMED, RECONNECTING_TERMINATING_THEN_CONNECT),
			row(FAILED, Event.RESET, Guard.NO_TREE_UNCONFIRMED, RECONNECTING_CONNECTING),
			row(FAILED, Event.RESTART, Guard.NO_TREE_UNCONFIRMED, RECONNECTING_CONNECTING),
			row(FAILED, Event.COOLDOWN_OVER, Guard.TREE_UNCONFIRMED, RECONNECTING_TERMINATING_THEN_CONNECT),
			row(FAILED, Event.COOLDOWN_OVER, Guard.NO_TREE_UNCONFIRMED, RECONNECTING_CONNECTING),
			row(IDLE, Event.CALLED, Guard.TREE_UNCONFIRMED, STARTING_TERMINATING_THEN_CONNECT),
			row(IDLE, Event.RESTART, Guard.TREE_UNCONFIRMED, STARTING_TERMINATING_THEN_CONNECT),
			row(IDLE, Event.CALLED, Guard.NO_TREE_UNCONFIRMED, STARTING_CONNECTING),
			row(IDLE, Event.RESTART, Guard.NO_TREE_UNCONFIRMED, STARTING_CONNECTING),
			row(IDLE_STOPPING, Event.TERMINATED, Guard.GONE, IDLE),
			row(IDLE_STOPPING, Event.TERMINATED, Guard.NOT_GONE, FAILED),
			row(IDLE_STOPPING, Event.CALLED, Guard.ALWAYS, IDLE_STOPPING_THEN_CONNECT),
			row(IDLE_STOPPING, Event.RESTART, Guard.ALWAYS, IDLE_STOPPING_THEN_CONNECT),
			row(IDLE_STOPPING_THEN_CONNECT, Event.TERMINATED, Guard.GONE, STARTING_CONNECTING),
			row(IDLE_STOPPING_THEN_CONNECT, Event.TERMINATED, Guard.NOT_GONE, FAILED),
			row(IDLE_STOPPING_THEN_CONNECT, Event.RESTART, Guard.ALWAYS, IDLE_STOPPING_THEN_CONNECT),
			row(STARTING_AWAITING_STOP, Event.STOP, Guard.ALWAYS, STOPPED),
			row(STARTING_TERMINATING_THEN_CONNECT, Event.STOP, Guard.ALWAYS, STOPPED),
			row(STARTING_CONNECTING, Event.STOP, Guard.ALWAYS, STOPPED),
			row(STARTING_CONNECTING_AGAIN, Event.STOP, Guard.ALWAYS, STOPPED),
			row(UP, Event.STOP, Guard.ALWAYS, STOPPED),
			row(RECONNECTING_TERMINATING, Event.STOP, Guard.ALWAYS, STOPPED),
			row(RECONNECTING_TERMINATING_THEN_CONNECT, Event.STOP, Guard.ALWAYS, STOPPED),
			row(RECONNECTING_BACKING_OFF, Event.STOP, Guard.ALWAYS, STOPPED),
			row(RECONNECTING_CONNECTING, Event.STOP, Guard.ALWAYS, STOPPED),
			row(RECONNECTING_CONNECTING_AGAIN, Event.STOP, Guard.ALWAYS, STOPPED),
			row(DISCONNECTED_TERMINATING, Event.STOP, Guard.ALWAYS, STOPPED),
			row(DISCONNECTED_TERMINATING_THEN_CONNECT, Event.STOP, Guard.ALWAYS, STOPPED),
			row(DISCONNECTED, Event.STOP, Guard.ALWAYS, STOPPED),
			row(NEEDS_AUTHORIZATION, Event.STOP, Guard.ALWAYS, STOPPED),
			row(FAILED, Event.STOP, Guard.ALWAYS, STOPPED),
			row(IDLE, Event.STOP, Guard.ALWAYS, STOPPED),
			row(IDLE_STOPPING, Event.STOP, Guard.ALWAYS, STOPPED),
			row(IDLE_STOPPING_THEN_CONNECT, Event.STOP, Guard.ALWAYS, STOPPED));
	// @formatter:on

	/**
	 * Every transition the state machine may take: the moves of {@link #ROWS}.
	 */
	static final Set<Edge> TABLE = ROWS.stream().map(Row::edge).collect(Collectors.toUnmodifiableSet());

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
	 * Returns whether work runs in this phase (an attempt, a termination, a stop's
	 * terminations) that an attempt asked for meanwhile waits for.
	 * @return whether the phase is busy
	 */
	boolean busy() {
		return switch (this) {
			case STARTING_AWAITING_STOP, STARTING_TERMINATING_THEN_CONNECT, STARTING_CONNECTING,
					STARTING_CONNECTING_AGAIN, RECONNECTING_TERMINATING, RECONNECTING_TERMINATING_THEN_CONNECT,
					RECONNECTING_CONNECTING, RECONNECTING_CONNECTING_AGAIN, DISCONNECTED_TERMINATING,
					DISCONNECTED_TERMINATING_THEN_CONNECT, IDLE_STOPPING, IDLE_STOPPING_THEN_CONNECT ->
				true;
			case STOPPED, UP, RECONNECTING_BACKING_OFF, DISCONNECTED, NEEDS_AUTHORIZATION, FAILED, IDLE -> false;
		};
	}

	/**
	 * Chooses the move of an event: the first row of the phase and the event whose guard
	 * holds.
	 * @param from the phase
	 * @param event what happened
	 * @param facts what the guards see
	 * @return the row, or {@code null} when the event moves nothing in this phase
	 */
	static @Nullable Row choose(ServerPhase from, Event event, Facts facts) {
		for (Row row : ROWS) {
			if (row.from() == from && row.event() == event && row.guard().test(facts)) {
				return row;
			}
		}
		return null;
	}

	private static Row row(ServerPhase from, Event event, Guard guard, ServerPhase to) {
		return new Row(from, event, guard, to);
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
		STOP,

		/**
		 * A server stopped when idle had no call in flight and none for its idle time,
		 * and nothing keeps it awake.
		 */
		IDLE_DUE,

		/** A call came for a server that is idle. */
		CALLED

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

	/**
	 * One row of the transition table with its guard.
	 *
	 * @param from the phase before
	 * @param event what happened
	 * @param guard what must hold for this row to be the move
	 * @param to the phase after
	 */
	record Row(ServerPhase from, Event event, Guard guard, ServerPhase to) {

		Edge edge() {
			return new Edge(this.from, this.event, this.to);
		}

	}

	/**
	 * What chooses among the rows of a phase and an event, named as the Javadoc's table
	 * names it.
	 */
	enum Guard implements Predicate<Facts> {

		/** The only row of its phase and event. */
		ALWAYS("-", (facts) -> true),

		/** The last row of its phase and event: none above it holds. */
		OTHERWISE("otherwise", (facts) -> true),

		/** The terminations of the stop before a start still run. */
		STOP_RUNNING("a stop's work still runs", Facts::stopRunning),

		/** A tree of the server was found not confirmed gone, and not since. */
		TREE_UNCONFIRMED("a tree not confirmed gone", Facts::treeUnconfirmed),

		/** No tree of the server is left not confirmed gone. */
		NO_TREE_UNCONFIRMED("no tree unconfirmed", (facts) -> !facts.treeUnconfirmed()),

		/** The termination confirmed its tree gone. */
		GONE("confirmed gone", Facts::confirmedGone),

		/** The termination could not confirm its tree gone. */
		NOT_GONE("not confirmed gone", (facts) -> !facts.confirmedGone()),

		/** The attempt failed for a cause no retry helps. */
		MISCONFIGURED("configuration error", (facts) -> facts.failure() == Kind.CONFIGURATION),

		/** The failed attempt left a tree that could not be confirmed gone. */
		ATTEMPT_NOT_GONE("its tree not confirmed gone", (facts) -> facts.failure() == Kind.NOT_CONFIRMED_DEAD),

		/** The attempt failed for want of an authorization. */
		UNAUTHORIZED("authorization needed", (facts) -> facts.failure() == Kind.AUTHORIZATION),

		/** The policy reconnects. */
		RECONNECT_ENABLED("reconnect enabled", Facts::reconnects),

		/** The policy does not reconnect. */
		RECONNECT_DISABLED("reconnect disabled", (facts) -> !facts.reconnects()),

		/** The outage budget has an attempt left. */
		BUDGET_LEFT("budget left", Facts::budgetLeft),

		/** The outage budget is spent. */
		BUDGET_SPENT("budget spent", (facts) -> !facts.budgetLeft()),

		/** The standby's spare is ready. */
		SPARE_READY("a spare is ready", Facts::spareReady),

		/** The standby's spare is starting. */
		SPARE_STARTING("a spare is starting", Facts::spareStarting),

		/** The server starts on first use and its tools are known without starting it. */
		ON_FIRST_USE("on first use, tools known", Facts::onFirstUse);

		private final String description;

		private final Predicate<Facts> condition;

		Guard(String description, Predicate<Facts> condition) {
			this.description = description;
			this.condition = condition;
		}

		/**
		 * Returns the guard as the Javadoc's table names it.
		 * @return its description
		 */
		String description() {
			return this.description;
		}

		@Override
		public boolean test(Facts facts) {
			return this.condition.test(facts);
		}

	}

	/**
	 * What the guards see when an event comes: the server's situation, and the event's
	 * own facts.
	 *
	 * @param stopRunning whether the terminations of the stop before a start still run
	 * @param treeUnconfirmed whether a tree of the server is not confirmed gone
	 * @param confirmedGone whether the termination that ended confirmed its tree gone
	 * @param failure why the attempt that ended failed, if one failed
	 * @param budgetLeft whether the outage budget has an attempt left
	 * @param reconnects whether the policy reconnects
	 * @param spareReady whether the standby's spare is ready
	 * @param spareStarting whether the standby's spare is starting
	 * @param onFirstUse whether the server starts on first use and its tools are known
	 * without starting it
	 */
	record Facts(boolean stopRunning, boolean treeUnconfirmed, boolean confirmedGone, @Nullable Kind failure,
			boolean budgetLeft, boolean reconnects, boolean spareReady, boolean spareStarting, boolean onFirstUse) {

		Facts whileStopRuns(boolean running) {
			return new Facts(running, this.treeUnconfirmed, this.confirmedGone, this.failure, this.budgetLeft,
					this.reconnects, this.spareReady, this.spareStarting, this.onFirstUse);
		}

		Facts terminated(boolean confirmed) {
			return new Facts(this.stopRunning, this.treeUnconfirmed, confirmed, this.failure, this.budgetLeft,
					this.reconnects, this.spareReady, this.spareStarting, this.onFirstUse);
		}

		Facts failedFor(Kind kind) {
			return new Facts(this.stopRunning, this.treeUnconfirmed, this.confirmedGone, kind, this.budgetLeft,
					this.reconnects, this.spareReady, this.spareStarting, this.onFirstUse);
		}

	}

}
