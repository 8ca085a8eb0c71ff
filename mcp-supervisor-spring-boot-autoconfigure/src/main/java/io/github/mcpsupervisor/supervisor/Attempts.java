package io.github.mcpsupervisor.supervisor;

import java.time.Duration;
import java.util.List;

import io.github.mcpsupervisor.supervisor.McpConnectException.Kind;
import io.github.mcpsupervisor.supervisor.ServerState.Level;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

/**
 * Runs a server's connection attempts, one at a time: launches a generation, brings it up
 * or records why it failed, and schedules the next attempt within the outage budget.
 */
final class Attempts {

	private static final Log logger = LogFactory.getLog(Attempts.class);

	private final ServerState state;

	private final SupervisorLock lock;

	private final ReconnectPolicy policy;

	private final McpConnector connector;

	private final SupervisorScheduler scheduler;

	private final WorkTracker work;

	private final RecoveryWaiters waiters;

	private final LivenessProbe probe;

	private final ToolSync toolSync;

	private final Retirements retirements;

	Attempts(ServerState state, SupervisorLock lock, ReconnectPolicy policy, McpConnector connector,
			SupervisorScheduler scheduler, WorkTracker work, RecoveryWaiters waiters, LivenessProbe probe,
			ToolSync toolSync, Retirements retirements) {
		this.state = state;
		this.lock = lock;
		this.policy = policy;
		this.connector = connector;
		this.scheduler = scheduler;
		this.work = work;
		this.waiters = waiters;
		this.probe = probe;
		this.toolSync = toolSync;
		this.retirements = retirements;
	}

	// Under the lock. A connector that throws costs an attempt, like a failed connect.
	void launch() {
		int generation = ++this.state.lastGeneration;
		McpConnection connection;
		try {
			connection = this.connector.create(generation, () -> this.toolSync.changed(generation));
		}
		catch (RuntimeException ex) {
			this.state.nextAttemptAt = null;
			this.lock.later(() -> logger
				.debug("MCP server '" + this.state.name + "': cannot create generation " + generation, ex));
			onFailure(generation, List.of(),
					new McpConnectException(Kind.TRANSIENT, String.valueOf(ex.getMessage()), null, ex));
			return;
		}
		this.state.connecting = connection;
		this.state.nextAttemptAt = null;
		this.work.track(() -> run(connection));
	}

	// Under the lock: an attempt at once, outside the backoff.
	void reconnectNow() {
		this.state.connectWhenIdle = false;
		this.state.budget.takeImmediate();
		if (this.state.state != McpServerState.RECONNECTING && this.state.state != McpServerState.STARTING) {
			this.state.transition(McpServerState.RECONNECTING, "reconnecting on request", null);
		}
		launch();
	}

	// Under the lock: the next attempt after its backoff delay, or FAILED once the budget
	// is spent.
	void retryOrGiveUp(@Nullable ExitStatus exit) {
		Duration delay = this.state.budget.takeNext();
		if (delay == null) {
			this.state.giveUp("gave up after " + this.state.budget.max() + " attempts", exit);
			return;
		}
		if (this.state.state != McpServerState.RECONNECTING) {
			this.state.transition(McpServerState.RECONNECTING, String.valueOf(this.state.lastError), exit);
		}
		this.state.log(Level.WARN, "retrying " + this.state.budget.used() + "/" + this.state.budget.max() + " in "
				+ delay.toMillis() + " ms");
		int token = ++this.state.attemptToken;
		this.state.nextAttemptAt = this.state.now().plus(delay);
		this.state.pendingAttempt = this.scheduler.schedule(delay, () -> onTimer(token));
	}

	private void onTimer(int token) {
		this.lock.locked(() -> {
			if (token != this.state.attemptToken || this.state.pendingAttempt == null
					|| this.state.state == McpServerState.STOPPED) {
				return; // cancelled or superseded
			}
			this.state.pendingAttempt = null;
			launch();
		});
	}

	private void run(McpConnection connection) {
		try {
			connection.open();
		}
		catch (McpConnectException ex) {
			failed(connection, ex);
			return;
		}
		catch (RuntimeException ex) {
			failed(connection, new McpConnectException(Kind.TRANSIENT, String.valueOf(ex.getMessage()), null, ex));
			return;
		}
		succeeded(connection);
	}

