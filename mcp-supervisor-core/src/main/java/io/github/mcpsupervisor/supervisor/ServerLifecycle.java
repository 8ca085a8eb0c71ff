package io.github.mcpsupervisor.supervisor;

import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;

import io.github.mcpsupervisor.supervisor.McpConnector.McpConnectException;
import io.github.mcpsupervisor.supervisor.McpConnector.McpConnectException.Kind;
import io.github.mcpsupervisor.supervisor.McpConnector.McpConnection;
import io.github.mcpsupervisor.supervisor.McpServerStatus.ExitStatus;
import io.github.mcpsupervisor.supervisor.ServerPhase.Edge;
import io.github.mcpsupervisor.supervisor.ServerPhase.Event;
import io.github.mcpsupervisor.supervisor.ServerPhase.Facts;
import io.github.mcpsupervisor.supervisor.ServerPhase.Guard;
import io.github.mcpsupervisor.supervisor.ServerPhase.Row;
import io.github.mcpsupervisor.supervisor.ServerRecord.Level;
import io.github.mcpsupervisor.supervisor.SupervisorListener.RestartCause;
import org.jspecify.annotations.Nullable;

/**
 * The state machine of one supervised server: its phase, every transition with its guard,
 * and the generations it connects and retires.
 *
 * <p>
 * Every step runs under the supervisor's lock and moves the phase only along a row of the
 * table below ({@link ServerPhase#TABLE}, checked by {@link CheckedPhase}). Any other
 * move is a defect: with assertions enabled (tests) it throws an {@link AssertionError};
 * otherwise it is taken with an ERROR that names it, so that a running application's
 * server never wedges. A move between two public states announces the change. Blocking
 * effects (opening a client, closing it, terminating a tree) run outside the lock on
 * tracked workers ({@link Attempts}, {@link Retirements}) and come back as events,
 * through a relay bound once the state machine is built ({@link LifecycleEvents},
 * {@link #create}): no object is handed it while it is constructed. Notifications and log
 * lines run after the step ({@link SupervisorLock#later(Runnable)}). A stale event (an
 * attempt, a termination or a timer of a phase already left) changes nothing but the
 * record of trees not confirmed gone.
 *
 * <p>
 * The table chooses each move ({@link ServerPhase#ROWS}): of the rows of the phase and
 * the event, the first whose guard holds, read from the top; an event that has no row in
 * the phase changes nothing. The guards read what {@link ServerPhase.Facts} holds: the
 * event's own facts (why an attempt failed, whether a termination confirmed its tree
 * gone) and the server's (its budget, its policy, its standby, a tree not confirmed
 * gone). The code has the effects of the row chosen.
 *
 * <pre>
 * from                                  | event(s)                   | guard                       | to                                    | effect
 * STOPPED                               | START                      | a stop's work still runs    | STARTING_AWAITING_STOP                | wait for it
 * STOPPED                               | START                      | a tree not confirmed gone   | STARTING_TERMINATING_THEN_CONNECT     | terminate it again
 * STOPPED                               | START                      | on first use, tools known   | IDLE                                  | list the catalog's tools
 * STOPPED                               | START                      | otherwise                   | STARTING_CONNECTING                   | launch
 * STARTING_AWAITING_STOP                | STOP_ENDED                 | a tree not confirmed gone   | STARTING_TERMINATING_THEN_CONNECT     | terminate it again
 * STARTING_AWAITING_STOP                | STOP_ENDED                 | on first use, tools known   | IDLE                                  | list the catalog's tools
 * STARTING_AWAITING_STOP                | STOP_ENDED                 | otherwise                   | STARTING_CONNECTING                   | launch
 * STARTING_AWAITING_STOP                | RESTART                    | -                           | STARTING_AWAITING_STOP                | -
 * STARTING_TERMINATING_THEN_CONNECT     | TERMINATED                 | confirmed gone              | STARTING_CONNECTING                   | launch
 * STARTING_TERMINATING_THEN_CONNECT     | TERMINATED                 | not confirmed gone          | FAILED                                | withdraw tools
 * STARTING_TERMINATING_THEN_CONNECT     | RESTART                    | -                           | STARTING_TERMINATING_THEN_CONNECT     | -
 * STARTING_CONNECTING                   | CONNECTED                  | -                           | UP                                    | timers, tools, wake calls
 * STARTING_CONNECTING                   | ATTEMPT_FAILED             | configuration error         | FAILED                                | withdraw tools
 * STARTING_CONNECTING                   | ATTEMPT_FAILED             | its tree not confirmed gone | FAILED                                | withdraw tools
 * STARTING_CONNECTING                   | ATTEMPT_FAILED             | authorization needed        | NEEDS_AUTHORIZATION                   | -
 * STARTING_CONNECTING                   | ATTEMPT_FAILED             | reconnect disabled          | DISCONNECTED                          | -
 * STARTING_CONNECTING                   | ATTEMPT_FAILED             | budget left                 | RECONNECTING_BACKING_OFF              | schedule the retry
 * STARTING_CONNECTING                   | ATTEMPT_FAILED             | budget spent                | FAILED                                | plan the cooldown, withdraw tools
 * STARTING_CONNECTING                   | RESTART, AUTHORIZED        | -                           | STARTING_CONNECTING_AGAIN             | -
 * STARTING_CONNECTING_AGAIN             | CONNECTED                  | -                           | UP                                    | timers, tools, wake calls
 * STARTING_CONNECTING_AGAIN             | ATTEMPT_FAILED             | configuration error         | FAILED                                | withdraw tools
 * STARTING_CONNECTING_AGAIN             | ATTEMPT_FAILED             | its tree not confirmed gone | FAILED                                | withdraw tools
 * STARTING_CONNECTING_AGAIN             | ATTEMPT_FAILED             | otherwise                   | STARTING_CONNECTING                   | launch
 * STARTING_CONNECTING_AGAIN             | RESTART, AUTHORIZED        | -                           | STARTING_CONNECTING_AGAIN             | -
 * UP                                    | LOST                       | a spare is ready            | UP                                    | promote it, close, terminate
 * UP                                    | LOST                       | a spare is starting         | RECONNECTING_CONNECTING               | adopt its attempt, close, terminate
 * UP                                    | LOST                       | reconnect enabled           | RECONNECTING_TERMINATING              | close, terminate
 * UP                                    | LOST                       | reconnect disabled          | DISCONNECTED_TERMINATING              | close, terminate
 * UP                                    | SURVIVED_KILL              | -                           | FAILED                                | withdraw tools
 * UP                                    | RESTART                    | a spare is ready            | UP                                    | promote it, close, terminate
 * UP                                    | RESTART                    | otherwise                   | RECONNECTING_TERMINATING_THEN_CONNECT | close, terminate
 * UP                                    | IDLE_DUE                   | -                           | IDLE_STOPPING                         | retire the spare, close, terminate
 * RECONNECTING_TERMINATING              | TERMINATED                 | not confirmed gone          | FAILED                                | withdraw tools
 * RECONNECTING_TERMINATING              | TERMINATED                 | budget left                 | RECONNECTING_BACKING_OFF              | schedule the retry
 * RECONNECTING_TERMINATING              | TERMINATED                 | budget spent                | FAILED                                | plan the cooldown, withdraw tools
 * RECONNECTING_TERMINATING              | RESET, RESTART             | -                           | RECONNECTING_TERMINATING_THEN_CONNECT | -
 * RECONNECTING_TERMINATING_THEN_CONNECT | TERMINATED                 | confirmed gone              | RECONNECTING_CONNECTING               | launch
 * RECONNECTING_TERMINATING_THEN_CONNECT | TERMINATED                 | not confirmed gone          | FAILED                                | withdraw tools
 * RECONNECTING_TERMINATING_THEN_CONNECT | RESET, RESTART             | -                           | RECONNECTING_TERMINATING_THEN_CONNECT | -
 * RECONNECTING_BACKING_OFF              | RETRY_DUE                  | a tree not confirmed gone   | RECONNECTING_TERMINATING_THEN_CONNECT | terminate it again
 * RECONNECTING_BACKING_OFF              | RETRY_DUE                  | no tree unconfirmed         | RECONNECTING_CONNECTING               | launch
 * RECONNECTING_BACKING_OFF              | RESET, RESTART             | a tree not confirmed gone   | RECONNECTING_TERMINATING_THEN_CONNECT | cancel the timer, terminate it again
 * RECONNECTING_BACKING_OFF              | RESET, RESTART             | no tree unconfirmed         | RECONNECTING_CONNECTING               | cancel the timer, launch
 * RECONNECTING_CONNECTING               | CONNECTED                  | -                           | UP                                    | timers, tools, wake calls
 * RECONNECTING_CONNECTING               | ATTEMPT_FAILED             | configuration error         | FAILED                                | withdraw tools
 * RECONNECTING_CONNECTING               | ATTEMPT_FAILED             | its tree not confirmed gone | FAILED                                | withdraw tools
 * RECONNECTING_CONNECTING               | ATTEMPT_FAILED             | authorization needed        | NEEDS_AUTHORIZATION                   | -
 * RECONNECTING_CONNECTING               | ATTEMPT_FAILED             | reconnect disabled          | DISCONNECTED                          | -
 * RECONNECTING_CONNECTING               | ATTEMPT_FAILED             | budget left                 | RECONNECTING_BACKING_OFF              | schedule the retry
 * RECONNECTING_CONNECTING               | ATTEMPT_FAILED             | budget spent                | FAILED                                | plan the cooldown, withdraw tools
 * RECONNECTING_CONNECTING               | RESET, RESTART, AUTHORIZED | -                           | RECONNECTING_CONNECTING_AGAIN         | -
 * RECONNECTING_CONNECTING_AGAIN         | CONNECTED                  | -                           | UP                                    | timers, tools, wake calls
 * RECONNECTING_CONNECTING_AGAIN         | ATTEMPT_FAILED             | configuration error         | FAILED                                | withdraw tools
 * RECONNECTING_CONNECTING_AGAIN         | ATTEMPT_FAILED             | its tree not confirmed gone | FAILED                                | withdraw tools
 * RECONNECTING_CONNECTING_AGAIN         | ATTEMPT_FAILED             | a tree not confirmed gone   | RECONNECTING_TERMINATING_THEN_CONNECT | terminate it again
 * RECONNECTING_CONNECTING_AGAIN         | ATTEMPT_FAILED             | otherwise                   | RECONNECTING_CONNECTING               | launch
 * RECONNECTING_CONNECTING_AGAIN         | RESET, RESTART, AUTHORIZED | -                           | RECONNECTING_CONNECTING_AGAIN         | -
 * DISCONNECTED_TERMINATING              | TERMINATED                 | confirmed gone              | DISCONNECTED                          | -
 * DISCONNECTED_TERMINATING              | TERMINATED                 | not confirmed gone          | FAILED                                | withdraw tools
 * DISCONNECTED_TERMINATING              | RESET, RESTART             | -                           | DISCONNECTED_TERMINATING_THEN_CONNECT | -
 * DISCONNECTED_TERMINATING_THEN_CONNECT | TERMINATED                 | confirmed gone              | RECONNECTING_CONNECTING               | launch
 * DISCONNECTED_TERMINATING_THEN_CONNECT | TERMINATED                 | not confirmed gone          | FAILED                                | withdraw tools
 * DISCONNECTED_TERMINATING_THEN_CONNECT | RESET, RESTART             | -                           | DISCONNECTED_TERMINATING_THEN_CONNECT | -
 * DISCONNECTED                          | RESET, RESTART             | -                           | RECONNECTING_CONNECTING               | launch
 * NEEDS_AUTHORIZATION                   | AUTHORIZED                 | a tree not confirmed gone   | RECONNECTING_TERMINATING_THEN_CONNECT | terminate it again
 * NEEDS_AUTHORIZATION                   | AUTHORIZED                 | no tree unconfirmed         | RECONNECTING_CONNECTING               | launch
 * NEEDS_AUTHORIZATION                   | RESET, RESTART             | a tree not confirmed gone   | RECONNECTING_TERMINATING_THEN_CONNECT | terminate it again
 * NEEDS_AUTHORIZATION                   | RESET, RESTART             | no tree unconfirmed         | RECONNECTING_CONNECTING               | launch
 * FAILED                                | RESET, RESTART             | a tree not confirmed gone   | RECONNECTING_TERMINATING_THEN_CONNECT | terminate it again
 * FAILED                                | RESET, RESTART             | no tree unconfirmed         | RECONNECTING_CONNECTING               | launch
 * FAILED                                | COOLDOWN_OVER              | a tree not confirmed gone   | RECONNECTING_TERMINATING_THEN_CONNECT | fresh budget, terminate it again
 * FAILED                                | COOLDOWN_OVER              | no tree unconfirmed         | RECONNECTING_CONNECTING               | fresh budget, launch
 * IDLE                                  | CALLED, RESTART            | a tree not confirmed gone   | STARTING_TERMINATING_THEN_CONNECT     | terminate it again
 * IDLE                                  | CALLED, RESTART            | no tree unconfirmed         | STARTING_CONNECTING                   | launch
 * IDLE_STOPPING                         | TERMINATED                 | confirmed gone              | IDLE                                  | -
 * IDLE_STOPPING                         | TERMINATED                 | not confirmed gone          | FAILED                                | withdraw tools
 * IDLE_STOPPING                         | CALLED, RESTART            | -                           | IDLE_STOPPING_THEN_CONNECT            | -
 * IDLE_STOPPING_THEN_CONNECT            | TERMINATED                 | confirmed gone              | STARTING_CONNECTING                   | launch
 * IDLE_STOPPING_THEN_CONNECT            | TERMINATED                 | not confirmed gone          | FAILED                                | withdraw tools
 * IDLE_STOPPING_THEN_CONNECT            | RESTART                    | -                           | IDLE_STOPPING_THEN_CONNECT            | -
 * any phase but STOPPED                 | STOP                       | -                           | STOPPED                               | cancel timers, terminate all, withdraw tools
 * </pre>
 *
 * A reset in a STARTING phase or in UP clears the budget and moves nothing. An attempt
 * that fails for want of an authorization is not retried, whatever the budget left:
 * NEEDS_AUTHORIZATION waits for the authorization itself
 * ({@link McpConnector#whenAuthorized}); one that comes while an attempt runs has the
 * attempt made again at once if it fails (it may have failed for want of it), and one
 * that comes in any other phase changes nothing. A phase that learns of a tree not
 * confirmed gone from a termination it waits for gives up (FAILED). One that learns of it
 * otherwise (a generation retired beside a spare, whose termination nothing waits for)
 * records it, and terminates it again before anything follows: a *_TERMINATING phase
 * after the tree it waits for; the end of a backoff or of a cooldown, an authorization,
 * or an attempt made again at once before its attempt. A reset or restart that connects
 * at once from RECONNECTING_BACKING_OFF announces RECONNECTING to RECONNECTING, as a new
 * outage would. The stability window of a live generation resets the budget without a
 * move.
 *
 * <p>
 * A server that starts on first use whose catalog holds its tools ({@link ToolCatalog})
 * goes from STOPPED to IDLE, its tools listed, and the first call (CALLED) starts it. A
 * server stopped while unused leaves UP once no call has been in flight for its idle time
 * (IDLE_DUE): its live generation is retired as a restart retires it, its spare with it,
 * and its tools stay listed. Neither takes an attempt of the outage budget, nor resets
 * it: an idle server has no outage; the start a call asks for is not an outage either,
 * and one that fails is backed off from the budget as any failed attempt. A call that
 * finds the server IDLE waits for the start as a call waits during a recovery; the calls
 * of such a server take their generation under the lock ({@link Activity}), so that no
 * call is ever sent to a generation being stopped while unused.
 *
 * <p>
 * A server with a warm standby ({@link Standby}) keeps a spare generation while it is UP.
 * When the live generation ends (lost, or restarted) a ready spare serves at once,
 * without an attempt: the phase stays UP and the ended generation's tree is terminated
 * without being waited for (it no longer serves: its client is closed). A spare still
 * starting when the live generation is lost becomes the reconnection's attempt. A tree
 * that such a termination cannot confirm gone is recorded, and no spare is started beside
 * it.
 *
 * <p>
 * The class is longer than 400 lines because the table (some 70 rows with their guards)
 * and the code of its rows are read together. What is neither a move nor a guard lives
 * beside it: the phase and its check ({@link CheckedPhase}), what is recorded and logged
 * ({@link ServerRecord}), what the jobs around the state machine see of it
 * ({@link LifecycleView}, which reads the phase and the record, never the state machine),
 * the backoff timer ({@link RetryTimer}) and the blocking work ({@link Attempts},
 * {@link Retirements}).
 */
