package io.github.mcpsupervisor.supervisor;

import java.time.Duration;
import java.time.Instant;
import java.util.Objects;
import java.util.Set;
import java.util.function.Consumer;

import io.github.mcpsupervisor.supervisor.McpConnector.McpConnectException;
import io.github.mcpsupervisor.supervisor.McpConnector.McpConnectException.Kind;
import io.github.mcpsupervisor.supervisor.McpConnector.McpConnection;
import io.github.mcpsupervisor.supervisor.McpServerStatus.ExitStatus;
import io.github.mcpsupervisor.supervisor.McpStandbyStatus.McpStandbyState;
import io.github.mcpsupervisor.supervisor.ServerRecord.Level;
import io.github.mcpsupervisor.supervisor.StandbyTable.Edge;
import io.github.mcpsupervisor.supervisor.StandbyTable.Event;
import io.github.mcpsupervisor.supervisor.StandbyTable.Facts;
import io.github.mcpsupervisor.supervisor.StandbyTable.Guard;
import io.github.mcpsupervisor.supervisor.StandbyTable.Row;
import io.github.mcpsupervisor.supervisor.SupervisorScheduler.Cancellable;
import org.jspecify.annotations.Nullable;

/**
 * The warm standby of a server that keeps one: at most one spare generation, started and
 * initialized (its tools listed) while the serving generation is up, that the state
 * machine promotes to serving at once when the serving generation ends. A spare never
 * serves before its promotion: calls only ever reach the live generation.
 *
 * <p>
 * The spare that follows a promotion waits for the server's backoff and takes an attempt
 * of its outage budget, as a reconnection would: a server whose generations keep ending
 * spends that budget as fast as without a standby, and once it is spent the next loss is
 * an outage again. A spare that fails to start, or ends while it stands by, is started
 * again after the reconnect policy's backoff, from a budget of its own so that failing
 * spares never spend the serving generation's outage budget; once that budget is spent
 * (or a spare fails for a cause no retry helps) no spare is kept until a reset or
 * restart: the server is reported, never hot-looped. The budget resets only when a spare
 * stays ready for the stability window, or on a reset or restart. Every method runs under
 * the supervisor's lock; blocking work (opening, terminating) runs on tracked workers.
 *
 * <p>
 * The standby is a state machine of its own, whose state ({@link McpStandbyState}) moves
 * only along a row of the table below ({@link StandbyTable}), as the server's does
 * ({@link ServerLifecycle}): of the rows of the state and the event, the first whose
 * guard holds is the move, read from the top, and an event that has no row in the state
 * changes nothing. Any other move is a defect: with assertions enabled (tests) it throws
 * an {@link AssertionError}; otherwise it is taken with an ERROR that names it, so that
 * the server goes on. A standby that is not enabled takes no move: it stays WAITING.
 *
 * <pre>
 * from        | event(s)      | guard                     | to          | effect
 * WAITING     | REPLENISH     | budget spent              | FAILED      | give up
 * WAITING     | REPLENISH     | a tree not confirmed gone | FAILED      | take an attempt, give up
 * WAITING     | REPLENISH     | otherwise                 | STARTING    | take an attempt, launch
 * STARTING    | CONNECTED     | -                         | READY       | plan the stability window
 * STARTING    | START_FAILED  | no retry helps            | FAILED      | give up
 * STARTING    | START_FAILED  | budget left               | BACKING_OFF | schedule the next spare
 * STARTING    | START_FAILED  | budget spent              | FAILED      | give up
 * STARTING    | ADOPTED       | -                         | WAITING     | -
 * STARTING    | SUSPEND, STOP | -                         | WAITING     | retire the spare
 * READY       | LOST          | budget left               | BACKING_OFF | retire the spare, schedule the next
 * READY       | LOST          | budget spent              | FAILED      | retire the spare, give up
 * READY       | PROMOTED      | the server's budget left  | BACKING_OFF | schedule the next spare after the server's delay
 * READY       | PROMOTED      | the server's budget spent | FAILED      | give up
 * READY       | SUSPEND, STOP | -                         | WAITING     | cancel the stability window, retire the spare
 * BACKING_OFF | RETRY_DUE     | a tree not confirmed gone | FAILED      | give up
 * BACKING_OFF | RETRY_DUE     | otherwise                 | STARTING    | launch
 * BACKING_OFF | SUSPEND, STOP | -                         | WAITING     | cancel the timer
 * FAILED      | RESET, STOP   | -                         | WAITING     | -
 * </pre>
 *
 * A stale event (a timer cancelled or superseded) changes nothing. A suspended or stopped
 * spare is retired in the background, as a spare that ended; the stability window of a
 * ready spare resets the standby's budget without a move.
 */
