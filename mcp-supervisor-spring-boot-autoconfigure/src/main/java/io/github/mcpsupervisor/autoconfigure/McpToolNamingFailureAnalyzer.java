package io.github.mcpsupervisor.autoconfigure;

import java.util.stream.Collectors;

import io.github.mcpsupervisor.tool.McpToolNamesException;
import org.jspecify.annotations.Nullable;

import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.diagnostics.FailureAnalyzer;

/**
 * Explains a start refused because of the MCP tools' names: a
 * {@code McpToolNamePrefixGenerator} that would be ignored, or tools of the servers'
 * first attempts whose names are refused.
 */
class McpToolNamingFailureAnalyzer implements FailureAnalyzer {

	@Override
	public @Nullable FailureAnalysis analyze(Throwable failure) {
		for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
			FailureAnalysis analysis = analyzeCause(cause);
			if (analysis != null) {
				return analysis;
			}
		}
		return null;
	}

	private static @Nullable FailureAnalysis analyzeCause(Throwable cause) {
		if (cause instanceof McpToolNamingException naming) {
			return new FailureAnalysis(naming.getMessage(), naming.getAction(), naming);
		}
		if (cause instanceof McpToolNamesException names) {
			String description = "MCP tools whose names are taken or not accepted by models:" + names.getRefusals()
				.stream()
				.map((refusal) -> String.format("%n    - %s", refusal))
				.collect(Collectors.joining());
			String servers = names.getServers()
				.stream()
				.map((server) -> "mcp.servers." + server + ".tool-names=prefixed")
				.collect(Collectors.joining(" or "));
			String action = String.format("Give each tool a name of its own, either:%n"
					+ "    - name the tools of a server <server>_<tool>: set %s,%n"
					+ "    - leave one of the tools out with a McpToolFilter bean, or%n"
					+ "    - name them with a McpToolNamePrefixGenerator bean that tells them apart "
					+ "(McpConnectionInfo.clientInfo().title() is the server's name).", servers);
			return new FailureAnalysis(description, action, names);
		}
		return null;
	}

}