final class ServerLifecycle implements Attempts.Outcomes, Retirements.Outcomes, IdleWatch.Owner {

	private final ReconnectPolicy policy;

	private final SupervisorLock lock;

	private final WorkTracker work;

	private final RecoveryWaiters waiters;

	private final ServerRecord record;

	private final Attempts attempts;

	private final Retirements retirements;

	private final LivenessProbe probe;

	private final LifecycleView view;

	private final RetryTimer retry;

	private final Standby standby;

	private final CheckedPhase phase;

	private final SupervisorScheduler scheduler;

	private final IdleWatch idleWatch;

	/** The catalog of a server that starts on first use. */
	private final KeptTools kept;

	/** The tools a start on first use read from the catalog, until it used them. */
	private ToolCatalog.@Nullable Listing catalogued;

	/**
	 * Whether the generation that comes up was started only to list the tools of a server
	 * that starts on first use: it is stopped as idle once up, if unused.
	 */
	private boolean listingOnly;

	/** The running attempt. */
	private @Nullable McpConnection connecting;

	/** The retired generation whose termination a *_TERMINATING phase waits for. */
	private @Nullable McpConnection retiring;

	/**
	 * Whether the attempt that follows a termination was taken from the budget when the
	 * termination was chosen in its place: the launch after it takes none again.
	 */
	private boolean launchTaken;

