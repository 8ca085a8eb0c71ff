package io.github.mcpsupervisor.supervisor;

import java.time.Instant;

import io.github.mcpsupervisor.supervisor.McpConnector.McpConnection;
import io.github.mcpsupervisor.supervisor.SupervisorScheduler.Cancellable;
import org.jspecify.annotations.Nullable;

import org.springframework.util.backoff.BackOffExecution;

/**
 * The live generation of a supervisor and the work attached to it. Guarded by the
 * supervisor's lock.
 */
final class Generation {

	final McpConnection connection;

	final Instant upSince;

	@Nullable Cancellable stabilityTimer;

	@Nullable Cancellable probeTimer;

	/** The pause after a tool listing, before the next one may start. */
	@Nullable Cancellable syncTimer;

	int failedProbes;

	/** Why the supervisor ended this generation itself, if it did. */
	@Nullable String endedBecause;

	boolean syncRunning;

	boolean syncAgain;

	/** The delays before retrying a failed re-listing; null while listings succeed. */
	@Nullable BackOffExecution syncRetries;

	Generation(McpConnection connection, Instant upSince) {
		this.connection = connection;
		this.upSince = upSince;
	}

	void cancelTimers() {
		if (this.stabilityTimer != null) {
			this.stabilityTimer.cancel();
			this.stabilityTimer = null;
		}
		if (this.probeTimer != null) {
			this.probeTimer.cancel();
			this.probeTimer = null;
		}
		if (this.syncTimer != null) {
			this.syncTimer.cancel();
			this.syncTimer = null;
		}
	}

}
