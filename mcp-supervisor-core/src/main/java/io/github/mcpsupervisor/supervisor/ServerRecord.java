package io.github.mcpsupervisor.supervisor;

import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.function.UnaryOperator;

import io.github.mcpsupervisor.internal.ServerText;
import io.github.mcpsupervisor.supervisor.McpConnector.McpConnectException;
import io.github.mcpsupervisor.supervisor.McpConnector.McpConnection;
import io.github.mcpsupervisor.supervisor.McpServerStatus.ExitStatus;
import io.github.mcpsupervisor.supervisor.SupervisorListener.RestartCause;
import io.github.mcpsupervisor.supervisor.ToolSet.SessionInfo;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

/**
 * What a server's state machine records beside its phase: the live generation, the
 * generation count, the outage budget and its timing, the last exit, error and stderr,
 * the tool set, and the primitive steps on them (announcing the tool set, the log lines
 * and notifications of attempts and losses, the status snapshot). It decides nothing: its
 * state is changed only by the operations below, each named by what happened. Guarded by
 * the supervisor's lock, except the live connection and the tool set, which the call path
 * reads without it.
 */
final class ServerRecord {

	private static final Log logger = LogFactory.getLog(McpServerSupervisor.class);

	private final String name;

	private final OutageBudget budget;

	private final SupervisorLock lock;

	private final SupervisorScheduler scheduler;

	private final SupervisorListener listener;

	private final UnaryOperator<String> redaction;

	private final ToolsWhenDown toolsWhenDown;

	private int lastGeneration;

	private @Nullable Instant nextAttemptAt;

	/**
	 * When the last connected generation left, while no new one has connected: the outage
	 * under way, if any.
	 */
	private @Nullable Instant outageStartedAt;

	/** The attempts of the outage under way that failed. */
	private int outageFailedAttempts;

	/** Whether a generation has connected since the start. */
	private boolean established;

	private @Nullable ExitStatus lastExit;

	private @Nullable String lastError;

	private List<String> lastStderr = List.of();

	private CompletableFuture<McpServerStatus> firstOutcome = new CompletableFuture<>();

	private @Nullable Generation live;

	/** A tree not confirmed gone: terminated again before anything is launched. */
	private @Nullable McpConnection unconfirmed;

	/** The generations lately ended on request, for the calls in flight on them. */
	private final Map<McpConnection, EndedOnRequest> endedOnRequest = new LinkedHashMap<>();

	// Read without the lock on the call path.
	private volatile @Nullable McpConnection current;

	private volatile ToolSet tools = ToolSet.EMPTY;

	ServerRecord(String name, ReconnectPolicy policy, SupervisorLock lock, SupervisorScheduler scheduler,
			SupervisorListener listener, UnaryOperator<String> redaction, ToolsWhenDown toolsWhenDown) {
		this.name = name;
		this.redaction = redaction;
		this.toolsWhenDown = toolsWhenDown;
		this.budget = new OutageBudget(policy);
		this.lock = lock;
		this.scheduler = scheduler;
		this.listener = listener;
	}

	// A new run of the server (a start): a fresh budget, no error of a previous run.
	CompletableFuture<McpServerStatus> newRun() {
		this.firstOutcome = new CompletableFuture<>();
		this.budget.reset();
		this.lastError = null;
		this.lastExit = null;
		this.outageStartedAt = null;
		this.established = false;
		return this.firstOutcome;
	}

	String name() {
		return this.name;
	}

	OutageBudget budget() {
		return this.budget;
	}

	CompletableFuture<McpServerStatus> firstOutcome() {
		return this.firstOutcome;
	}

	/**
	 * Numbers the next generation, an attempt's or a spare's.
	 * @return its number
	 */
	int nextGeneration() {
		return ++this.lastGeneration;
	}

	int lastGeneration() {
		return this.lastGeneration;
	}

	/**
	 * Records when the next attempt is due, for the status and the tools' notice.
	 * @param at when its timer fires
	 */
	void attemptDue(Instant at) {
		this.nextAttemptAt = at;
	}

	/**
	 * Records that no attempt waits for a timer: one runs, or none follows.
	 */
	void noAttemptDue() {
		this.nextAttemptAt = null;
	}

	/**
	 * Returns whether a generation has connected since the start.
	 * @return whether the server was up in this run
	 */
	boolean hasConnected() {
		return this.established;
	}

	@Nullable Generation live() {
		return this.live;
	}

	boolean isLive(McpConnection connection) {
		return this.live != null && this.live.connection == connection;
	}

	// Read without the lock on the call path.
	@Nullable McpConnection current() {
		return this.current;
	}

	// Read without the lock on the call path.
	ToolSet tools() {
		return this.tools;
	}