final class Standby {

	private static final String TREE_UNCONFIRMED = "a process tree of the server could not be confirmed gone; "
			+ "no spare is started beside it";

	private final boolean enabled;

	private final ReconnectPolicy policy;

	private final OutageBudget budget;

	private final SupervisorScheduler scheduler;

	private final SupervisorLock lock;

	private final ServerRecord record;

	private final Attempts attempts;

	private final Retirements retirements;

	private McpStandbyState state = McpStandbyState.WAITING;

	/** The spare while it starts or is ready. */
	private @Nullable McpConnection spare;

	/** The backoff before the next spare, or the ready spare's stability window. */
	private @Nullable Cancellable timer;

	/** Identifies the pending timer: a cancelled or superseded one is inert. */
	private int token;

	private @Nullable Instant nextAttemptAt;

	private @Nullable String lastError;

	private long promotions;

	/** The moves allowed: the table, or a part of it in tests. */
	private Set<Edge> table = StandbyTable.TABLE;

	/** Whether a move outside the table throws: when assertions are enabled (tests). */
	private boolean strict = Standby.class.desiredAssertionStatus();

	/** Sees every move attempted, before it is checked (for tests). */
	private Consumer<Edge> moves = (edge) -> {
	};

	/** Sees every row chosen (for tests). */
	private Consumer<Row> choices = (row) -> {
	};

	Standby(boolean enabled, ReconnectPolicy policy, SupervisorScheduler scheduler, SupervisorLock lock,
			ServerRecord record, Attempts attempts, Retirements retirements) {
		this.enabled = enabled && policy.enabled();
		this.policy = policy;
		this.budget = new OutageBudget(policy);
		this.scheduler = scheduler;
		this.lock = lock;
		this.record = record;
		this.attempts = attempts;
		this.retirements = retirements;
	}

	/**
	 * Starts a spare at once if none is kept and none waits for its backoff; called once
	 * the server has connected.
	 */
	void replenish() {
		if (!this.enabled) {
			return;
		}
		Row row = choose(Event.REPLENISH, facts());
		if (row == null) {
			return; // a spare is kept or waits for its backoff, or the standby failed
		}
		if (row.guard() == Guard.BUDGET_SPENT) {
			giveUp(row, "gave up after " + this.budget.max() + " spare attempts");
			return;
		}
		this.budget.takeImmediate();
		if (row.guard() == Guard.TREE_UNCONFIRMED) {
			giveUp(row, TREE_UNCONFIRMED);
			return;
		}
		launch(row);
	}

	/**
	 * Returns the spare that is ready to serve.
	 * @return the spare, or {@code null} when none is ready (or it has just ended)
	 */
	@Nullable McpConnection readySpare() {
		McpConnection ready = this.spare;
		return (this.state == McpStandbyState.READY && ready != null && !ready.isLost()) ? ready : null;
	}

	/**
	 * Returns the spare, starting or ready, that the state machine chose to promote.
	 * @return the spare
	 */
	McpConnection spare() {
		return Objects.requireNonNull(this.spare, "no spare");
	}

	/**
	 * Returns whether a spare is starting.
	 * @return whether one is
	 */
	boolean starting() {
		return this.state == McpStandbyState.STARTING && this.spare != null;
	}

	/**
	 * The ready spare became the serving generation (the state machine found it ready):
	 * the spare that follows waits for the server's own backoff, from its outage budget,
	 * as a reconnection would (a server whose generations keep ending spends it as fast
	 * without a standby).
	 * @param delay the delay taken from the server's outage budget, {@code null} when it
	 * is spent
	 */
	void promoted(@Nullable Duration delay) {
		Row row = require(Event.PROMOTED, facts().promotedWith(delay != null));
		this.spare = null;
		cancelTimer();
		this.promotions++;
		if (delay == null) {
			giveUp(row, "the server's outage budget is spent: its generations keep ending");
			return;
		}
		launchAfter(row, delay);
	}