	/** The terminations of a stop that STARTING_AWAITING_STOP waits for. */
	private @Nullable CompletableFuture<Void> awaitedStop;

	private ServerLifecycle(ReconnectPolicy policy, SupervisorLock lock, WorkTracker work, RecoveryWaiters waiters,
			ServerRecord record, CheckedPhase phase, Attempts attempts, Retirements retirements, LivenessProbe probe,
			LifecycleView view, RetryTimer retry, Standby standby, Unused unused) {
		this.policy = policy;
		this.lock = lock;
		this.work = work;
		this.waiters = waiters;
		this.record = record;
		this.phase = phase;
		this.attempts = attempts;
		this.retirements = retirements;
		this.probe = probe;
		this.view = view;
		this.retry = retry;
		this.standby = standby;
		this.scheduler = unused.scheduler();
		this.idleWatch = unused.idleWatch();
		this.kept = unused.kept();
	}

	/**
	 * Builds the state machine of a server and the objects around it, each before those
	 * that use it: what reports to the state machine does so through a relay bound to it
	 * once it is built.
	 * @param name the server's name
	 * @param connector creates its generations
	 * @param scheduler its time and threads
	 * @param policy its reconnect policy
	 * @param calls its call policy
	 * @param healthCheck its liveness probe's policy
	 * @param listener what is told of its events
	 * @param toolsWhenDown what becomes of its tools while it is down
	 * @param standby whether it keeps a warm spare
	 * @param firstUse the catalog of a server that starts on first use, {@code null} for
	 * one started at once
	 * @param idleTimeout how long the server may be unused before it is stopped,
	 * {@code null} for never
	 * @return the state machine
	 */
	static ServerLifecycle create(String name, McpConnector connector, SupervisorScheduler scheduler,
			ReconnectPolicy policy, CallPolicy calls, HealthCheckPolicy healthCheck, SupervisorListener listener,
			ToolsWhenDown toolsWhenDown, boolean standby, @Nullable ToolCatalog firstUse,
			@Nullable Duration idleTimeout) {
		SupervisorLock lock = new SupervisorLock(name);
		WorkTracker work = new WorkTracker(scheduler, name);
		RecoveryWaiters waiters = new RecoveryWaiters(calls.waitForRecovery(), scheduler, lock);
		ServerRecord record = new ServerRecord(name, policy, lock, scheduler, listener, connector::redact,
				toolsWhenDown);
		CheckedPhase phase = new CheckedPhase(record);
		LifecycleEvents events = new LifecycleEvents();
		Retirements retirements = new Retirements(name, work, events);
		Activity activity = (firstUse != null || idleTimeout != null) ? new Activity(idleTimeout, scheduler.clock())
				: Activity.NONE;
		KeptTools kept = new KeptTools(name, firstUse, work, scheduler);
		LifecycleView view = new LifecycleView(phase, record, lock, waiters, policy, retirements, activity, kept);
		LivenessProbe probe = new LivenessProbe(healthCheck, scheduler, lock, view);
		ToolSync toolSync = new ToolSync(view, lock, work, scheduler);
		Attempts attempts = new Attempts(name, connector, work, toolSync::changed, events);
		Standby spare = new Standby(standby, policy, scheduler, lock, record, attempts, retirements);
		ServerLifecycle lifecycle = new ServerLifecycle(policy, lock, work, waiters, record, phase, attempts,
				retirements, probe, view, new RetryTimer(scheduler, lock, record), spare,
				new Unused(scheduler, new IdleWatch(scheduler, lock, activity, connector), kept));
		events.deliverTo(lifecycle);
		lifecycle.idleWatch.reportTo(lifecycle);
		view.whenCalledIdle(lifecycle::calledStep);
		connector.whenAuthorized(lifecycle::authorized);
		return lifecycle;
	}

