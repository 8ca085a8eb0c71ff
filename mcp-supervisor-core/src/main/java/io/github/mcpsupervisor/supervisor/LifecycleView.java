package io.github.mcpsupervisor.supervisor;

import java.util.concurrent.CompletableFuture;

import io.github.mcpsupervisor.internal.ServerText;
import io.github.mcpsupervisor.supervisor.McpConnector.McpConnection;
import io.github.mcpsupervisor.supervisor.ServerRecord.Level;
import org.jspecify.annotations.Nullable;

/**
 * What the jobs around a server's state machine (liveness, tool sync, call routing and
 * the facade) read of it, and the one thing they ask of it: to end a hung generation.
 * Nothing here moves the phase.
 */
final class LifecycleView implements Generations, CallRouter.Target {

	private final CheckedPhase phase;

	private final ServerRecord record;

	private final SupervisorLock lock;

	private final RecoveryWaiters waiters;

	private final ReconnectPolicy policy;

	private final Retirements retirements;

	private final Activity activity;

	private final KeptTools kept;

	// starts an idle server, under the lock: bound once the state machine is built
	private Runnable calledIdle = () -> {
	};

	LifecycleView(CheckedPhase phase, ServerRecord record, SupervisorLock lock, RecoveryWaiters waiters,
			ReconnectPolicy policy, Retirements retirements, Activity activity, KeptTools kept) {
		this.phase = phase;
		this.record = record;
		this.lock = lock;
		this.waiters = waiters;
		this.policy = policy;
		this.retirements = retirements;
		this.activity = activity;
		this.kept = kept;
	}

	/**
	 * Binds what starts an idle server when a call comes, run under the lock in the step
	 * that saw no live generation.
	 * @param called the state machine's step
	 */
	void whenCalledIdle(Runnable called) {
		this.calledIdle = called;
	}

	@Override
	public String name() {
		return this.record.name();
	}

	@Override
	public String loggable(@Nullable String text) {
		return ServerText.forLog(this.record.redact(String.valueOf(text)));
	}

	@Override
	public ToolSet tools() {
		return this.record.tools();
	}

	@Override
	public @Nullable Generation live() {
		return this.record.live();
	}

	@Override
	public boolean isLive(Generation generation) {
		return this.record.live() == generation;
	}

	@Override
	public void replaceTools(ToolSet replacement) {
		this.record.swapTools(replacement);
		Generation live = this.record.live();
		if (live != null && live.connection.generation() == replacement.generation()) {
			this.kept.keep(replacement, live.connection);
		}
	}

	// A server that stops while unused hands its generation out only under the lock,
	// where the stop that retires it cannot interleave (see Activity).
	@Override
	public @Nullable McpConnection current() {
		return this.activity.counts() ? null : this.record.current();
	}

	@Override
	public Activity activity() {
		return this.activity;
	}

	@Override
	public @Nullable EndedOnRequest endedOnRequest(McpConnection connection) {
		return this.lock.read(() -> this.record.endedOnRequest(connection));
	}

	@Override
	public boolean reconnects() {
		return this.policy.enabled();
	}

	// The live connection, or a waiter for the next generation, or null when the server
	// does not recover or calls do not wait. A waiter is added in the step that saw no
	// live generation, so a generation that comes up is never missed.
	@Override
	public @Nullable CompletableFuture<McpConnection> nextGeneration(@Nullable McpConnection failed) {
		return this.lock.step(() -> {
			McpConnection connection = this.record.current();
			// a generation that is lost but not yet retired is not called: a call waits
			// for the next one, like any call during a restart
			if (connection != null && connection != failed && !connection.isLost()) {
				return CompletableFuture.completedFuture(connection);
			}
			if (this.phase.current().state() == McpServerState.IDLE) {
				this.calledIdle.run();
			}
			McpServerState now = this.phase.current().state();
			boolean recovering = now == McpServerState.STARTING || now == McpServerState.RECONNECTING
					|| now == McpServerState.UP;
			return (recovering && this.waiters.isEnabled()) ? this.waiters.add() : null;
		});
	}

	// "what" names what is unavailable: "tool 'x'" or "request 'y'"
	@Override
	public McpServerUnavailableException unavailable(String what, String suffix) {
		// the message tells nothing of the standby
		McpServerStatus status = this.lock.read(() -> this.record.status(this.phase.current().state(), null));
		return new McpServerUnavailableException(name(), status.state(),
				UnavailableMessages.notUp(status, this.record.now(), what, suffix), null, false);
	}

	// A hung generation is marked as ended here, without a move: its kill then ends it
	// as a loss (UP to RECONNECTING), or, when its tree survives the kill, the state
	// machine gives up (UP to FAILED).
	@Override
	public void end(McpConnection connection, String because) {
		boolean ending = this.lock.step(() -> {
			Generation generation = this.record.live();
			if (generation == null || generation.connection != connection || generation.endedBecause != null) {
				return false;
			}
			generation.endedBecause = because;
			this.record.log(Level.WARN, because + "; ending generation " + connection.generation());
			return true;
		});
		if (ending) {
			this.retirements.endHung(connection);
		}
	}

	int waitingCalls() {
		return this.lock.read(this.waiters::size);
	}

}
