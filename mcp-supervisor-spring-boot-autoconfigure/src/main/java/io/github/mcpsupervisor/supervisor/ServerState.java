package io.github.mcpsupervisor.supervisor;

import java.time.Instant;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.function.UnaryOperator;

import io.github.mcpsupervisor.internal.ServerText;
import io.github.mcpsupervisor.supervisor.SupervisorScheduler.Cancellable;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

/**
 * The state of one supervised server and the primitive steps on it: transitions, the tool
 * set, giving up, the status snapshot. Every field and method is guarded by the
 * supervisor's lock, except the two that the call path reads without it.
 */
final class ServerState {

	private static final Log logger = LogFactory.getLog(McpServerSupervisor.class);

	final String name;

	final OutageBudget budget;

	private final SupervisorLock lock;

	private final SupervisorScheduler scheduler;

	private final SupervisorListener listener;

	private final RecoveryWaiters waiters;

	private final UnaryOperator<String> redaction;

	McpServerState state = McpServerState.STOPPED;

	int lastGeneration;

	@Nullable Generation live;

	@Nullable McpConnection connecting;

	/** A retired generation's tree is being terminated: no attempt may start. */
	boolean terminating;

	/**
	 * A generation whose tree could not be confirmed gone: before anything is launched
	 * again, its termination is tried again.
	 */
	@Nullable McpConnection unconfirmed;

	/** An attempt follows as soon as the running attempt or termination ends. */
	boolean connectWhenIdle;

	/** Identifies the pending attempt: cancelled and superseded timers are inert. */
	int attemptToken;

	@Nullable Cancellable pendingAttempt;

	@Nullable Instant nextAttemptAt;

	@Nullable Instant outageStartedAt;

	@Nullable ExitStatus lastExit;

	@Nullable String lastError;

	List<String> lastStderr = List.of();

	CompletableFuture<McpServerStatus> firstOutcome = new CompletableFuture<>();

	// Read without the lock on the call path.
	volatile @Nullable McpConnection current;

	volatile ToolSet tools = ToolSet.EMPTY;

	ServerState(String name, ReconnectPolicy policy, SupervisorLock lock, SupervisorScheduler scheduler,
			SupervisorListener listener, RecoveryWaiters waiters, UnaryOperator<String> redaction) {
		this.name = name;
		this.redaction = redaction;
		this.budget = new OutageBudget(policy);
		this.lock = lock;
		this.scheduler = scheduler;
		this.listener = listener;
		this.waiters = waiters;
	}

	void transition(McpServerState to, String cause, @Nullable ExitStatus exit) {
		McpServerState from = this.state;
		this.state = to;
		if (to == McpServerState.FAILED || to == McpServerState.DISCONNECTED || to == McpServerState.STOPPED) {
			this.waiters.release(null);
		}
		McpServerStateChange change = new McpServerStateChange(this.name, from, to, this.lastGeneration, cause, exit);
		this.lock.later(() -> this.listener.stateChanged(change));
	}

	void swapTools(ToolSet replacement) {
		this.tools = replacement;
		this.lock.later(() -> this.listener.toolsChanged(this.name, replacement));
	}

	/**
	 * Makes the live generation leave, its timers with it.
	 * @return its connection, to be closed and terminated outside the lock
	 */
	McpConnection retire() {
		Generation retired = this.live;
		retired.cancelTimers();
		this.live = null;
		this.current = null;
		this.terminating = true;
		return retired.connection;
	}

	void giveUp(String reason, @Nullable ExitStatus exit) {
		cancelPendingAttempt();
		this.lastError = reason;
		transition(McpServerState.FAILED, reason, exit);
		swapTools(ToolSet.EMPTY);
		log(Level.ERROR, reason + "; tools withdrawn. " + resetHint());
	}

	void cancelPendingAttempt() {
		this.attemptToken++;
		if (this.pendingAttempt != null) {
			this.pendingAttempt.cancel();
			this.pendingAttempt = null;
		}
		this.nextAttemptAt = null;
	}

	// The first outcome is announced after the step's notifications.
	void completeFirstOutcome() {
		CompletableFuture<McpServerStatus> first = this.firstOutcome;
		McpServerStatus outcome = status();
		this.lock.later(() -> first.complete(outcome));
	}

	void notify(Runnable notification) {
		this.lock.later(notification);
	}

	SupervisorListener listener() {
		return this.listener;
	}

	McpServerStatus status() {
		McpConnection connection = (this.live != null) ? this.live.connection : null;
		return new McpServerStatus(this.name, this.state, this.lastGeneration,
				(connection != null) ? connection.pid() : null, (this.live != null) ? this.live.upSince : null,
				this.budget.used(), this.budget.max(), this.nextAttemptAt, this.lastExit, this.lastError,
				(connection != null) ? connection.stderrTail() : this.lastStderr, this.tools.names());
	}

	// The line is logged after the step, outside the lock.
	void log(Level level, String message) {
		String line = "MCP server '" + this.name + "': " + ServerText.forLog(redact(message));
		this.lock.later(() -> level.log(line));
	}

	String redact(String text) {
		return this.redaction.apply(text);
	}

	String resetHint() {
		return UnavailableMessages.resetHint(this.name);
	}

	Instant now() {
		return this.scheduler.clock().instant();
	}

	/** The level of a log line of the supervisor. */
	enum Level {

		DEBUG, INFO, WARN, ERROR;

		void log(String line) {
			switch (this) {
				case DEBUG -> logger.debug(line);
				case INFO -> logger.info(line);
				case WARN -> logger.warn(line);
				case ERROR -> logger.error(line);
			}
		}

	}

}