	// Steps that users take.

	CompletableFuture<McpServerStatus> start() {
		// read before the step: a file, never read under the lock
		ToolCatalog.Listing catalogued = this.kept.read();
		Started started = this.lock.step(() -> {
			ServerRecord r = this.record;
			if (this.phase.current() != ServerPhase.STOPPED) {
				return new Started(r.firstOutcome(), null);
			}
			r.newRun();
			this.standby.newRun();
			this.catalogued = catalogued;
			this.listingOnly = this.kept.onFirstUse() && catalogued == null;
			if (this.listingOnly) {
				r.log(Level.INFO, "starts on first use, but no tool catalog of an earlier run holds for its "
						+ "configuration: starting it to list its tools");
			}
			CompletableFuture<Void> previous = this.work.quiescence();
			// a stop's terminations still running count as a termination: nothing is
			// launched before they end (never two processes)
			Row row = choose(Event.START, facts().whileStopRuns(!previous.isDone()));
			if (row.guard() == Guard.STOP_RUNNING) {
				this.awaitedStop = previous;
				moveTo(row, "start", null);
				if (catalogued == null) {
					r.budget().takeImmediate(); // the launch once the stop ended
				}
				return new Started(r.firstOutcome(), previous);
			}
			if (row.guard() == Guard.ON_FIRST_USE) {
				idleFromCatalog(row);
				return new Started(r.firstOutcome(), null);
			}
			moveTo(row, "start", null);
			launchOrTerminateAgain(row, true);
			return new Started(r.firstOutcome(), null);
		});
		CompletableFuture<Void> stop = started.awaitedStop();
		if (stop != null) {
			// waited for after the step: a stop whose work has ended meanwhile runs this
			// at once, on this thread, which must not hold the lock then
			stop.whenComplete((ignored, ex) -> this.lock.step(() -> stopEnded(stop)));
		}
		return started.outcome();
	}

