package io.github.mcpsupervisor.autoconfigure;

import java.util.ArrayList;
import java.util.List;

import io.github.mcpsupervisor.autoconfigure.properties.McpSupervisorProperties;
import io.github.mcpsupervisor.autoconfigure.properties.internal.McpServerSettings;
import io.github.mcpsupervisor.autoconfigure.properties.internal.McpServerSettingsResolver;
import io.github.mcpsupervisor.internal.ConfigurationSanitizer;
import io.github.mcpsupervisor.supervisor.McpServerStartupException;
import io.github.mcpsupervisor.supervisor.McpServerStatus;
import org.jspecify.annotations.Nullable;

import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.core.env.Environment;

/**
 * Explains a start aborted because a server marked {@code fail-on-startup-error} did not
 * connect: which server and why, and what to check for each.
 */
class McpServerStartupFailureAnalyzer extends AbstractFailureAnalyzer<McpServerStartupException> {

	private final @Nullable Environment environment;

	McpServerStartupFailureAnalyzer(@Nullable Environment environment) {
		this.environment = environment;
	}

	@Override
	protected FailureAnalysis analyze(Throwable rootFailure, McpServerStartupException cause) {
		String description = String.valueOf(cause.getMessage());
		List<String> actions = new ArrayList<>();
		List<McpServerSettings> servers = servers();
		for (McpServerStatus failed : cause.getFailed()) {
			for (McpServerSettings server : servers) {
				if (server.name().equals(failed.name())) {
					actions.add(action(server, "mcp.servers." + server.name()));
				}
			}
		}
		if (actions.isEmpty()) {
			actions.add("Check the command or url of each MCP server marked fail-on-startup-error, or set its "
					+ "fail-on-startup-error to false to start the application without it.");
		}
		return new FailureAnalysis(description, String.join(String.format("%n%n"), actions), cause);
	}

	private List<McpServerSettings> servers() {
		if (this.environment == null) {
			return List.of();
		}
		return Binder.get(this.environment)
			.bind("mcp", McpSupervisorProperties.class)
			.map(McpServerSettingsResolver::resolve)
			.orElse(List.of());
	}

	private static String action(McpServerSettings server, String prefix) {
		String check = switch (server.transport()) {
			case STDIO -> String.format(
					"Check that MCP server '%s' can start: its command '%s' (%s.command) must exist and be "
							+ "executable, and the server it starts must complete the MCP handshake on its stdin "
							+ "and stdout within %s.initialization-timeout.",
					server.name(), server.command(), prefix, prefix);
			case STREAMABLE_HTTP -> String.format(
					"Check that MCP server '%s' answers at %s (%s.url) within %s.initialization-timeout, and that "
							+ "it accepts the application's %s.headers (an HTTP 401 or 403 is not retried).",
					server.name(), (server.url() != null) ? ConfigurationSanitizer.maskUrl(server.url()) : null, prefix,
					prefix, prefix);
		};
		return check + String.format(
				"%nTo start the application without it, set %s.fail-on-startup-error=false: the server is then "
						+ "supervised in the background, and once it is fixed it can be reset "
						+ "(POST /actuator/mcp/%s/reset or McpSupervisors.reset(\"%s\")).",
				prefix, server.name(), server.name());
	}

}
