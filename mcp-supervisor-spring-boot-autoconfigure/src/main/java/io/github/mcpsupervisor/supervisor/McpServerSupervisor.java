package io.github.mcpsupervisor.supervisor;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeoutException;

import io.github.mcpsupervisor.supervisor.McpConnectException.Kind;
import io.github.mcpsupervisor.supervisor.SupervisorScheduler.Cancellable;
import io.modelcontextprotocol.spec.McpError;
import io.modelcontextprotocol.spec.McpSchema.CallToolRequest;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import io.modelcontextprotocol.spec.McpSchema.Tool;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

/**
 * Keeps one MCP server alive: connects generation after generation, notices a lost
 * generation at once, reconnects with bounded backoff within an outage budget, and keeps
 * the server's tool set in step with the live generation.
 *
 * <p>
 * Invariants: at most one generation's process exists at any time (the next attempt
 * starts only after the previous process tree is confirmed gone); a stale generation's
 * signals are inert; the outage budget is reset only by sustained uptime or
 * {@link #reset()}; after {@link #stop()} nothing is scheduled, spawned or left running.
 */
public final class McpServerSupervisor {

	private static final Log logger = LogFactory.getLog(McpServerSupervisor.class);

	private final String name;

	private final ReconnectPolicy policy;

	private final CallPolicy callPolicy;

	private final HealthCheckPolicy healthCheck;

	private final McpConnector connector;

	private final SupervisorScheduler scheduler;

	private final SupervisorListener listener;

	private final Object lock = new Object();

	private final Outbox outbox;

	private final Set<CompletableFuture<Void>> work = ConcurrentHashMap.newKeySet();

	private final OutageBudget budget;

	// Guarded by lock.
	private McpServerState state = McpServerState.STOPPED;

	private int lastGeneration;

	private int attemptToken;

	private @Nullable Generation live;

	private @Nullable McpConnection connecting;

	private boolean terminating;

	private boolean connectWhenIdle;

	private @Nullable Cancellable pendingAttempt;

	private @Nullable Instant nextAttemptAt;

	private @Nullable Instant outageStartedAt;

	private @Nullable ExitStatus lastExit;

	private @Nullable String lastError;

	private List<String> lastStderr = List.of();

	private CompletableFuture<McpServerStatus> firstOutcome = new CompletableFuture<>();

	private final List<CompletableFuture<McpConnection>> recoveryWaiters = new ArrayList<>();

	// Read without the lock on the call path.
	private volatile @Nullable McpConnection current;

	private volatile ToolSet tools = ToolSet.EMPTY;

	/**
	 * Creates a supervisor whose calls fail at once during an outage and whose
	 * generations are not probed.
	 * @param name the server's name
	 * @param policy how it reconnects
	 * @param connector creates its generations
	 * @param scheduler its time and threads
	 * @param listener receives what it does
	 */
	public McpServerSupervisor(String name, ReconnectPolicy policy, McpConnector connector,
			SupervisorScheduler scheduler, SupervisorListener listener) {
		this(name, policy, new CallPolicy(Duration.ZERO, CallPolicy.Retry.SAFE, true, java.util.Set.of()),
				HealthCheckPolicy.disabled(Duration.ofSeconds(5)), connector, scheduler, listener);
	}

	/**
	 * Creates a supervisor.
	 * @param name the server's name
	 * @param policy how it reconnects
	 * @param callPolicy how its tool calls behave around outages
	 * @param healthCheck how its live generations are probed
	 * @param connector creates its generations
	 * @param scheduler its time and threads
	 * @param listener receives what it does
	 */
	public McpServerSupervisor(String name, ReconnectPolicy policy, CallPolicy callPolicy,
			HealthCheckPolicy healthCheck, McpConnector connector, SupervisorScheduler scheduler,
			SupervisorListener listener) {
		this.name = name;
		this.policy = policy;
		this.callPolicy = callPolicy;
		this.healthCheck = healthCheck;
		this.connector = connector;
		this.scheduler = scheduler;
		this.listener = listener;
		this.budget = new OutageBudget(policy);
		this.outbox = new Outbox(name);
	}

	public String name() {
		return this.name;
	}

	public ReconnectPolicy policy() {
		return this.policy;
	}

	public McpServerState state() {
		synchronized (this.lock) {
			return this.state;
		}
	}