	void reset() {
		this.lock.step(() -> {
			requireStarted("reset");
			this.record.log(Level.INFO, "reset requested in state " + state() + ", outage budget cleared");
			this.record.budget().reset();
			this.launchTaken = false;
			this.standby.reset();
			if (state() == McpServerState.UP) {
				this.standby.replenish();
			}
			else {
				connectNow(Event.RESET, RestartCause.RESET);
			}
		});
	}

	void restart() {
		Handover retired = this.lock.step(() -> {
			requireStarted("restarted");
			ServerRecord r = this.record;
			r.log(Level.INFO, "restart requested in state " + state() + ", outage budget cleared");
			r.budget().reset();
			this.launchTaken = false;
			this.standby.reset();
			if (r.live() == null) {
				connectNow(Event.RESTART, RestartCause.RESTART);
				return null;
			}
			Row row = choose(Event.RESTART, facts());
			if (row.guard() == Guard.SPARE_READY) {
				McpConnection spare = this.standby.spare();
				McpConnection connection = r.retire();
				r.endedOnRequest(connection, EndedOnRequest.RESTARTED);
				r.restarting(RestartCause.RESTART);
				promote(row, spare, connection, "restart", null);
				return new Handover(connection, this.work.hold());
			}
			this.standby.suspend();
			McpConnection connection = r.retire();
			r.endedOnRequest(connection, EndedOnRequest.RESTARTED);
			this.retiring = connection;
			moveTo(row, "restart", null);
			r.restarting(RestartCause.RESTART);
			return new Handover(connection, this.work.hold());
		});
		if (retired != null) {
			try {
				this.retirements.restart(retired.connection());
			}
			finally {
				retired.release().run();
			}
		}
	}

	CompletableFuture<Void> stop(EndedOnRequest how) {
		StopHandover stopping = this.lock.step(() -> {
			if (this.phase.current() == ServerPhase.STOPPED) {
				return new StopHandover(Retirements.Stopped.NOTHING, () -> {
				});
			}
			this.retry.cancel();
			this.idleWatch.cancel();
			this.catalogued = null;
			this.listingOnly = false;
			McpConnection wasLive = (this.record.live() != null) ? this.record.retire() : null;
			if (wasLive != null) {
				this.record.endedOnRequest(wasLive, how);
			}
			McpConnection attempt = this.connecting;
			McpConnection spare = this.standby.stop();
			// the attempt is the stop's now: a later start never adopts it
			this.connecting = null;
			this.retiring = null;
			this.awaitedStop = null;
			this.launchTaken = false;
			moveTo(choose(Event.STOP, facts()), "stop", null);
			this.record.swapTools(ToolSet.EMPTY);
			this.record.completeFirstOutcome(snapshot());
			return new StopHandover(new Retirements.Stopped(wasLive, attempt, this.record.unconfirmedTree(), spare),
					this.work.hold());
		});
		try {
			this.retirements.stop(stopping.stopped());
		}
		finally {
			stopping.release().run();
		}
		return this.work.quiescence();
	}

	// Events that the state machine's own work reports.

	@Override
	public void connected(McpConnection connection) {
		boolean adopted = this.lock.step(() -> {
			if (this.standby.holds(connection)) {
				this.standby.connected(connection);
				return true;
			}
			if (!isCurrentAttempt(connection)) {
				return false;
			}
			ServerRecord r = this.record;
			this.connecting = null;
			this.probe.schedule(r.adopt(connection, this.policy.stabilityWindow()));
			ToolSet tools = new ToolSet(connection.generation(), connection.tools(), connection.session());
			r.swapTools(tools);
			this.kept.keep(tools, connection);
			moveTo(choose(Event.CONNECTED, facts()), "connected", null);
			this.waiters.release(connection);
			r.completeFirstOutcome(snapshot());
			// a generation started only to list the tools keeps no spare: it stops
			if (!this.listingOnly) {
				this.standby.replenish();
			}
			this.idleWatch.watch(this.listingOnly);
			this.listingOnly = false;
			return true;
		});
		if (!adopted) {
			this.retirements.discard(connection);
			return;
		}
		connection.onLost().whenComplete((exit, ex) -> this.work.track(() -> lost(connection, exit)));
	}

	@Override
	public void failed(McpConnection connection, McpConnectException ex) {
		this.lock.step(() -> {
			if (ex.getKind() == Kind.NOT_CONFIRMED_DEAD) {
				// even a stopped attempt's tree is checked again before the next launch
				this.record.notConfirmedGone(connection);
			}
			if (this.standby.holds(connection)) {
				this.standby.failed(connection, ex);
				return;
			}
			if (!isCurrentAttempt(connection)) {
				return;
			}
			this.connecting = null;
			attemptFailed(connection.generation(), connection.stderrTail(), ex);
		});
	}

	@Override
	public void terminated(McpConnection connection, boolean confirmed, @Nullable ExitStatus exit) {
		this.lock.step(() -> {
			if (!confirmed) {
				this.record.notConfirmedGone(connection);
			}
			else {
				this.record.confirmedGone(connection);
			}
			if (this.retiring != connection) {
				return; // a termination no phase waits for: only recorded
			}
			this.retiring = null;
			McpConnection tree = this.record.unconfirmedTree();
			if (confirmed && tree != null) {
				// another tree not confirmed gone (one retired beside a spare) is
				// terminated again too before anything follows: no move
				this.retiring = tree;
				this.retirements.terminateAgain(tree);
				return;
			}
			Row row = choose(Event.TERMINATED, facts().terminated(confirmed));
			switch (row.guard()) {
				case NOT_GONE -> giveUp(row, notConfirmedGone(connection), exit, false);
				case BUDGET_LEFT -> backOff(row, exit);
				case BUDGET_SPENT -> giveUpSpent(row, exit);
				default -> {
					if (row.to() == ServerPhase.DISCONNECTED) {
						moveTo(row, "terminated", exit);
					}
					else if (row.to() == ServerPhase.IDLE) {
						moveTo(row, "stopped while unused", null);
					}
					else {
						moveTo(row, "reconnecting on request", null);
						boolean taken = this.launchTaken;
						this.launchTaken = false;
						// a start on first use takes no attempt
						launchOrTerminateAgain(row, !taken && row.from() != ServerPhase.IDLE_STOPPING_THEN_CONNECT);
					}
				}
			}
		});
	}

