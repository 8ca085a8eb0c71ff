package io.github.mcpsupervisor.supervisor;

import java.time.Duration;
import java.time.Instant;
import java.util.Objects;

import io.github.mcpsupervisor.supervisor.McpConnectException.Kind;
import io.github.mcpsupervisor.supervisor.ServerRecord.Level;
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
 */
final class Standby {

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
		if (!this.enabled || this.state != McpStandbyState.WAITING) {
			return;
		}
		if (!this.budget.takeImmediate()) {
			giveUp("gave up after " + this.budget.max() + " spare attempts");
			return;
		}
		launch();
	}

	/**
	 * Plans the spare that follows a promotion: a generation ended, so the next spare
	 * waits for the server's own backoff, from its outage budget, as a reconnection would
	 * (a server whose generations keep ending spends it as fast without a standby).
	 * @param delay the delay taken from the server's outage budget, {@code null} when it
	 * is spent
	 */
	void promoted(@Nullable Duration delay) {
		if (delay == null) {
			giveUp("the server's outage budget is spent: its generations keep ending");
			return;
		}
		launchAfter(delay);
	}

	private void launch() {
		if (this.record.unconfirmedTree() != null) {
			giveUp("a process tree of the server could not be confirmed gone; no spare is started beside it");
			return;
		}
		int generation = this.record.nextGeneration();
		this.nextAttemptAt = null;
		McpConnection connection;
		try {
			connection = this.attempts.create(generation);
		}
		catch (McpConnectException ex) {
			backOff(generation, "spare failed to start: " + ex.getMessage(), ex.getKind());
			return;
		}
		this.spare = connection;
		this.state = McpStandbyState.STARTING;
		this.record.log(Level.DEBUG, "starting spare generation " + generation);
		this.attempts.open(connection);
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
		this.state = McpStandbyState.READY;
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
		backOff(connection.generation(), "spare failed to start: " + ex.getMessage(), ex.getKind());
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
		this.lock.later(() -> this.retirements.retireSpare(connection));
		backOff(connection.generation(), "spare ended: " + ((exit != null) ? exit.describe() : connection.lossReason()),
				Kind.TRANSIENT);
	}

	private void backOff(int generation, String reason, Kind kind) {
		this.lastError = reason;
		if (kind == Kind.CONFIGURATION || kind == Kind.NOT_CONFIRMED_DEAD || kind == Kind.AUTHORIZATION) {
			giveUp(reason);
			return;
		}
		Duration delay = this.budget.takeNext();
		if (delay == null) {
			giveUp(reason + "; gave up after " + this.budget.max() + " spare attempts");
			return;
		}
		this.record.log(Level.WARN, "spare generation " + generation + ": " + reason + "; next spare "
				+ this.budget.used() + "/" + this.budget.max() + " in " + delay.toMillis() + " ms");
		launchAfter(delay);
	}

	private void launchAfter(Duration delay) {
		this.state = McpStandbyState.BACKING_OFF;
		this.nextAttemptAt = this.record.now().plus(delay);
		schedule(delay, () -> {
			if (this.state == McpStandbyState.BACKING_OFF) {
				launch();
			}
		});
	}

	private void giveUp(String reason) {
		cancelTimer();
		this.state = McpStandbyState.FAILED;
		this.lastError = reason;
		this.nextAttemptAt = null;
		this.record.log(Level.ERROR, "standby: " + reason + "; no spare is kept until the server is reset or "
				+ "restarted (the serving generation is not affected). " + this.record.resetHint());
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
	 * Returns whether a spare is starting.
	 * @return whether one is
	 */
	boolean starting() {
		return this.state == McpStandbyState.STARTING && this.spare != null;
	}

	/**
	 * Takes the ready spare to serve, as the state machine chose when it found it ready:
	 * the caller makes it the live generation.
	 * @return the spare
	 */
	McpConnection promote() {
		McpConnection ready = Objects.requireNonNull(this.spare, "no spare to promote");
		this.spare = null;
		cancelTimer();
		this.state = McpStandbyState.WAITING;
		this.promotions++;
		return ready;
	}

	/**
	 * Takes the starting spare to be the attempt of the reconnection that the serving
	 * generation's loss begins, as the state machine chose when it found it starting.
	 * @return the spare
	 */
	McpConnection adoptStarting() {
		McpConnection starting = Objects.requireNonNull(this.spare, "no spare to adopt");
		this.spare = null;
		this.state = McpStandbyState.WAITING;
		return starting;
	}

	/**
	 * Keeps no spare while the server is not up: a ready or starting one is retired, a
	 * backoff cancelled; a failed standby stays failed.
	 */
	void suspend() {
		McpConnection dropped = this.spare;
		this.spare = null;
		if (this.state != McpStandbyState.FAILED) {
			cancelTimer();
			this.state = McpStandbyState.WAITING;
			this.nextAttemptAt = null;
		}
		if (dropped != null) {
			this.lock.later(() -> this.retirements.retireSpare(dropped));
		}
	}

	/**
	 * Clears the budget (a reset or restart): a failed standby keeps spares again.
	 */
	void reset() {
		this.budget.reset();
		if (this.state == McpStandbyState.FAILED) {
			this.state = McpStandbyState.WAITING;
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
		this.state = McpStandbyState.WAITING;
		this.nextAttemptAt = null;
		return stopped;
	}

	/**
	 * Forgets the failures of a previous run (a start).
	 */
	void newRun() {
		this.budget.reset();
		this.lastError = null;
		this.state = McpStandbyState.WAITING;
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

}
