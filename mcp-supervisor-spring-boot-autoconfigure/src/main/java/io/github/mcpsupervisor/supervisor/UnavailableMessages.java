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
			case FAILED -> "has failed; " + resetHint(status.name());
			case STOPPED -> "is stopped";
			case UP -> "is between generations";
		};
		return "MCP server '" + status.name() + "' " + detail + suffix + ": " + what + " is unavailable";
	}

	// A server that keeps its tools while down: what its tools' descriptions and the
	// results of calls to them say.
	static String down(String server, McpServerState state, Instant since) {
		String outlook = switch (state) {
			case RECONNECTING -> "it is reconnecting, so a later call may succeed.";
			case DISCONNECTED -> "reconnect is disabled, so it stays unavailable until an operator resets it.";
			case NEEDS_AUTHORIZATION ->
				"it needs an authorization, so it stays unavailable until the application's operators give it.";
			case FAILED -> "it has failed, so it stays unavailable until an operator resets it.";
			case STARTING -> "it is starting.";
			case UP -> "it is between generations.";
			case STOPPED -> "it is stopped.";
		};
		return "MCP server '" + server + "' has been unavailable since "
				+ DateTimeFormatter.ISO_INSTANT.format(since.truncatedTo(ChronoUnit.SECONDS)) + " ("
				+ state.name().toLowerCase(Locale.ROOT).replace('_', ' ') + "); " + outlook;
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

	private static String reconnect(boolean reconnecting) {
		return reconnecting ? "Reconnecting." : "Reconnect is disabled; reset the server.";
	}

	static String resetHint(String server) {
		return "Reset it with McpSupervisors.reset(\"" + server + "\").";
	}

}