	// A generation ended as hung survived its kill: it never exits, so it is given up
	// here instead of staying UP forever.
	@Override
	public void survivedKill(McpConnection connection) {
		this.lock.step(() -> {
			if (!this.record.isLive(connection)) {
				return;
			}
			this.standby.suspend();
			this.record.retire();
			this.record.survivedKill(connection);
			this.record.notConfirmedGone(connection);
			giveUp(choose(Event.SURVIVED_KILL, facts()), notConfirmedGone(connection), null, false);
		});
	}

	private void lost(McpConnection connection, @Nullable ExitStatus exit) {
		boolean wasLive = this.lock.step(() -> {
			ServerRecord r = this.record;
			if (!r.isLive(connection)) {
				if (this.standby.holds(connection)) {
					this.standby.lost(connection, exit);
				}
				return false; // a stale generation: inert
			}
			String endedBecause = Objects.requireNonNull(r.live()).endedBecause;
			Row row = choose(Event.LOST, facts());
			McpConnection spare = (row.guard() == Guard.SPARE_READY) ? this.standby.spare() : null;
			r.retire();
			String how = r.lost(connection, exit, endedBecause, this.policy.enabled());
			String cause = "connection lost: " + how;
			switch (row.guard()) {
				case SPARE_READY -> {
					r.restarting(restartCause(endedBecause, exit));
					promote(row, Objects.requireNonNull(spare), connection, cause, exit);
				}
				case SPARE_STARTING -> {
					// the spare that is starting is the reconnection's attempt
					McpConnection starting = this.standby.adoptStarting();
					moveTo(row, cause, exit);
					r.restarting(restartCause(endedBecause, exit));
					r.budget().takeImmediate();
					this.connecting = starting;
				}
				default -> {
					this.standby.suspend();
					this.retiring = connection;
					moveTo(row, cause, exit);
					if (row.guard() == Guard.RECONNECT_ENABLED) {
						r.restarting(restartCause(endedBecause, exit));
					}
				}
			}
			return true;
		});
		if (wasLive) {
			this.retirements.retireLost(connection, exit);
		}
	}

	// The connector tells of an authorization that exists again.
	void authorized() {
		this.lock.step(this::authorizedStep);
	}

	// In any phase but NEEDS_AUTHORIZATION or one whose attempt runs, it changes nothing;
	// a running attempt may fail for want of what just arrived, so it is made again then.
	private void authorizedStep() {
		ServerPhase from = this.phase.current();
		Row row = this.phase.choose(Event.AUTHORIZED, facts());
		if (row == null) {
			return;
		}
		moveTo(row, "authorized", null);
		if (!from.busy()) {
			launchOrTerminateAgain(row, true);
		}
	}

	private void stopEnded(CompletableFuture<Void> stop) {
		if (this.awaitedStop != stop) {
			return;
		}
		this.awaitedStop = null;
		Row row = choose(Event.STOP_ENDED, facts());
		if (row.guard() == Guard.ON_FIRST_USE) {
			idleFromCatalog(row);
			return;
		}
		moveTo(row, "stop ended", null);
		launchOrTerminateAgain(row, false);
	}

	// A tree found not confirmed gone during the backoff is terminated again first.
	private void retryDue() {
		Row row = this.phase.choose(Event.RETRY_DUE, facts());
		if (row != null) {
			moveTo(row, "retry", null);
			launchOrTerminateAgain(row, false);
		}
	}

	// The moves, under the lock: the table chooses them, the code below has their
	// effects.

	// What the guards of the table see now; an event adds its own facts.
	private Facts facts() {
		return new Facts(false, this.record.unconfirmedTree() != null, true, null, this.record.budget().hasLeft(),
				this.policy.enabled(), this.standby.readySpare() != null, this.standby.starting(),
				this.catalogued != null);
	}

	// The move of an event that every phase it comes in has a row for.
	private Row choose(Event event, Facts facts) {
		Row row = this.phase.choose(event, facts);
		if (row == null) {
			throw new IllegalStateException("MCP server '" + this.record.name() + "': no row of the state machine's "
					+ "table for " + event + " in " + this.phase.current() + " (" + facts + ")");
		}
		return row;
	}

	private void moveTo(Row row, String cause, @Nullable ExitStatus exit) {
		moveTo(row.event(), row.to(), cause, exit);
	}

	private void moveTo(Event event, ServerPhase to, String cause, @Nullable ExitStatus exit) {
		ServerPhase from = this.phase.move(event, to);
		if (from == ServerPhase.UP && to != ServerPhase.UP) {
			this.idleWatch.cancel();
		}
		boolean newOutage = from == ServerPhase.RECONNECTING_BACKING_OFF
				&& (event == Event.RESET || event == Event.RESTART);
		if (from.state() != to.state() || newOutage) {
			if (to.state() == McpServerState.FAILED || to.state() == McpServerState.DISCONNECTED
					|| to.state() == McpServerState.NEEDS_AUTHORIZATION || to.state() == McpServerState.STOPPED) {
				this.waiters.release(null);
			}
			this.record.announce(new McpServerStateChange(this.record.name(), from.state(), to.state(),
					this.record.lastGeneration(), cause, exit));
		}
	}

