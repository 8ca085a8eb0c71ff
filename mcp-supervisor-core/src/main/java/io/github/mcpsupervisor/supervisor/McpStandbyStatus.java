package io.github.mcpsupervisor.supervisor;

import java.time.Instant;

import io.github.mcpsupervisor.internal.ServerText;
import org.jspecify.annotations.Nullable;

/**
 * A snapshot of a server's warm standby.
 *
 * @param state the standby's state
 * @param generation the spare's generation while it starts or is ready, else {@code null}
 * @param pid the spare's process id once spawned, else {@code null}
 * @param attemptsUsed the spare attempts taken from the standby's budget since it was
 * last reset (by a spare's sustained readiness, a reset or a restart)
 * @param maxAttempts the standby's budget: the reconnect policy's attempts
 * @param nextAttemptAt when the next spare starts, while backing off
 * @param lastError why the last spare failed or ended, if one did
 * @param promotions how many spares became the serving generation since the start
 * @since 0.1.0
 */
public record McpStandbyStatus(McpStandbyState state, @Nullable Integer generation, @Nullable Long pid,
		int attemptsUsed, int maxAttempts, @Nullable Instant nextAttemptAt, @Nullable String lastError,
		long promotions) {

	public McpStandbyStatus {
		// it quotes the server: never shown unbounded
		lastError = (lastError != null) ? ServerText.bounded(lastError, ServerText.MAX_LENGTH) : null;
	}

	/**
	 * The state of a server's warm standby: the spare generation that is kept started and
	 * initialized while the serving generation is up, and becomes the serving one at once
	 * when it ends.
	 *
	 * @since 0.1.0
	 */
	public enum McpStandbyState {

		/** No spare is kept now: the server is not up (a spare follows once it is). */
		WAITING,

		/** The spare is being started and initialized. */
		STARTING,

		/**
		 * The spare is initialized, its tools listed: it serves as soon as it is needed.
		 */
		READY,

		/** The last spare failed or ended: the next one waits for its backoff delay. */
		BACKING_OFF,

		/**
		 * The spares failed the whole budget, or for a cause no retry helps: none is kept
		 * until the server is reset or restarted. The serving generation is untouched.
		 */
		FAILED

	}

}