	/**
	 * Returns whether a connection is the spare (starting or ready).
	 * @param connection the connection
	 * @return whether it is the spare
	 */
	boolean holds(McpConnection connection) {
		return this.spare == connection;
	}

	/**
	 * The starting spare connected: it stands by.
	 * @param connection the spare
	 */
	void connected(McpConnection connection) {
		moveTo(require(Event.CONNECTED, facts()));
		this.record.spareFinished(connection.generation(), true);
		Long pid = connection.pid();
		this.record.log(Level.INFO, "spare generation " + connection.generation() + " ready ("
				+ ((pid != null) ? "pid " + pid + ", " : "") + connection.tools().size() + " tools)");
		schedule(this.policy.stabilityWindow(), () -> {
			if (this.spare == connection && this.state == McpStandbyState.READY) {
				this.budget.reset();
				this.record.log(Level.DEBUG,
						"spare generation " + connection.generation() + " stable, standby budget reset");
			}
		});
	}

	/**
	 * The starting spare failed.
	 * @param connection the spare
	 * @param ex why
	 */
	void failed(McpConnection connection, McpConnectException ex) {
		this.spare = null;
		this.record.spareFinished(connection.generation(), false);
		startFailed(connection.generation(), "spare failed to start: " + ex.getMessage(), ex.getKind());
	}

	/**
	 * The ready spare ended while it stood by: it is retired, and another one started
	 * after the backoff.
	 * @param connection the spare
	 * @param exit its process's exit, if it has one
	 */
	void lost(McpConnection connection, @Nullable ExitStatus exit) {
		this.spare = null;
		cancelTimer();
		this.lock.later(() -> this.retirements.retireInBackground(connection));
		String reason = "spare ended: " + ((exit != null) ? exit.describe() : connection.lossReason());
		this.lastError = reason;
		backOff(require(Event.LOST, facts()), connection.generation(), reason);
	}

	/**
	 * Takes the starting spare to be the attempt of the reconnection that the serving
	 * generation's loss begins, as the state machine chose when it found it starting.
	 * @return the spare
	 */
	McpConnection adoptStarting() {
		McpConnection starting = Objects.requireNonNull(this.spare, "no spare to adopt");
		moveTo(require(Event.ADOPTED, facts()));
		this.spare = null;
		return starting;
	}

	/**
	 * Keeps no spare while the server is not up: a ready or starting one is retired, a
	 * backoff cancelled; a failed standby stays failed.
	 */
	void suspend() {
		McpConnection dropped = this.spare;
		this.spare = null;
		Row row = choose(Event.SUSPEND, facts());
		if (row != null) {
			cancelTimer();
			moveTo(row);
			this.nextAttemptAt = null;
		}
		if (dropped != null) {
			this.lock.later(() -> this.retirements.retireInBackground(dropped));
		}
	}

	/**
	 * Clears the budget (a reset or restart): a failed standby keeps spares again.
	 */
	void reset() {
		this.budget.reset();
		Row row = choose(Event.RESET, facts());
		if (row != null) {
			moveTo(row);
		}
	}

	/**
	 * Ends the standby for a stop: no timer is left.
	 * @return the spare that the stop must end, if any
	 */
	@Nullable McpConnection stop() {
		McpConnection stopped = this.spare;
		this.spare = null;
		cancelTimer();
		Row row = choose(Event.STOP, facts());
		if (row != null) {
			moveTo(row);
		}
		this.nextAttemptAt = null;
		return stopped;
	}

	/**
	 * Forgets the failures of a previous run (a start): the stop before it left the
	 * standby WAITING.
	 */
	void newRun() {
		this.budget.reset();
		this.lastError = null;
	}

	@Nullable McpStandbyStatus status() {
		if (!this.enabled) {
			return null;
		}
		McpConnection connection = this.spare;
		return new McpStandbyStatus(this.state, (connection != null) ? connection.generation() : null,
				(connection != null) ? connection.pid() : null, this.budget.used(), this.budget.max(),
				this.nextAttemptAt, this.lastError, this.promotions);
	}

	// The moves, under the lock: the table chooses them, the code has their effects.