	// The ready spare serves in place of the generation that ended: no attempt, no
	// outage to wait out. The next spare follows the server's backoff, from its outage
	// budget: a crash loop spends the budget as fast as without a standby.
	private void promote(Row row, McpConnection spare, McpConnection replaced, String cause,
			@Nullable ExitStatus exit) {
		ServerRecord r = this.record;
		this.probe.schedule(r.adopt(spare, this.policy.stabilityWindow(), false));
		ToolSet tools = new ToolSet(spare.generation(), spare.tools(), spare.session());
		r.swapTools(tools);
		this.kept.keep(tools, spare);
		moveTo(row, cause + "; spare promoted", exit);
		this.waiters.release(spare);
		r.promoted(spare, replaced);
		this.standby.promoted(r.budget().takeNext());
		this.idleWatch.watch(false);
	}

	// Unused servers: started on first use, stopped while unused.

	// A server that starts on first use and whose tools the catalog holds offers them
	// without a generation: the first call starts it.
	private void idleFromCatalog(Row row) {
		ServerRecord r = this.record;
		ToolCatalog.Listing listing = Objects.requireNonNull(this.catalogued);
		this.catalogued = null;
		// the start took no attempt: an idle server has no outage
		moveTo(row, "starts on first use", null);
		r.swapTools(new ToolSet(r.lastGeneration(), listing.tools(), listing.session()));
		r.log(Level.INFO, "starts on first use; " + listing.tools().size() + " tool(s) listed from its catalog");
		r.completeFirstOutcome(snapshot());
	}

	// A call came while the server is idle (under the lock, in the step that saw no live
	// generation): it is started, or once its last generation's tree is gone. A start
	// on first use takes no attempt of the outage budget; one that fails is an outage
	// as any failed attempt, backed off from the budget.
	private void calledStep() {
		ServerPhase from = this.phase.current();
		Row row = this.phase.choose(Event.CALLED, facts());
		if (row == null) {
			return;
		}
		if (from == ServerPhase.IDLE_STOPPING) {
			moveTo(row, "called while stopping", null);
			return;
		}
		moveTo(row, "called", null);
		launchOrTerminateAgain(row, false);
	}

	// Stops the live generation quiescently, its tools kept listed: no spare is kept
	// while idle, and neither the budget nor an outage is touched.
	@Override
	public void idle(String cause) {
		Row row = choose(Event.IDLE_DUE, facts());
		ServerRecord r = this.record;
		this.standby.suspend();
		McpConnection connection = r.retire(false);
		r.endedOnRequest(connection, EndedOnRequest.IDLE);
		this.retiring = connection;
		moveTo(row, "unused: " + cause, null);
		r.log(Level.INFO, "stopped while unused (" + cause + "); its tools stay listed and the next call starts it");
		this.retirements.retireInBackground(connection);
	}

	@Override
	public boolean isUp() {
		return this.phase.current() == ServerPhase.UP;
	}

	// A generation started only to list the tools serves a call that came meanwhile:
	// it keeps its spare as any other.
	@Override
	public void inUse() {
		this.standby.replenish();
	}

	private static RestartCause restartCause(@Nullable String endedBecause, @Nullable ExitStatus exit) {
		if (endedBecause != null) {
			return RestartCause.LIVENESS;
		}
		return (exit != null) ? RestartCause.CRASH : RestartCause.CONNECTION_LOST;
	}

	// Connects at once, or as soon as the running attempt or termination ends (a reset in
	// a STARTING phase moves nothing). It is a restart only of a server that had
	// connected
	// and that the supervisor had stopped reconnecting: during a reconnection it only
	// hastens the restart already counted.
	private void connectNow(Event event, RestartCause cause) {
		ServerPhase from = this.phase.current();
		Row row = this.phase.choose(event, facts());
		if (row == null) {
			return;
		}
		this.retry.cancel();
		McpServerState state = state();
		if (this.record.hasConnected() && (state == McpServerState.DISCONNECTED || state == McpServerState.FAILED
				|| state == McpServerState.NEEDS_AUTHORIZATION)) {
			this.record.restarting(cause);
		}
		moveTo(row, cause.name().toLowerCase(Locale.ROOT), null);
		if (!from.busy()) {
			launchOrTerminateAgain(row, true);
		}
	}

	// Launches the attempt of the phase moved to, or terminates again first the tree that
	// could not be confirmed gone.
	private void launchOrTerminateAgain(Row row, boolean takeAttempt) {
		if (takeAttempt) {
			this.record.budget().takeImmediate();
		}
		if (row.guard() == Guard.TREE_UNCONFIRMED) {
			// the attempt is taken now (or was, by the backoff or the start): the launch
			// once the tree is gone is that attempt
			this.launchTaken = true;
			McpConnection tree = Objects.requireNonNull(this.record.unconfirmedTree());
			this.retiring = tree;
			this.retirements.terminateAgain(tree);
		}
		else {
			launch();
		}
	}

	// The next attempt after its backoff delay.
	private void backOff(Row row, @Nullable ExitStatus exit) {
		ServerRecord r = this.record;
		Duration delay = Objects.requireNonNull(r.budget().takeNext());
		moveTo(row, String.valueOf(r.lastError()), exit);
		r.log(Level.WARN, "retrying " + r.budget().used() + "/" + r.budget().max() + " in " + delay.toMillis() + " ms");
		this.retry.schedule(delay, this::retryDue);
		r.retryScheduled(delay);
	}

	// A connector that throws costs an attempt, like a failed connect.
	private void launch() {
		int generation = this.record.nextGeneration();
		this.record.noAttemptDue();
		McpConnection connection;
		try {
			connection = this.attempts.create(generation);
		}
		catch (McpConnectException ex) {
			attemptFailed(generation, List.of(), ex);
			return;
		}
		this.connecting = connection;
		this.attempts.open(connection);
	}

