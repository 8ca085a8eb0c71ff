package io.github.mcpsupervisor.supervisor;

import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import java.util.Locale;

import org.jspecify.annotations.Nullable;

/**
 * The messages of calls that could not reach their server: they name the server, its
 * state and what happens next, because the model (or the operator) reads them. They quote
 * neither the server's configuration (its URL or arguments may carry keys) nor what the
 * server said: the operator finds the cause in {@code lastError} and the logs.
 */
final class UnavailableMessages {

	private UnavailableMessages() {
	}

	// A call arrived while the server had no live generation.
	static String notUp(McpServerStatus status, Instant now, String what, String suffix) {
		String detail = switch (status.state()) {
			case STARTING -> "is starting";
			case RECONNECTING ->
				"is reconnecting (attempt " + status.attemptsUsed() + "/" + status.maxAttempts()
						+ ((status.nextAttemptAt() != null) ? ", next in "
								+ Math.max(0, Duration.between(now, status.nextAttemptAt()).toMillis()) + " ms" : "")
						+ ")";
			case DISCONNECTED -> "lost its connection and reconnect is disabled; " + resetHint(status.name());
			case NEEDS_AUTHORIZATION -> "needs an authorization that the application's operators must give";
			case FAILED -> "has failed"
					+ ((status.nextAttemptAt() != null)
							? "; it tries again after its cooldown, in "
									+ Math.max(0, Duration.between(now, status.nextAttemptAt()).toMillis()) + " ms"
							: "")
					+ "; " + resetHint(status.name());
			case STOPPED -> "is stopped";
			case UP -> "is between generations";
			case IDLE -> "is not running while unused";
		};
		return "MCP server '" + status.name() + "' " + detail + suffix + ": " + what + " is unavailable";
	}

	// A server that keeps its tools while down: what its tools' descriptions and the
	// results of calls to them say.
	static String down(String server, McpServerState state, Instant since, @Nullable Instant retryAt) {
		String outlook = switch (state) {
			case RECONNECTING -> "it is reconnecting, so a later call may succeed.";
			case DISCONNECTED -> "reconnect is disabled, so it stays unavailable until an operator resets it.";
			case NEEDS_AUTHORIZATION ->
				"it needs an authorization, so it stays unavailable until the application's operators give it.";
			case FAILED -> (retryAt != null)
					? "it has failed and tries again on its own at " + instant(retryAt)
							+ ", or sooner if an operator resets it."
					: "it has failed, so it stays unavailable until an operator resets it.";
			case STARTING -> "it is starting.";
			case UP -> "it is between generations.";
			case STOPPED -> "it is stopped.";
			case IDLE -> "it is not running while unused, and the next call starts it.";
		};
		return "MCP server '" + server + "' has been unavailable since " + instant(since) + " ("
				+ state.name().toLowerCase(Locale.ROOT).replace('_', ' ') + "); " + outlook;
	}

	private static String instant(Instant instant) {
		return DateTimeFormatter.ISO_INSTANT.format(instant.truncatedTo(ChronoUnit.SECONDS));
	}

	// The generation of a call died under it.
	static String lostDuringCall(String server, String tool, @Nullable String how, String retry, boolean reconnecting) {
		return "MCP server '" + server + "' crashed during the call to tool '" + tool + "'"
				+ ((how != null) ? " (" + how + ")" : "") + ": the call may or may not have taken effect." + retry + " "
				+ reconnect(reconnecting);
	}

	// The generation of another request died under it.
	static String lostDuringRequest(String server, String what, String how, String retry, boolean reconnecting) {
		return "MCP server '" + server + "' crashed during " + what + " (" + how + ")." + retry + " "
				+ reconnect(reconnecting);
	}

	// The generation of a call was ended on request under it: no crash, and after a stop
	// nothing reconnects.
	static String endedDuringCall(String server, String tool, EndedOnRequest ended, String retry) {
		return "MCP server '" + server + "' " + ended.description() + " during the call to tool '" + tool
				+ "': the call may or may not have taken effect." + retry + next(ended);
	}

	// The generation of another request was ended on request under it.
	static String endedDuringRequest(String server, String what, EndedOnRequest ended, String retry) {
		return "MCP server '" + server + "' " + ended.description() + " during " + what + "." + retry + next(ended);
	}

	private static String next(EndedOnRequest ended) {
		return (ended == EndedOnRequest.REPLACED) ? " A call made now goes to the server that replaced it." : "";
	}

	private static String reconnect(boolean reconnecting) {
		return reconnecting ? "Reconnecting." : "Reconnect is disabled; reset the server.";
	}

	static String resetHint(String server) {
		return "Reset it with McpSupervisors.reset(\"" + server + "\").";
	}

}
