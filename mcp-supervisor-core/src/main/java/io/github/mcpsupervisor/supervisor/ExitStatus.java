package io.github.mcpsupervisor.supervisor;

import java.util.Map;

import org.jspecify.annotations.Nullable;

/**
 * How a server process ended: its exit code (the JVM reports death by signal n as 128 +
 * n) and the last line it wrote to stderr.
 *
 * @param exitCode the exit code
 * @param lastStderrLine the last line of stderr, if any
 * @since 0.1.0
 */
public record ExitStatus(int exitCode, @Nullable String lastStderrLine) {

	private static final Map<Integer, String> SIGNALS = Map.of(1, "SIGHUP", 2, "SIGINT", 3, "SIGQUIT", 6, "SIGABRT", 9,
			"SIGKILL", 11, "SIGSEGV", 13, "SIGPIPE", 15, "SIGTERM");

	/**
	 * Returns the signal that ended the process, when the exit code says so.
	 * @return the signal number, or {@code null}
	 */
	public @Nullable Integer signal() {
		return (this.exitCode > 128 && this.exitCode < 128 + 32) ? this.exitCode - 128 : null;
	}

	/**
	 * Describes the exit for logs and diagnostics, e.g. {@code exit code 137 (signal 9,
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
