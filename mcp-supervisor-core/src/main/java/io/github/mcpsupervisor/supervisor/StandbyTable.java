package io.github.mcpsupervisor.supervisor;

import java.util.List;
import java.util.Set;
import java.util.function.Predicate;
import java.util.stream.Collectors;

import io.github.mcpsupervisor.supervisor.McpConnector.McpConnectException.Kind;
import io.github.mcpsupervisor.supervisor.McpStandbyStatus.McpStandbyState;
import org.jspecify.annotations.Nullable;

/**
 * The transition table of a server's warm standby ({@link Standby}), as
 * {@link ServerPhase} holds the server's: {@link #ROWS} with their guards, which choose
 * each move, and {@link #TABLE} their moves, which the standby refuses to leave.
 */
final class StandbyTable {

	private static final McpStandbyState WAITING = McpStandbyState.WAITING;

	private static final McpStandbyState STARTING = McpStandbyState.STARTING;

	private static final McpStandbyState READY = McpStandbyState.READY;

	private static final McpStandbyState BACKING_OFF = McpStandbyState.BACKING_OFF;

	private static final McpStandbyState FAILED = McpStandbyState.FAILED;

	/**
	 * Every row of the standby's transition table with its guard, in the order of its
	 * Javadoc's table: of the rows of a state and an event, the first whose guard holds
	 * is the move.
	 */
	static final List<Row> ROWS = List.of(
	// @formatter:off
			row(WAITING, Event.REPLENISH, Guard.BUDGET_SPENT, FAILED),
			row(WAITING, Event.REPLENISH, Guard.TREE_UNCONFIRMED, FAILED),
			row(WAITING, Event.REPLENISH, Guard.OTHERWISE, STARTING),
			row(STARTING, Event.CONNECTED, Guard.ALWAYS, READY),
			row(STARTING, Event.START_FAILED, Guard.NO_RETRY_HELPS, FAILED),
			row(STARTING, Event.START_FAILED, Guard.BUDGET_LEFT, BACKING_OFF),
			row(STARTING, Event.START_FAILED, Guard.BUDGET_SPENT, FAILED),
			row(STARTING, Event.ADOPTED, Guard.ALWAYS, WAITING),
			row(STARTING, Event.SUSPEND, Guard.ALWAYS, WAITING),
			row(STARTING, Event.STOP, Guard.ALWAYS, WAITING),
			row(READY, Event.LOST, Guard.BUDGET_LEFT, BACKING_OFF),
			row(READY, Event.LOST, Guard.BUDGET_SPENT, FAILED),
			row(READY, Event.PROMOTED, Guard.SERVER_BUDGET_LEFT, BACKING_OFF),
			row(READY, Event.PROMOTED, Guard.SERVER_BUDGET_SPENT, FAILED),
			row(READY, Event.SUSPEND, Guard.ALWAYS, WAITING),
			row(READY, Event.STOP, Guard.ALWAYS, WAITING),
			row(BACKING_OFF, Event.RETRY_DUE, Guard.TREE_UNCONFIRMED, FAILED),
			row(BACKING_OFF, Event.RETRY_DUE, Guard.OTHERWISE, STARTING),
			row(BACKING_OFF, Event.SUSPEND, Guard.ALWAYS, WAITING),
			row(BACKING_OFF, Event.STOP, Guard.ALWAYS, WAITING),
			row(FAILED, Event.RESET, Guard.ALWAYS, WAITING),
			row(FAILED, Event.STOP, Guard.ALWAYS, WAITING));
	// @formatter:on

	/**
	 * Every transition the standby may take: the moves of {@link #ROWS}.
	 */
	static final Set<Edge> TABLE = ROWS.stream().map(Row::edge).collect(Collectors.toUnmodifiableSet());

	private StandbyTable() {
	}

	/**
	 * Chooses the move of an event: the first row of the state and the event whose guard
	 * holds.
	 * @param from the standby's state
	 * @param event what happened
	 * @param facts what the guards see
	 * @return the row, or {@code null} when the event moves nothing in this state
	 */
	static @Nullable Row choose(McpStandbyState from, Event event, Facts facts) {
		for (Row row : ROWS) {
			if (row.from() == from && row.event() == event && row.guard().test(facts)) {
				return row;
			}
		}
		return null;
	}

