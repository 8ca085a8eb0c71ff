package io.github.mcpsupervisor.actuate;

import java.net.URI;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonInclude.Include;
import io.github.mcpsupervisor.authorization.McpAuthorizationRequest;
import io.github.mcpsupervisor.supervisor.ExitStatus;
import io.github.mcpsupervisor.supervisor.McpServerState;
import io.github.mcpsupervisor.supervisor.McpServerStatus;
import io.github.mcpsupervisor.supervisor.McpStandbyState;
import io.github.mcpsupervisor.supervisor.McpStandbyStatus;
import org.jspecify.annotations.Nullable;

/**
 * A server's state and counters as the health component and the endpoint show them:
 * absent values are left out, durations are ISO-8601.
 *
 * @param state the server's state
 * @param required whether the {@code mcp} health component is down while the server is
 * not up
 * @param generation the current (or last) generation
 * @param pid the pid of the live generation's process
 * @param uptime how long the live generation has been up
 * @param attempts the attempts used in the current outage
 * @param maxAttempts the attempts allowed per outage
 * @param nextAttemptIn how long until the next attempt, while one is pending
 * @param lastExit how the last generation's process ended
 * @param lastError the last error
 * @param stderr the last lines the server wrote to stderr
 * @param tools how many tools are registered
 * @param protocol the MCP revision the live generation speaks (2025-11-25 or 2026-07-28),
 * absent while none is connected
 * @param authorization the authorization a person must give, while one is awaited
 * (endpoint only: whoever opens its URL first authorizes the server as themselves)
 * @param cooldown the cooldown a FAILED server waits out before it tries again with a
 * fresh outage budget ({@code nextAttemptIn} is what is left of it), absent when no
 * attempt is planned
 * @param standby the server's warm standby, absent when it keeps none
 * @since 0.1.0
 */