	/**
	 * Returns the tools of the live generation, or the last ones during an outage, or
	 * none once withdrawn.
	 * @return the current tool set
	 */
	public ToolSet tools() {
		return this.tools;
	}

	/**
	 * Starts supervising: the first attempt runs at once.
	 * @return completes with the status after the first attempt succeeded or failed
	 */
	public CompletableFuture<McpServerStatus> start() {
		CompletableFuture<McpServerStatus> outcome;
		synchronized (this.lock) {
			if (this.state != McpServerState.STOPPED) {
				return this.firstOutcome;
			}
			this.firstOutcome = new CompletableFuture<>();
			outcome = this.firstOutcome;
			this.budget.reset();
			this.lastError = null;
			this.lastExit = null;
			this.outageStartedAt = null;
			transition(McpServerState.STARTING, "start", null);
			this.budget.takeImmediate();
			CompletableFuture<Void> previous = quiescence();
			if (previous.isDone()) {
				launchAttempt();
			}
			else {
				// a stop's terminations are still running: never two processes
				int token = ++this.attemptToken;
				previous.whenComplete((ignored, ex) -> launchWhenQuiescent(token));
			}
		}
		flush();
		return outcome;
	}

	private void launchWhenQuiescent(int token) {
		synchronized (this.lock) {
			if (token != this.attemptToken || this.state != McpServerState.STARTING || this.connecting != null) {
				return;
			}
			launchAttempt();
		}
		flush();
	}

	/**
	 * Clears the outage budget and connects now. On an UP server only the budget is
	 * cleared; while an attempt or a termination is running, the attempt follows as soon
	 * as it ends.
	 * @return the status after the reset was taken
	 * @throws IllegalStateException if the supervisor is stopped
	 */
	public McpServerStatus reset() {
		synchronized (this.lock) {
			if (this.state == McpServerState.STOPPED) {
				throw new IllegalStateException("MCP server '" + this.name + "' is stopped and cannot be reset");
			}
			logger.info(prefix() + "reset requested in state " + this.state + ", outage budget cleared");
			this.budget.reset();
			if (this.state != McpServerState.UP && this.state != McpServerState.STARTING) {
				connectNow(RestartCause.RESET);
			}
		}
		flush();
		return status();
	}

	/**
	 * Ends the live generation, even when it is up, and connects a new one with a fresh
	 * budget: for a server that is alive but misbehaving. Concurrent restarts and resets
	 * join: there is never more than one process.
	 * @return the status after the restart was taken
	 * @throws IllegalStateException if the supervisor is stopped
	 */
	public McpServerStatus restart() {
		McpConnection retired = null;
		synchronized (this.lock) {
			if (this.state == McpServerState.STOPPED) {
				throw new IllegalStateException("MCP server '" + this.name + "' is stopped and cannot be restarted");
			}
			logger.info(prefix() + "restart requested in state " + this.state + ", outage budget cleared");
			this.budget.reset();
			if (this.live != null) {
				retired = this.live.connection;
				this.live.cancelTimers();
				this.live = null;
				this.current = null;
				this.terminating = true;
				this.connectWhenIdle = true;
				this.outageStartedAt = now();
				transition(McpServerState.RECONNECTING, "restart", null);
				this.outbox.add(() -> this.listener.restarting(this.name, RestartCause.RESTART));
			}
			else {
				connectNow(RestartCause.RESTART);
			}
		}
		flush();
		if (retired != null) {
			McpConnection connection = retired;
			closeQuietly(connection);
			track(() -> afterTermination(connection, terminateQuietly(connection), null));
		}
		return status();
	}

	// Connects at once, or as soon as the running attempt or termination ends.
	private void connectNow(RestartCause cause) {
		cancelPendingAttempt();
		this.outbox.add(() -> this.listener.restarting(this.name, cause));
		if (this.connecting != null || this.terminating) {
			this.connectWhenIdle = true;
		}
		else {
			this.budget.takeImmediate();
			transition(McpServerState.RECONNECTING, cause.name().toLowerCase(Locale.ROOT), null);
			launchAttempt();
		}
	}