	/**
	 * Returns the tree last found not confirmed gone, while it is not confirmed gone.
	 * @return the generation whose tree it is, if any
	 */
	@Nullable McpConnection unconfirmedTree() {
		return this.unconfirmed;
	}

	// A termination could not confirm the tree gone, or an attempt left it behind.
	void notConfirmedGone(McpConnection connection) {
		this.unconfirmed = connection;
	}

	// A termination confirmed the tree gone: if it was the unconfirmed one, no longer.
	void confirmedGone(McpConnection connection) {
		if (this.unconfirmed == connection) {
			this.unconfirmed = null;
		}
	}

	@Nullable String lastError() {
		return this.lastError;
	}

	// Makes a connected attempt the live generation and announces it; the generation
	// resets the budget once it has stayed up for the stability window (no move).
	Generation adopt(McpConnection connection, Duration stabilityWindow) {
		return adopt(connection, stabilityWindow, true);
	}

	// A promoted spare's attempt was told when it became ready.
	Generation adopt(McpConnection connection, Duration stabilityWindow, boolean attempt) {
		Generation generation = new Generation(connection, now());
		this.live = generation;
		this.current = connection;
		this.established = true;
		connected(connection, attempt);
		generation.stabilityTimer = this.scheduler.schedule(stabilityWindow, () -> stable(generation));
		return generation;
	}

	private void stable(Generation generation) {
		this.lock.step(() -> {
			if (this.live == generation) {
				this.budget.reset();
				log(Level.DEBUG, "generation " + generation.connection.generation() + " stable, outage budget reset");
			}
		});
	}

	// Makes the live generation leave, its timers with it, and opens an outage (a stop
	// ends the run, and the outage with it); returns its connection, to be closed and
	// terminated outside the lock.
	McpConnection retire() {
		return retire(true);
	}

	// The same, opening no outage when the generation leaves because it is unused.
	McpConnection retire(boolean outage) {
		Generation retired = this.live;
		retired.cancelTimers();
		this.live = null;
		this.current = null;
		this.outageStartedAt = outage ? now() : null;
		this.outageFailedAttempts = 0;
		return retired.connection;
	}

	// The attempt's end is announced, and the recovery it ends, if any.
	private void connected(McpConnection connection, boolean attempt) {
		if (attempt) {
			notify(() -> this.listener.attemptFinished(this.name, connection.generation(), true));
		}
		String protocol = protocol(connection);
		Long pid = connection.pid();
		String where = "generation " + connection.generation() + ((pid != null) ? ", pid " + pid : "") + ", "
				+ connection.tools().size() + " tools" + ((protocol != null) ? ", MCP " + protocol : "");
		if (this.outageStartedAt != null) {
			int attempts = this.outageFailedAttempts + 1;
			Duration outage = Duration.between(this.outageStartedAt, now());
			this.outageStartedAt = null;
			log(Level.INFO,
					"recovered after " + attempts + " attempt(s), outage " + outage.toMillis() + " ms (" + where + ")");
			notify(() -> this.listener.recovered(this.name, attempts, outage));
		}
		else {
			log(Level.INFO, "connected (" + where + ")");
		}
	}

	void attemptFailed(int generation, List<String> stderr, McpConnectException ex) {
		notify(() -> this.listener.attemptFinished(this.name, generation, false));
		if (this.outageStartedAt != null) {
			this.outageFailedAttempts++;
		}
		this.lastError = "connection failed: " + ex.getMessage();
		this.lastExit = ex.getExit();
		this.lastStderr = stderr;
		log(Level.WARN, "connection failed (attempt " + this.budget.used() + "/" + this.budget.max() + ", generation "
				+ generation + "): " + ex.getMessage());
	}

	// The server is given up: the reason is the error it shows.
	void givenUp(String reason) {
		this.lastError = reason;
	}

	// An attempt failed for want of an authorization; returns the error it shows.
	String needsAuthorization(McpConnectException ex) {
		this.lastError = "needs authorization: " + ex.getMessage();
		return this.lastError;
	}

	// A live generation ended as hung survived its kill: its stderr is what is left of
	// it.
	void survivedKill(McpConnection connection) {
		this.lastStderr = connection.stderrTail();
	}

	// A call in flight on a generation ended on request is told why; the last few are
	// kept, since a call fails at most a request timeout after its generation ended.
	void endedOnRequest(McpConnection connection, EndedOnRequest how) {
		this.endedOnRequest.put(connection, how);
		if (this.endedOnRequest.size() > 8) {
			this.endedOnRequest.remove(this.endedOnRequest.keySet().iterator().next());
		}
	}

	@Nullable EndedOnRequest endedOnRequest(McpConnection connection) {
		return this.endedOnRequest.get(connection);
	}

