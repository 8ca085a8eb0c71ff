package io.github.mcpsupervisor.supervisor;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;

import io.github.mcpsupervisor.internal.ServerText;
import org.jspecify.annotations.Nullable;

/**
 * A consistent snapshot of one supervised server.
 *
 * @param name the server's name
 * @param state its state
 * @param generation the live generation, or the last one started while none is live (a
 * spare's included), {@code 0} before the first attempt
 * @param pid the pid of the live generation's process
 * @param upSince when the live generation connected
 * @param attemptsUsed attempts used in the current outage
 * @param maxAttempts attempts allowed per outage
 * @param nextAttemptAt when the next attempt is due
 * @param lastExit how the last generation's process ended
 * @param lastError the last error (failed attempt, lost connection, reason for giving
 * up), without control characters and at most 500 characters long (then followed by a
 * marker)
 * @param stderrTail the last lines written to stderr by the last generation
 * @param tools the names of the registered tools
 * @param protocol the MCP revision the live generation speaks, {@code null} while none is
 * connected
 * @param cooldown the cooldown a server given up after a spent budget waits out before it
 * tries again with a fresh budget ({@link #nextAttemptAt()} is its end), {@code null}
 * when no attempt is planned or the server is not given up
 * @param standby the server's warm standby, {@code null} when it keeps none
 * @since 0.1.0
 */
public record McpServerStatus(String name, McpServerState state, int generation, @Nullable Long pid,
		@Nullable Instant upSince, int attemptsUsed, int maxAttempts, @Nullable Instant nextAttemptAt,
		@Nullable ExitStatus lastExit, @Nullable String lastError, List<String> stderrTail, List<String> tools,
		@Nullable String protocol, @Nullable Duration cooldown, @Nullable McpStandbyStatus standby) {

	public McpServerStatus {
		// it quotes the server (its errors, its stderr): never shown unbounded
		lastError = (lastError != null) ? ServerText.bounded(lastError, ServerText.MAX_LENGTH) : null;
	}

	/**
	 * How a server process ended: its exit code (the JVM reports death by signal n as 128
	 * + n) and the last line it wrote to stderr.
	 *
	 * @param exitCode the exit code
	 * @param lastStderrLine the last line of stderr, if any
	 * @since 0.1.0
	 */
	public record ExitStatus(int exitCode, @Nullable String lastStderrLine) {

		private static final Map<Integer, String> SIGNALS = Map.of(1, "SIGHUP", 2, "SIGINT", 3, "SIGQUIT", 6, "SIGABRT",
				9, "SIGKILL", 11, "SIGSEGV", 13, "SIGPIPE", 15, "SIGTERM");

		/**
		 * Returns the signal that ended the process, when the exit code says so.
		 * @return the signal number, or {@code null}
		 */
		public @Nullable Integer signal() {
			return (this.exitCode > 128 && this.exitCode < 128 + 32) ? this.exitCode - 128 : null;
		}

		/**
		 * Describes the exit for logs and diagnostics, e.g.
		 * {@code exit code 137 (signal 9,
		 * SIGKILL)}.
		 * @return the description
		 */
		public String describe() {
			Integer signal = signal();
			if (signal == null) {
				return "exit code " + this.exitCode;
			}
			String name = SIGNALS.get(signal);
			return "exit code " + this.exitCode + " (signal " + signal + ((name != null) ? ", " + name : "") + ")";
		}

	}

}