	/**
	 * Stops supervising: cancels timers, closes the live client, terminates every process
	 * tree (bounded) and withdraws the tools. Nothing restarts afterwards.
	 * @return completes when every attempt, sync and termination has ended
	 */
	public CompletableFuture<Void> stop() {
		McpConnection wasLive = null;
		McpConnection wasConnecting;
		synchronized (this.lock) {
			if (this.state == McpServerState.STOPPED) {
				return quiescence();
			}
			cancelPendingAttempt();
			if (this.live != null) {
				this.live.cancelTimers();
				wasLive = this.live.connection;
			}
			wasConnecting = this.connecting;
			this.live = null;
			this.current = null;
			this.connectWhenIdle = false;
			transition(McpServerState.STOPPED, "stop", null);
			swapTools(ToolSet.EMPTY);
			this.firstOutcome.complete(statusLocked());
		}
		flush();
		if (wasLive != null) {
			McpConnection connection = wasLive;
			closeQuietly(connection);
			track(() -> terminateQuietly(connection));
		}
		if (wasConnecting != null) {
			McpConnection connection = wasConnecting;
			track(() -> terminateQuietly(connection));
		}
		return quiescence();
	}

	/**
	 * Calls a tool on the live generation. During STARTING or RECONNECTING the call waits
	 * for the next generation, up to the call policy's bound. When the generation dies
	 * under the call (or stops answering after the call timed out), a retry-eligible call
	 * runs once more on the next generation; others fail at once.
	 * @param request the call, with the tool's name on the server
	 * @return the server's result
	 * @throws McpServerUnavailableException if the server is not up and does not recover
	 * in time, its connection is lost during the call, or it does not offer the tool
	 */
	public CallToolResult callTool(CallToolRequest request) {
		McpConnection connection = awaitConnection(request.name(), null);
		try {
			return callOnce(connection, request);
		}
		catch (LostDuringCall lost) {
			Tool tool = this.tools.find(request.name());
			if (tool == null || !this.callPolicy.isRetryEligible(tool) || Thread.currentThread().isInterrupted()) {
				throw lostDuringCall(connection, request.name(), lost, "");
			}
			McpConnection next;
			try {
				next = awaitConnection(request.name(), connection);
			}
			catch (McpServerUnavailableException ex) {
				throw lostDuringCall(connection, request.name(), lost,
						" It could not be retried: " + ex.getMessage() + ".");
			}
			logger.info(prefix() + "retrying a call to tool '" + request.name() + "' on generation " + next.generation()
					+ " after generation " + connection.generation() + " was lost under it");
			try {
				return callOnce(next, request);
			}
			catch (LostDuringCall again) {
				throw lostDuringCall(next, request.name(), again, " It was retried once already.");
			}
		}
	}

	private CallToolResult callOnce(McpConnection connection, CallToolRequest request) {
		if (this.tools.find(request.name()) == null) {
			throw new McpServerUnavailableException(this.name, McpServerState.UP, "MCP server '" + this.name
					+ "' no longer offers tool '" + request.name() + "' (it offers " + this.tools.names() + ")", null);
		}
		try {
			return connection.callTool(request);
		}
		catch (McpError ex) {
			throw ex; // the server answered: never retried, never a reason to reconnect
		}
		catch (RuntimeException ex) {
			if (Failures.isCancellation(ex)) {
				throw ex;
			}
			if (connection.isLost()) {
				throw new LostDuringCall(ex);
			}
			if (Failures.hasCause(ex, TimeoutException.class)) {
				if (connection.ping(this.healthCheck.timeout())) {
					throw ex; // slow, not dead
				}
				endGeneration(connection, "liveness: no reply to ping after a request timeout");
				throw new LostDuringCall(ex);
			}
			throw ex;
		}
	}

	// Returns the live connection, waiting for the next generation while the server is
	// starting or reconnecting (or while the failed one is not yet seen as lost).
	private McpConnection awaitConnection(String tool, @Nullable McpConnection failed) {
		McpConnection connection = this.current;
		if (connection != null && connection != failed) {
			return connection;
		}
		CompletableFuture<McpConnection> waiter = new CompletableFuture<>();
		synchronized (this.lock) {
			connection = this.current;
			if (connection != null && connection != failed) {
				return connection;
			}
			boolean recovering = this.state == McpServerState.STARTING || this.state == McpServerState.RECONNECTING
					|| this.state == McpServerState.UP;
			if (!recovering || this.callPolicy.waitForRecovery().isZero()) {
				throw unavailable(tool, "");
			}
			this.recoveryWaiters.add(waiter);
			Cancellable timeout = this.scheduler.schedule(this.callPolicy.waitForRecovery(),
					() -> waiter.completeExceptionally(new TimeoutException()));
			waiter.whenComplete((ignored, ex) -> {
				timeout.cancel();
				synchronized (this.lock) {
					this.recoveryWaiters.remove(waiter);
				}
			});
		}
		try {
			return waiter.get();
		}
		catch (ExecutionException ex) {
			throw unavailable(tool, (ex.getCause() instanceof TimeoutException)
					? " and did not recover within " + this.callPolicy.waitForRecovery().toMillis() + " ms" : "");
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw unavailable(tool, " (the caller was interrupted while waiting)");
		}
	}