	// An attempt that fails for want of an authorization is not retried: the
	// authorization's arrival launches the next attempt. One asked for meanwhile (a
	// reset, a restart, an authorization) is made at once, once a tree found not
	// confirmed
	// gone meanwhile is (a STARTING phase never finds one: a start waits for every
	// termination before it).
	private void attemptFailed(int generation, List<String> stderr, McpConnectException ex) {
		ServerRecord r = this.record;
		r.attemptFailed(generation, stderr, ex);
		Row row = choose(Event.ATTEMPT_FAILED, facts().failedFor(ex.getKind()));
		switch (row.guard()) {
			case MISCONFIGURED -> giveUp(row, "configuration error: " + ex.getMessage(), ex.getExit(), false);
			case ATTEMPT_NOT_GONE -> giveUp(row, ex.getMessage(), ex.getExit(), false);
			case UNAUTHORIZED -> {
				this.retry.cancel();
				moveTo(row, r.needsAuthorization(ex), null);
			}
			case RECONNECT_DISABLED -> {
				moveTo(row, "connection failed and reconnect is disabled", ex.getExit());
				r.log(Level.ERROR, "connection failed and reconnect is disabled; " + r.resetHint());
			}
			case BUDGET_LEFT -> backOff(row, ex.getExit());
			case BUDGET_SPENT -> giveUpSpent(row, ex.getExit());
			default -> {
				moveTo(row, "reconnecting on request", null);
				launchOrTerminateAgain(row, true);
			}
		}
		r.completeFirstOutcome(snapshot());
	}

	// A spent budget is given up for its cooldown, if the policy has one, after which the
	// server tries again with a fresh budget.
	private void giveUpSpent(Row row, @Nullable ExitStatus exit) {
		giveUp(row, "gave up after " + this.record.budget().max() + " attempts", exit, true);
	}

	private void coolDown() {
		ServerRecord r = this.record;
		Duration cooldown = r.budget().takeCooldown();
		if (cooldown == null || r.unconfirmedTree() != null) {
			return;
		}
		r.log(Level.WARN, "cooling down for " + cooldown.toMillis() + " ms (give-up " + r.budget().spent()
				+ " in a row) before a fresh budget of " + r.budget().max() + " attempts");
		this.retry.schedule(cooldown, this::cooldownOver);
	}

	// A tree found not confirmed gone during the cooldown is terminated again first:
	// still not gone, the server is given up without a cooldown.
	private void cooldownOver() {
		Row row = this.phase.choose(Event.COOLDOWN_OVER, facts());
		if (row == null) {
			return;
		}
		ServerRecord r = this.record;
		Duration cooldown = Objects.requireNonNull(r.budget().cooldown());
		r.budget().refill();
		if (r.hasConnected()) {
			r.restarting(RestartCause.COOLDOWN);
		}
		r.cooldownOver(cooldown);
		moveTo(row, "cooldown over", null);
		launchOrTerminateAgain(row, true);
	}

	// The cooldown is planned before the move, so that the move's status, event and
	// kept tools' notice tell when the server tries again.
	private void giveUp(Row row, String reason, @Nullable ExitStatus exit, boolean coolDown) {
		this.retry.cancel();
		this.launchTaken = false;
		this.record.givenUp(reason);
		if (coolDown) {
			coolDown();
		}
		moveTo(row, reason, exit);
		this.record.withdrawTools(reason);
	}

	private static String notConfirmedGone(McpConnection connection) {
		return "the process tree of generation " + connection.generation()
				+ " could not be confirmed gone; not reconnecting so that two servers never run";
	}

	// An attempt that a stop left behind belongs to no later start: a start that follows
	// the stop must neither adopt it nor count its failure.
	private boolean isCurrentAttempt(McpConnection connection) {
		return this.connecting == connection && this.phase.current() != ServerPhase.STOPPED;
	}

	private void requireStarted(String done) {
		if (this.phase.current() == ServerPhase.STOPPED) {
			throw new IllegalStateException("MCP server '" + this.record.name() + "' is stopped and cannot be " + done);
		}
	}

	// What the jobs around the state machine see.

	void observeMoves(Consumer<Edge> observer) {
		this.phase.observe(observer);
	}

	void observeChoices(Consumer<Row> observer) {
		this.phase.observeChoices(observer);
	}

	// For tests: which moves are allowed, and whether one outside them throws.
	void checkMoves(Set<Edge> table, boolean strict) {
		this.phase.check(table, strict);
	}

	ServerPhase phase() {
		return this.lock.read(this.phase::current);
	}

	// Under the lock.
	private McpServerState state() {
		return this.phase.current().state();
	}

	McpServerStatus status() {
		return this.lock.read(this::snapshot);
	}

	// Under the lock.
	private McpServerStatus snapshot() {
		return this.record.status(state(), this.standby.status());
	}

	// For tests: the standby's own state machine.
	Standby standby() {
		return this.standby;
	}

	LifecycleView view() {
		return this.view;
	}

	CompletableFuture<Void> quiescence() {
		return this.work.quiescence();
	}

	/**
	 * What a server that is stopped while unused is built with.
	 *
	 * @param scheduler its time
	 * @param idleWatch what tells when it is unused
	 * @param kept its catalog
	 */
	private record Unused(SupervisorScheduler scheduler, IdleWatch idleWatch, KeptTools kept) {

	}

	/**
	 * What a start's step leaves to do after it.
	 *
	 * @param outcome the first outcome of the run
	 * @param awaitedStop the terminations of a stop to wait for, if any
	 */
	private record Started(CompletableFuture<McpServerStatus> outcome, @Nullable CompletableFuture<Void> awaitedStop) {

	}

	/**
	 * A generation a restart retired, handed over to the caller's thread, with the hold
	 * on the work tracker that counts it as running until its termination is tracked.
	 */
	private record Handover(McpConnection connection, Runnable release) {

	}

	/**
	 * What a stop ended, handed over to the caller's thread, with the hold on the work
	 * tracker that counts it as running until its terminations are tracked.
	 */
	private record StopHandover(Retirements.Stopped stopped, Runnable release) {

	}

}