	private void succeeded(McpConnection connection) {
		boolean stopped = this.lock.locked(() -> {
			if (!isCurrentAttempt(connection)) {
				return true;
			}
			this.state.connecting = null;
			Generation generation = new Generation(connection, this.state.now());
			this.state.live = generation;
			this.state.current = connection;
			this.state.connectWhenIdle = false;
			SupervisorListener listener = this.state.listener();
			this.state.notify(() -> listener.attemptFinished(this.state.name, connection.generation(), true));
			String where = "generation " + connection.generation() + ", pid " + connection.pid() + ", "
					+ connection.tools().size() + " tools";
			if (this.state.outageStartedAt != null) {
				int attempts = this.state.budget.used();
				Duration outage = Duration.between(this.state.outageStartedAt, this.state.now());
				this.state.log(Level.INFO, "recovered after " + attempts + " attempt(s), outage " + outage.toMillis()
						+ " ms (" + where + ")");
				this.state.notify(() -> listener.recovered(this.state.name, attempts, outage));
			}
			else {
				this.state.log(Level.INFO, "connected (" + where + ")");
			}
			generation.stabilityTimer = this.scheduler.schedule(this.policy.stabilityWindow(),
					() -> this.retirements.onStable(generation));
			this.probe.schedule(generation);
			this.state.swapTools(new ToolSet(connection.generation(), connection.tools(), connection.session()));
			this.state.transition(McpServerState.UP, "connected", null);
			this.waiters.release(connection);
			this.state.completeFirstOutcome();
			return false;
		});
		if (stopped) {
			this.retirements.discard(connection);
			return;
		}
		connection.onLost()
			.whenComplete((exit, ex) -> this.work.track(() -> this.retirements.onLost(connection, exit)));
	}

	private void failed(McpConnection connection, McpConnectException ex) {
		this.lock.locked(() -> {
			boolean current = isCurrentAttempt(connection);
			if (ex.getKind() == Kind.NOT_CONFIRMED_DEAD) {
				// even a stopped attempt's tree is checked again before the next launch
				this.state.unconfirmed = connection;
			}
			if (!current) {
				return;
			}
			this.state.connecting = null;
			onFailure(connection.generation(), connection.stderrTail(), ex);
		});
	}

	// Under the lock. An attempt that a stop left behind belongs to no later start: a
	// start that follows the stop must neither adopt it nor count its failure.
	private boolean isCurrentAttempt(McpConnection connection) {
		return this.state.connecting == connection && this.state.state != McpServerState.STOPPED;
	}

	// Under the lock: a failed attempt, and what follows it.
	private void onFailure(int generation, List<String> stderr, McpConnectException ex) {
		SupervisorListener listener = this.state.listener();
		this.state.notify(() -> listener.attemptFinished(this.state.name, generation, false));
		this.state.lastError = "connection failed: " + ex.getMessage();
		this.state.lastExit = ex.getExit();
		this.state.lastStderr = stderr;
		this.state.log(Level.WARN, "connection failed (attempt " + this.state.budget.used() + "/"
				+ this.state.budget.max() + ", generation " + generation + "): " + ex.getMessage());
		if (ex.getKind() == Kind.CONFIGURATION) {
			this.state.giveUp("configuration error: " + ex.getMessage(), ex.getExit());
		}
		else if (ex.getKind() == Kind.NOT_CONFIRMED_DEAD) {
			this.state.giveUp(ex.getMessage(), ex.getExit());
		}
		else if (this.state.connectWhenIdle) {
			// clears the flag first: a connector that keeps throwing falls back to the
			// backoff
			reconnectNow();
		}
		else if (!this.policy.enabled()) {
			this.state.transition(McpServerState.DISCONNECTED, "connection failed and reconnect is disabled",
					ex.getExit());
			this.state.log(Level.ERROR, "connection failed and reconnect is disabled; " + this.state.resetHint());
		}
		else {
			retryOrGiveUp(ex.getExit());
		}
		this.state.completeFirstOutcome();
	}

}