	// Wakes the calls waiting for a generation: with it, or to fail them.
	private void releaseWaiters(@Nullable McpConnection connection) {
		List<CompletableFuture<McpConnection>> waiters = List.copyOf(this.recoveryWaiters);
		this.recoveryWaiters.clear();
		if (!waiters.isEmpty()) {
			this.outbox.add(() -> waiters.forEach((waiter) -> {
				if (connection != null) {
					waiter.complete(connection);
				}
				else {
					waiter.completeExceptionally(new IllegalStateException("no generation to wait for"));
				}
			}));
		}
	}

	private McpServerUnavailableException lostDuringCall(McpConnection connection, String tool, LostDuringCall lost,
			String retried) {
		ExitStatus exit = connection.onLost().getNow(null);
		String how = (exit != null) ? exit.describe() : connection.isLost() ? connection.lossReason() : null;
		Tool offered = this.tools.find(tool);
		String retry = (offered != null && !this.callPolicy.isRetryEligible(offered) && retried.isEmpty())
				? " It was not retried: tool '" + tool + "' is not retry-eligible." : retried;
		return new McpServerUnavailableException(this.name, McpServerState.RECONNECTING,
				UnavailableMessages.lostDuringCall(this.name, tool, how, retry, this.policy.enabled()),
				lost.getCause());
	}

	/**
	 * Returns a consistent snapshot of this server.
	 * @return the status
	 */
	public McpServerStatus status() {
		synchronized (this.lock) {
			return statusLocked();
		}
	}

	/**
	 * Returns the number of calls waiting for a generation.
	 * @return the count
	 */
	int waitingCalls() {
		synchronized (this.lock) {
			return this.recoveryWaiters.size();
		}
	}

	/**
	 * Returns a future that completes when the supervisor's running work has ended.
	 * @return the future
	 */
	CompletableFuture<Void> quiescence() {
		return CompletableFuture.allOf(this.work.toArray(CompletableFuture[]::new));
	}

	private void launchAttempt() {
		int generation = ++this.lastGeneration;
		McpConnection connection = this.connector.create(generation, () -> onToolsChanged(generation));
		this.connecting = connection;
		this.nextAttemptAt = null;
		track(() -> runAttempt(connection));
	}

	private void runAttempt(McpConnection connection) {
		try {
			connection.open();
		}
		catch (McpConnectException ex) {
			attemptFailed(connection, ex);
			return;
		}
		catch (RuntimeException ex) {
			attemptFailed(connection,
					new McpConnectException(Kind.TRANSIENT, String.valueOf(ex.getMessage()), null, ex));
			return;
		}
		attemptSucceeded(connection);
	}

	private void attemptSucceeded(McpConnection connection) {
		boolean discard;
		McpServerStatus outcome;
		CompletableFuture<McpServerStatus> first;
		synchronized (this.lock) {
			this.connecting = null;
			discard = this.state == McpServerState.STOPPED;
			if (!discard) {
				Generation generation = new Generation(connection, now());
				this.live = generation;
				this.current = connection;
				this.connectWhenIdle = false;
				int toolCount = connection.tools().size();
				this.outbox.add(() -> this.listener.attemptFinished(this.name, connection.generation(), true));
				if (this.outageStartedAt != null) {
					int attempts = this.budget.used();
					Duration outage = Duration.between(this.outageStartedAt, now());
					logger.info(prefix() + "recovered after " + attempts + " attempt(s), outage " + outage.toMillis()
							+ " ms (generation " + connection.generation() + ", pid " + connection.pid() + ", "
							+ toolCount + " tools)");
					this.outbox.add(() -> this.listener.recovered(this.name, attempts, outage));
				}
				else {
					logger.info(prefix() + "connected (generation " + connection.generation() + ", pid "
							+ connection.pid() + ", " + toolCount + " tools)");
				}
				generation.stabilityTimer = this.scheduler.schedule(this.policy.stabilityWindow(),
						() -> onStable(connection.generation()));
				scheduleProbe(generation);
				swapTools(new ToolSet(connection.generation(), connection.tools()));
				transition(McpServerState.UP, "connected", null);
				releaseWaiters(connection);
			}
			outcome = statusLocked();
			first = this.firstOutcome;
		}
		flush();
		first.complete(outcome);
		if (discard) {
			closeQuietly(connection);
			terminateQuietly(connection);
			return;
		}
		connection.onLost().whenComplete((exit, ex) -> track(() -> onLost(connection, exit)));
	}