	private void launch(Row row) {
		moveTo(row);
		int generation = this.record.nextGeneration();
		this.nextAttemptAt = null;
		McpConnection connection;
		try {
			connection = this.attempts.create(generation);
		}
		catch (McpConnectException ex) {
			startFailed(generation, "spare failed to start: " + ex.getMessage(), ex.getKind());
			return;
		}
		this.spare = connection;
		this.record.log(Level.DEBUG, "starting spare generation " + generation);
		this.attempts.open(connection);
	}

	private void startFailed(int generation, String reason, Kind kind) {
		this.lastError = reason;
		Row row = require(Event.START_FAILED, facts().failedFor(kind));
		if (row.guard() == Guard.NO_RETRY_HELPS) {
			giveUp(row, reason);
			return;
		}
		backOff(row, generation, reason);
	}

	// The next spare after the policy's backoff, from the standby's own budget.
	private void backOff(Row row, int generation, String reason) {
		if (row.guard() == Guard.BUDGET_SPENT) {
			giveUp(row, reason + "; gave up after " + this.budget.max() + " spare attempts");
			return;
		}
		Duration delay = Objects.requireNonNull(this.budget.takeNext());
		this.record.log(Level.WARN, "spare generation " + generation + ": " + reason + "; next spare "
				+ this.budget.used() + "/" + this.budget.max() + " in " + delay.toMillis() + " ms");
		launchAfter(row, delay);
	}

	private void launchAfter(Row row, Duration delay) {
		moveTo(row);
		this.nextAttemptAt = this.record.now().plus(delay);
		schedule(delay, this::retryDue);
	}

	private void retryDue() {
		Row row = choose(Event.RETRY_DUE, facts());
		if (row == null) {
			return;
		}
		if (row.guard() == Guard.TREE_UNCONFIRMED) {
			giveUp(row, TREE_UNCONFIRMED);
			return;
		}
		launch(row);
	}

	private void giveUp(Row row, String reason) {
		cancelTimer();
		moveTo(row);
		this.lastError = reason;
		this.nextAttemptAt = null;
		this.record.log(Level.ERROR, "standby: " + reason + "; no spare is kept until the server is reset or "
				+ "restarted (the serving generation is not affected). " + this.record.resetHint());
	}

	// What the guards of the table see now; an event adds its own facts.
	private Facts facts() {
		return new Facts(this.budget.hasLeft(), this.record.unconfirmedTree() != null, null, true);
	}

	private @Nullable Row choose(Event event, Facts facts) {
		Row row = StandbyTable.choose(this.state, event, facts);
		if (row != null) {
			this.choices.accept(row);
		}
		return row;
	}

	// The move of an event that every state it comes in has a row for.
	private Row require(Event event, Facts facts) {
		Row row = choose(event, facts);
		if (row == null) {
			throw new IllegalStateException("MCP server '" + this.record.name()
					+ "': no row of the standby's table for " + event + " in " + this.state + " (" + facts + ")");
		}
		return row;
	}

	private void moveTo(Row row) {
		McpStandbyState from = this.state;
		Edge edge = new Edge(from, row.event(), row.to());
		this.moves.accept(edge);
		if (!this.table.contains(edge)) {
			String illegal = "no transition " + from + " --" + row.event() + "--> " + row.to();
			if (this.strict) {
				throw new AssertionError("MCP server '" + this.record.name() + "': standby: " + illegal);
			}
			// the effects of the move asked for follow: refusing it would leave the
			// state and those effects apart
			this.record.log(Level.ERROR, "standby: " + illegal + " in the standby's table; it is taken anyway so that "
					+ "the server goes on. This is a defect of mcp-supervisor: please report it with this log");
		}
		this.state = row.to();
	}

	private void schedule(Duration delay, Runnable due) {
		cancelTimer();
		int scheduled = ++this.token;
		this.timer = this.scheduler.schedule(delay, () -> this.lock.step(() -> {
			if (scheduled == this.token && this.timer != null) {
				this.timer = null;
				due.run();
			}
		}));
	}

	private void cancelTimer() {
		this.token++;
		if (this.timer != null) {
			this.timer.cancel();
			this.timer = null;
		}
	}

	// For tests: what the standby does.

	void observeMoves(Consumer<Edge> observer) {
		this.moves = observer;
	}

	void observeChoices(Consumer<Row> observer) {
		this.choices = observer;
	}

	// For tests: which moves are allowed, and whether one outside them throws.
	void checkMoves(Set<Edge> table, boolean strict) {
		this.table = table;
		this.strict = strict;
	}

}