	// Records and logs the loss of the live generation; returns how it was lost.
	String lost(McpConnection connection, @Nullable ExitStatus exit, @Nullable String endedBecause,
			boolean reconnects) {
		this.lastExit = exit;
		this.lastStderr = connection.stderrTail();
		String how = (endedBecause != null) ? endedBecause : (exit != null) ? exit.describe() : connection.lossReason();
		this.lastError = "connection lost: " + how;
		String lost = "connection lost (generation " + connection.generation() + ", " + how
				+ ((exit != null && exit.lastStderrLine() != null) ? "; last stderr line: " + exit.lastStderrLine()
						: "")
				+ ")";
		if (reconnects) {
			log(Level.WARN, lost);
		}
		else {
			log(Level.ERROR,
					lost + " and reconnect is disabled; its tools stay registered and "
							+ ((this.toolsWhenDown == ToolsWhenDown.KEEP) ? "answer as unavailable" : "fail")
							+ " until it is reset; " + resetHint());
		}
		return how;
	}

	// A spare's attempt ended.
	void spareFinished(int generation, boolean connected) {
		notify(() -> this.listener.attemptFinished(this.name, generation, connected));
	}

	// A spare became the live generation in place of the one that ended.
	void promoted(McpConnection spare, McpConnection replaced) {
		int generation = spare.generation();
		int previous = replaced.generation();
		log(Level.INFO, "spare generation " + generation + " promoted in place of generation " + previous);
		notify(() -> this.listener.promoted(this.name, generation, previous));
	}

	void restarting(RestartCause cause) {
		notify(() -> this.listener.restarting(this.name, cause));
	}

	void retryScheduled(Duration delay) {
		int attempt = this.budget.used();
		notify(() -> this.listener.retryScheduled(this.name, attempt, delay));
	}

	void cooldownOver(Duration cooldown) {
		log(Level.INFO, "cooldown of " + cooldown.toMillis() + " ms over, trying again with a fresh budget of "
				+ this.budget.max() + " attempts");
		notify(() -> this.listener.cooldownOver(this.name, cooldown));
	}

	void withdrawTools(String reason) {
		if (this.tools.unavailable() != null) {
			log(Level.ERROR, reason + "; its tools stay listed as unavailable. " + resetHint());
			return;
		}
		swapTools(ToolSet.EMPTY);
		log(Level.ERROR, reason + "; tools withdrawn. " + resetHint());
	}

	void announce(McpServerStateChange change) {
		markTools(change.to());
		this.lock.later(() -> this.listener.stateChanged(change));
	}

	// A server that keeps its tools while down marks them anew at every move to a down
	// state, so their description tells the state it is in; its next generation's tools
	// replace them.
	private void markTools(McpServerState state) {
		boolean down = state == McpServerState.RECONNECTING || state == McpServerState.DISCONNECTED
				|| state == McpServerState.NEEDS_AUTHORIZATION || state == McpServerState.FAILED;
		ToolSet current = this.tools;
		if (this.toolsWhenDown != ToolsWhenDown.KEEP || !down || current.tools().isEmpty()) {
			return;
		}
		ToolSet.Unavailability unavailability = new ToolSet.Unavailability(this.name, state,
				(this.outageStartedAt != null) ? this.outageStartedAt : now(),
				(state == McpServerState.FAILED) ? this.nextAttemptAt : null);
		if (!unavailability.equals(current.unavailable())) {
			swapTools(current.markedUnavailable(unavailability));
		}
	}

	void swapTools(ToolSet replacement) {
		this.tools = replacement;
		this.lock.later(() -> this.listener.toolsChanged(this.name, replacement));
	}

	// The first outcome is announced after the step's notifications.
	void completeFirstOutcome(McpServerStatus outcome) {
		CompletableFuture<McpServerStatus> first = this.firstOutcome;
		this.lock.later(() -> first.complete(outcome));
	}

	private void notify(Runnable notification) {
		this.lock.later(notification);
	}

	McpServerStatus status(McpServerState state, @Nullable McpStandbyStatus standby) {
		Generation live = this.live;
		McpConnection connection = (live != null) ? live.connection : null;
		return new McpServerStatus(this.name, state,
				(connection != null) ? connection.generation() : this.lastGeneration,
				(connection != null) ? connection.pid() : null, (live != null) ? live.upSince : null,
				this.budget.used(), this.budget.max(), this.nextAttemptAt, this.lastExit, this.lastError,
				(connection != null) ? connection.stderrTail() : this.lastStderr, this.tools.names(),
				(connection != null) ? protocol(connection) : null,
				(state == McpServerState.FAILED && this.nextAttemptAt != null) ? this.budget.cooldown() : null,
				standby);
	}

	private static @Nullable String protocol(McpConnection connection) {
		SessionInfo session = connection.session();
		return (session != null) ? session.protocolVersion() : null;
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