	private void attemptFailed(McpConnection connection, McpConnectException ex) {
		McpServerStatus outcome;
		CompletableFuture<McpServerStatus> first;
		synchronized (this.lock) {
			this.connecting = null;
			if (this.state == McpServerState.STOPPED) {
				return;
			}
			this.outbox.add(() -> this.listener.attemptFinished(this.name, connection.generation(), false));
			this.lastError = "connection failed: " + ex.getMessage();
			this.lastExit = ex.getExit();
			this.lastStderr = connection.stderrTail();
			logger.warn(prefix() + "connection failed (attempt " + this.budget.used() + "/" + this.budget.max()
					+ ", generation " + connection.generation() + "): " + ex.getMessage());
			if (ex.getKind() == Kind.CONFIGURATION) {
				giveUp("configuration error: " + ex.getMessage(), ex.getExit());
			}
			else if (ex.getKind() == Kind.NOT_CONFIRMED_DEAD) {
				giveUp(ex.getMessage(), ex.getExit());
			}
			else if (this.connectWhenIdle) {
				reconnectNow();
			}
			else if (!this.policy.enabled()) {
				transition(McpServerState.DISCONNECTED, "connection failed and reconnect is disabled", ex.getExit());
				logger.error(prefix() + "connection failed and reconnect is disabled; " + resetHint());
			}
			else {
				retryOrGiveUp(ex.getExit());
			}
			outcome = statusLocked();
			first = this.firstOutcome;
		}
		flush();
		first.complete(outcome);
	}

	private void onLost(McpConnection connection, @Nullable ExitStatus exit) {
		synchronized (this.lock) {
			if (this.live == null || this.live.connection != connection) {
				return; // a stale generation: inert
			}
			String endedBecause = this.live.endedBecause;
			this.live.cancelTimers();
			this.live = null;
			this.current = null;
			this.terminating = true;
			this.lastExit = exit;
			this.lastStderr = connection.stderrTail();
			String how = (endedBecause != null) ? endedBecause
					: (exit != null) ? exit.describe() : connection.lossReason();
			RestartCause cause = (endedBecause != null) ? RestartCause.LIVENESS : RestartCause.CRASH;
			this.lastError = "connection lost: " + how;
			if (this.outageStartedAt == null) {
				this.outageStartedAt = now();
			}
			String stderr = (exit != null && exit.lastStderrLine() != null)
					? "; last stderr line: " + exit.lastStderrLine() : "";
			if (this.policy.enabled()) {
				logger.warn(prefix() + "connection lost (generation " + connection.generation() + ", " + how + stderr
						+ ")");
				transition(McpServerState.RECONNECTING, "connection lost: " + how, exit);
				this.outbox.add(() -> this.listener.restarting(this.name, cause));
			}
			else {
				logger.error(prefix() + "connection lost (generation " + connection.generation() + ", " + how + stderr
						+ ") and reconnect is disabled; its tools stay registered and fail until it is reset; "
						+ resetHint());
				transition(McpServerState.DISCONNECTED, "connection lost: " + how, exit);
			}
		}
		flush();
		closeQuietly(connection);
		afterTermination(connection, terminateQuietly(connection), exit);
	}

	// Closes a retired generation's client; a failure of the SDK's close must never stop
	// the state machine.
	private void closeQuietly(McpConnection connection) {
		try {
			connection.closeClient();
		}
		catch (RuntimeException ex) {
			logger.debug(prefix() + "closing the client of generation " + connection.generation() + " failed", ex);
		}
	}

