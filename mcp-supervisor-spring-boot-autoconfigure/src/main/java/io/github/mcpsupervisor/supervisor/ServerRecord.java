package io.github.mcpsupervisor.supervisor;

import java.time.Instant;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.function.UnaryOperator;

import io.github.mcpsupervisor.internal.ServerText;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

/**
 * What a server's state machine records beside its phase: the generation count, the
 * outage budget and its timing, the last exit, error and stderr, the tool set, and the
 * primitive steps on them (announcing the tool set, log lines, the status snapshot).
 * Guarded by the supervisor's lock, except the tool set, which the call path reads
 * without it.
 */
final class ServerRecord {

	private static final Log logger = LogFactory.getLog(McpServerSupervisor.class);

	final String name;

	final OutageBudget budget;

	private final SupervisorLock lock;

	private final SupervisorScheduler scheduler;

	private final SupervisorListener listener;

	private final UnaryOperator<String> redaction;

	int lastGeneration;

	@Nullable Instant nextAttemptAt;

	@Nullable Instant outageStartedAt;

	@Nullable ExitStatus lastExit;

	@Nullable String lastError;

	List<String> lastStderr = List.of();

	CompletableFuture<McpServerStatus> firstOutcome = new CompletableFuture<>();

	// Read without the lock on the call path.
	volatile ToolSet tools = ToolSet.EMPTY;

	ServerRecord(String name, ReconnectPolicy policy, SupervisorLock lock, SupervisorScheduler scheduler,
			SupervisorListener listener, UnaryOperator<String> redaction) {
		this.name = name;
		this.redaction = redaction;
		this.budget = new OutageBudget(policy);
		this.lock = lock;
		this.scheduler = scheduler;
		this.listener = listener;
	}

	void announce(McpServerStateChange change) {
		this.lock.later(() -> this.listener.stateChanged(change));
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

	void notify(Runnable notification) {
		this.lock.later(notification);
	}

	SupervisorListener listener() {
		return this.listener;
	}

	McpServerStatus status(McpServerState state, @Nullable Generation live) {
		McpConnection connection = (live != null) ? live.connection : null;
		return new McpServerStatus(this.name, state, this.lastGeneration,
				(connection != null) ? connection.pid() : null, (live != null) ? live.upSince : null,
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