	private static Row row(McpStandbyState from, Event event, Guard guard, McpStandbyState to) {
		return new Row(from, event, guard, to);
	}

	/**
	 * What moves a standby from one state to another.
	 */
	enum Event {

		/** The server is up without a spare: it connected, or was reset while up. */
		REPLENISH,

		/** The starting spare connected. */
		CONNECTED,

		/** The starting spare failed, or its connection could not be created. */
		START_FAILED,

		/** The ready spare ended while it stood by. */
		LOST,

		/** The backoff before the next spare is over. */
		RETRY_DUE,

		/** The ready spare became the serving generation. */
		PROMOTED,

		/** The starting spare became the attempt of the server's reconnection. */
		ADOPTED,

		/** The server is no longer up: no spare is kept. */
		SUSPEND,

		/** A reset or restart of the server. */
		RESET,

		/** The server's stop. */
		STOP

	}

	/**
	 * What chooses among the rows of a state and an event, named as the Javadoc's table
	 * names it.
	 */
	enum Guard implements Predicate<Facts> {

		/** The only row of its state and event. */
		ALWAYS("-", (facts) -> true),

		/** The last row of its state and event: none above it holds. */
		OTHERWISE("otherwise", (facts) -> true),

		/** The standby's own budget has an attempt left. */
		BUDGET_LEFT("budget left", Facts::budgetLeft),

		/** The standby's own budget is spent. */
		BUDGET_SPENT("budget spent", (facts) -> !facts.budgetLeft()),

		/** The server's outage budget had an attempt left for the next spare. */
		SERVER_BUDGET_LEFT("the server's budget left", Facts::serverBudgetLeft),

		/** The server's outage budget is spent: its generations keep ending. */
		SERVER_BUDGET_SPENT("the server's budget spent", (facts) -> !facts.serverBudgetLeft()),

		/**
		 * A tree of the server is not confirmed gone: a spare would be a third process.
		 */
		TREE_UNCONFIRMED("a tree not confirmed gone", Facts::treeUnconfirmed),

		/**
		 * The spare failed for a cause no retry helps: a configuration error, a missing
		 * authorization, a tree not confirmed gone.
		 */
		NO_RETRY_HELPS("no retry helps", (facts) -> facts.failure() == Kind.CONFIGURATION
				|| facts.failure() == Kind.NOT_CONFIRMED_DEAD || facts.failure() == Kind.AUTHORIZATION);

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
	 * What the guards see when an event comes: the standby's and the server's situation,
	 * and the event's own facts.
	 *
	 * @param budgetLeft whether the standby's own budget has an attempt left
	 * @param treeUnconfirmed whether a tree of the server is not confirmed gone
	 * @param failure why the spare that ended failed to start, if it did
	 * @param serverBudgetLeft whether the server's outage budget gave the next spare an
	 * attempt after a promotion
	 */
	record Facts(boolean budgetLeft, boolean treeUnconfirmed, @Nullable Kind failure, boolean serverBudgetLeft) {

		Facts failedFor(Kind kind) {
			return new Facts(this.budgetLeft, this.treeUnconfirmed, kind, this.serverBudgetLeft);
		}

		Facts promotedWith(boolean serverBudgetLeft) {
			return new Facts(this.budgetLeft, this.treeUnconfirmed, this.failure, serverBudgetLeft);
		}

	}

	/**
	 * One move of the standby.
	 *
	 * @param from the state before
	 * @param event what happened
	 * @param to the state after
	 */
	record Edge(McpStandbyState from, Event event, McpStandbyState to) {

	}

	/**
	 * One row of the standby's transition table with its guard.
	 *
	 * @param from the state before
	 * @param event what happened
	 * @param guard what must hold for this row to be the move
	 * @param to the state after
	 */
	record Row(McpStandbyState from, Event event, Guard guard, McpStandbyState to) {

		Edge edge() {
			return new Edge(this.from, this.event, this.to);
		}

	}

}