@JsonInclude(Include.NON_NULL)
public record McpServerDetails(McpServerState state, boolean required, int generation, @Nullable Long pid,
		@Nullable Duration uptime, int attempts, int maxAttempts, @Nullable Duration nextAttemptIn,
		@Nullable Exit lastExit, @Nullable String lastError, @Nullable List<String> stderr, int tools,
		@Nullable String protocol, @Nullable Authorization authorization, @Nullable Duration cooldown,
		@Nullable Standby standby) {

	/** Stderr lines shown in health details. */
	static final int HEALTH_STDERR_LINES = 5;

	/**
	 * Describes a server's state and counters.
	 * @param status the server's status
	 * @param required whether the server is required
	 * @param stderrLines how many of the last stderr lines to show (none when 0)
	 * @param clock the clock of the supervisor
	 * @return the details
	 */
	static McpServerDetails of(McpServerStatus status, boolean required, int stderrLines, Clock clock) {
		return of(status, required, stderrLines, clock, null);
	}

	/**
	 * Describes a server's state and counters, and the authorization it awaits.
	 * @param status the server's status
	 * @param required whether the server is required
	 * @param stderrLines how many of the last stderr lines to show (none when 0)
	 * @param clock the clock of the supervisor
	 * @param authorization the authorization awaited, if any
	 * @return the details
	 */
	static McpServerDetails of(McpServerStatus status, boolean required, int stderrLines, Clock clock,
			@Nullable McpAuthorizationRequest authorization) {
		Instant now = clock.instant();
		Duration uptime = (status.upSince() != null) ? Duration.between(status.upSince(), now) : null;
		Duration nextAttemptIn = (status.nextAttemptAt() != null) ? until(now, status.nextAttemptAt()) : null;
		Exit lastExit = (status.lastExit() != null) ? Exit.of(status.lastExit()) : null;
		List<String> stderr = status.stderrTail();
		List<String> shown = (stderr.isEmpty() || stderrLines <= 0) ? null
				: List.copyOf(stderr.subList(Math.max(0, stderr.size() - stderrLines), stderr.size()));
		return new McpServerDetails(status.state(), required, status.generation(), status.pid(), uptime,
				status.attemptsUsed(), status.maxAttempts(), nextAttemptIn, lastExit, status.lastError(), shown,
				status.tools().size(), status.protocol(),
				(authorization != null) ? Authorization.of(authorization, now) : null, status.cooldown(),
				(status.standby() != null) ? Standby.of(status.standby(), now) : null);
	}

	/**
	 * Returns these details as a server's health details: the entries of this record's
	 * JSON, in the same order, absent values left out.
	 * @return the details by name
	 */
	Map<String, Object> asMap() {
		Map<String, Object> details = new LinkedHashMap<>();
		details.put("state", this.state);
		details.put("required", this.required);
		details.put("generation", this.generation);
		putIfPresent(details, "pid", this.pid);
		putIfPresent(details, "uptime", this.uptime);
		details.put("attempts", this.attempts);
		details.put("maxAttempts", this.maxAttempts);
		putIfPresent(details, "nextAttemptIn", this.nextAttemptIn);
		putIfPresent(details, "lastExit", this.lastExit);
		putIfPresent(details, "lastError", this.lastError);
		putIfPresent(details, "stderr", this.stderr);
		details.put("tools", this.tools);
		putIfPresent(details, "protocol", this.protocol);
		putIfPresent(details, "authorization", this.authorization);
		putIfPresent(details, "cooldown", this.cooldown);
		putIfPresent(details, "standby", this.standby);
		return details;
	}

	private static void putIfPresent(Map<String, Object> details, String name, @Nullable Object value) {
		if (value != null) {
			details.put(name, value);
		}
	}

	private static Duration until(Instant now, Instant then) {
		Duration until = Duration.between(now, then);
		return until.isNegative() ? Duration.ZERO : until;
	}

	/**
	 * A server's warm standby: its spare, and the spare's own budget.
	 *
	 * @param state the standby's state
	 * @param generation the spare's generation, while one starts or is ready
	 * @param pid the pid of the spare's process, once spawned
	 * @param attempts the spare attempts used since the standby's budget was last reset
	 * @param maxAttempts the standby's budget
	 * @param nextAttemptIn how long until the next spare starts, while backing off
	 * @param lastError why the last spare failed or ended
	 * @param promotions how many spares became the serving generation
	 */
	@JsonInclude(Include.NON_NULL)
	public record Standby(McpStandbyState state, @Nullable Integer generation, @Nullable Long pid, int attempts,
			int maxAttempts, @Nullable Duration nextAttemptIn, @Nullable String lastError, long promotions) {

		static Standby of(McpStandbyStatus standby, Instant now) {
			return new Standby(standby.state(), standby.generation(), standby.pid(), standby.attemptsUsed(),
					standby.maxAttempts(),
					(standby.nextAttemptAt() != null) ? until(now, standby.nextAttemptAt()) : null, standby.lastError(),
					standby.promotions());
		}

	}

	/**
	 * An authorization a person must give.
	 *
	 * @param uri the authorization server's URL to open in that person's browser
	 * @param scopes the scopes asked for
	 * @param expiresIn how long the request is accepted
	 */
	public record Authorization(URI uri, List<String> scopes, Duration expiresIn) {

		static Authorization of(McpAuthorizationRequest request, Instant now) {
			return new Authorization(request.authorizationUri(), request.scopes(), until(now, request.expiresAt()));
		}

	}

	/**
	 * How a server's process ended.
	 *
	 * @param code the exit code
	 * @param signal the signal that ended it, if the exit code says so
	 * @param description the exit described, e.g. {@code exit code 137 (signal 9,
	 * SIGKILL)}
	 */
	@JsonInclude(Include.NON_NULL)
	public record Exit(int code, @Nullable Integer signal, String description) {

		static Exit of(ExitStatus exit) {
			return new Exit(exit.exitCode(), exit.signal(), exit.describe());
		}

	}

}
