package io.github.mcpsupervisor.actuate;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import io.github.mcpsupervisor.supervisor.ExitStatus;
import io.github.mcpsupervisor.supervisor.McpServerStatus;

/**
 * The details of a server shown by the health component and the endpoint: absent values
 * are left out, durations are ISO-8601.
 */
final class McpServerDetails {

	/** Stderr lines shown in health details. */
	static final int HEALTH_STDERR_LINES = 5;

	private McpServerDetails() {
	}

	/**
	 * Describes a server's state and counters.
	 * @param status the server's status
	 * @param required whether the server is required
	 * @param stderrLines how many of the last stderr lines to show (none when 0)
	 * @param clock the clock of the supervisor
	 * @return the details
	 */
	static Map<String, Object> of(McpServerStatus status, boolean required, int stderrLines, Clock clock) {
		Instant now = clock.instant();
		Map<String, Object> details = new LinkedHashMap<>();
		details.put("state", status.state());
		details.put("required", required);
		details.put("generation", status.generation());
		putIfPresent(details, "pid", status.pid());
		if (status.upSince() != null) {
			details.put("uptime", Duration.between(status.upSince(), now).toString());
		}
		details.put("attempts", status.attemptsUsed());
		details.put("maxAttempts", status.maxAttempts());
		if (status.nextAttemptAt() != null) {
			Duration until = Duration.between(now, status.nextAttemptAt());
			details.put("nextAttemptIn", (until.isNegative() ? Duration.ZERO : until).toString());
		}
		if (status.lastExit() != null) {
			details.put("lastExit", exit(status.lastExit()));
		}
		putIfPresent(details, "lastError", status.lastError());
		List<String> stderr = status.stderrTail();
		if (!stderr.isEmpty() && stderrLines > 0) {
			details.put("stderr", stderr.subList(Math.max(0, stderr.size() - stderrLines), stderr.size()));
		}
		details.put("tools", status.tools().size());
		return details;
	}

	private static Map<String, Object> exit(ExitStatus exit) {
		Map<String, Object> details = new LinkedHashMap<>();
		details.put("code", exit.exitCode());
		putIfPresent(details, "signal", exit.signal());
		details.put("description", exit.describe());
		return details;
	}

	private static void putIfPresent(Map<String, Object> details, String key, Object value) {
		if (value != null) {
			details.put(key, value);
		}
	}

}