	// Terminates a retired generation; a failure to do so counts as not confirmed gone.
	private boolean terminateQuietly(McpConnection connection) {
		try {
			return connection.terminate();
		}
		catch (RuntimeException ex) {
			logger.warn(prefix() + "terminating generation " + connection.generation() + " failed", ex);
			return false;
		}
	}

	// Decides what follows once a retired generation's tree is terminated.
	private void afterTermination(McpConnection connection, boolean confirmed, @Nullable ExitStatus exit) {
		synchronized (this.lock) {
			this.terminating = false;
			if (this.state == McpServerState.STOPPED) {
				return;
			}
			if (!confirmed) {
				giveUp("the process tree of generation " + connection.generation()
						+ " could not be confirmed gone; not reconnecting so that two servers never run", exit);
			}
			else if (this.connectWhenIdle) {
				reconnectNow();
			}
			else if (this.state == McpServerState.RECONNECTING) {
				retryOrGiveUp(exit);
			}
		}
		flush();
	}

	private void scheduleProbe(Generation generation) {
		if (this.healthCheck.isEnabled()) {
			generation.probeTimer = this.scheduler.schedule(this.healthCheck.interval(), () -> probe(generation));
		}
	}

	// One liveness probe of the live generation; the next follows after the interval.
	private void probe(Generation generation) {
		synchronized (this.lock) {
			if (this.live != generation || generation.endedBecause != null) {
				return;
			}
			generation.probeTimer = null;
		}
		boolean answered = generation.connection.ping(this.healthCheck.timeout());
		boolean dead = false;
		synchronized (this.lock) {
			if (this.live != generation) {
				return;
			}
			if (answered) {
				generation.failedProbes = 0;
			}
			else {
				generation.failedProbes++;
				logger.warn(prefix() + "no reply to ping within " + this.healthCheck.timeout().toMillis() + " ms ("
						+ generation.failedProbes + "/" + this.healthCheck.failureThreshold() + ", generation "
						+ generation.connection.generation() + ")");
				dead = generation.failedProbes >= this.healthCheck.failureThreshold();
			}
			if (!dead) {
				scheduleProbe(generation);
			}
		}
		if (dead) {
			endGeneration(generation.connection, "liveness: no reply to ping (" + this.healthCheck.failureThreshold()
					+ " in a row, " + this.healthCheck.timeout().toMillis() + " ms each)");
		}
	}

	// Ends a live generation that is alive but useless: its tree is killed, and its exit
	// then drives the usual reconnect, with the given cause.
	private void endGeneration(McpConnection connection, String because) {
		synchronized (this.lock) {
			if (this.live == null || this.live.connection != connection || this.live.endedBecause != null) {
				return;
			}
			this.live.endedBecause = because;
			logger.warn(prefix() + because + "; ending generation " + connection.generation());
		}
		track(() -> terminateQuietly(connection));
	}

	private void onStable(int generation) {
		synchronized (this.lock) {
			if (this.live != null && this.live.connection.generation() == generation) {
				this.budget.reset();
				this.outageStartedAt = null;
				if (logger.isDebugEnabled()) {
					logger.debug(prefix() + "generation " + generation + " stable, outage budget reset");
				}
			}
		}
	}

	private void onAttemptTimer(int token) {
		synchronized (this.lock) {
			if (token != this.attemptToken || this.pendingAttempt == null || this.state == McpServerState.STOPPED) {
				return; // cancelled or superseded
			}
			this.pendingAttempt = null;
			launchAttempt();
		}
		flush();
	}

	private void onToolsChanged(int generation) {
		synchronized (this.lock) {
			if (this.live == null || this.live.connection.generation() != generation) {
				return;
			}
			if (this.live.syncRunning) {
				this.live.syncAgain = true;
				return;
			}
			this.live.syncRunning = true;
			Generation target = this.live;
			track(() -> syncTools(target));
		}
	}

	// Re-lists the tools until no change notification arrived during the listing.
	private void syncTools(Generation generation) {
		while (true) {
			synchronized (this.lock) {
				if (this.live != generation) {
					generation.syncRunning = false;
					return;
				}
				generation.syncAgain = false;
			}
			List<Tool> listed;
			try {
				listed = generation.connection.listTools();
			}
			catch (RuntimeException ex) {
				logger.warn(prefix() + "re-listing tools after a change notification failed: " + ex.getMessage());
				synchronized (this.lock) {
					generation.syncRunning = false;
				}
				return;
			}
			boolean again;
			synchronized (this.lock) {
				if (this.live != generation) {
					generation.syncRunning = false;
					return;
				}
				swapTools(new ToolSet(generation.connection.generation(), listed));
				again = generation.syncAgain;
				generation.syncRunning = again;
			}
			flush();
			if (!again) {
				return;
			}
		}
	}

	private void retryOrGiveUp(@Nullable ExitStatus exit) {
		Duration delay = this.budget.takeNext();
		if (delay == null) {
			giveUp("gave up after " + this.budget.max() + " attempts", exit);
			return;
		}
		if (this.state != McpServerState.RECONNECTING) {
			transition(McpServerState.RECONNECTING, String.valueOf(this.lastError), exit);
		}
		logger.warn(prefix() + "retrying " + this.budget.used() + "/" + this.budget.max() + " in " + delay.toMillis()
				+ " ms");
		int token = ++this.attemptToken;
		this.nextAttemptAt = now().plus(delay);
		this.pendingAttempt = this.scheduler.schedule(delay, () -> onAttemptTimer(token));
	}

	private void reconnectNow() {
		this.connectWhenIdle = false;
		this.budget.takeImmediate();
		if (this.state != McpServerState.RECONNECTING) {
			transition(McpServerState.RECONNECTING, "reconnecting on request", null);
		}
		launchAttempt();
	}

	private void giveUp(String reason, @Nullable ExitStatus exit) {
		cancelPendingAttempt();
		this.lastError = reason;
		transition(McpServerState.FAILED, reason, exit);
		swapTools(ToolSet.EMPTY);
		logger.error(prefix() + reason + "; tools withdrawn. " + resetHint());
	}

	private void cancelPendingAttempt() {
		this.attemptToken++;
		if (this.pendingAttempt != null) {
			this.pendingAttempt.cancel();
			this.pendingAttempt = null;
		}
		this.nextAttemptAt = null;
	}

	private void transition(McpServerState to, String cause, @Nullable ExitStatus exit) {
		McpServerState from = this.state;
		this.state = to;
		if (to == McpServerState.FAILED || to == McpServerState.DISCONNECTED || to == McpServerState.STOPPED) {
			releaseWaiters(null);
		}
		McpServerStateChange change = new McpServerStateChange(this.name, from, to, this.lastGeneration, cause, exit);
		this.outbox.add(() -> this.listener.stateChanged(change));
	}

	private void swapTools(ToolSet replacement) {
		this.tools = replacement;
		this.outbox.add(() -> this.listener.toolsChanged(this.name, replacement));
	}

	/** Delivers queued notifications in order, outside the state lock. */
	private void flush() {
		this.outbox.flush();
	}

	private void track(Runnable task) {
		CompletableFuture<Void> done = new CompletableFuture<>();
		this.work.add(done);
		try {
			this.scheduler.execute(() -> {
				try {
					task.run();
				}
				catch (RuntimeException ex) {
					logger.error(prefix() + "supervisor task failed", ex);
				}
				finally {
					this.work.remove(done);
					done.complete(null);
				}
			});
		}
		catch (RuntimeException ex) {
			this.work.remove(done);
			done.complete(null);
			throw ex;
		}
	}

	private McpServerUnavailableException unavailable(String tool, String suffix) {
		McpServerStatus status = status();
		return new McpServerUnavailableException(this.name, status.state(),
				UnavailableMessages.notUp(status, now(), tool, suffix), null);
	}

	private McpServerStatus statusLocked() {
		McpConnection connection = (this.live != null) ? this.live.connection : null;
		return new McpServerStatus(this.name, this.state, this.lastGeneration,
				(connection != null) ? connection.pid() : null, (this.live != null) ? this.live.upSince : null,
				this.budget.used(), this.budget.max(), this.nextAttemptAt, this.lastExit, this.lastError,
				(connection != null) ? connection.stderrTail() : this.lastStderr, this.tools.names());
	}

	private String resetHint() {
		return UnavailableMessages.resetHint(this.name);
	}

	private String prefix() {
		return "MCP server '" + this.name + "': ";
	}

	private Instant now() {
		return this.scheduler.clock().instant();
	}

	/** The generation of a call ended under it. */
	private static final class LostDuringCall extends RuntimeException {

		private static final long serialVersionUID = 1L;

		LostDuringCall(Throwable cause) {
			super(cause.getMessage(), cause, false, false);
		}

	}

}
