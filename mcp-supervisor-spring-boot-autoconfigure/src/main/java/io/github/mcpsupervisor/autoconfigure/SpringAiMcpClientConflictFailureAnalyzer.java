package io.github.mcpsupervisor.autoconfigure;

import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;

/**
 * Explains a start refused because Spring AI's MCP client has connections of its own:
 * which servers are configured twice, and the two ways out.
 */
class SpringAiMcpClientConflictFailureAnalyzer extends AbstractFailureAnalyzer<SpringAiMcpClientConflictException> {

	@Override
	protected FailureAnalysis analyze(Throwable rootFailure, SpringAiMcpClientConflictException cause) {
		StringBuilder description = new StringBuilder(
				"Spring AI's MCP client is active and connects to MCP servers of its own, next to mcp.servers:");
		for (Map.Entry<String, List<String>> connections : cause.getConnections().entrySet()) {
			description
				.append(String.format("%n    - %s: %s", connections.getKey(), names(connections.getValue(), cause)));
		}
		description.append(String.format("%nIts servers would run unsupervised"));
		if (!cause.getDuplicates().isEmpty()) {
			description.append(String.format(", and %s would run twice, once for each client",
					cause.getDuplicates().stream().map((name) -> "'" + name + "'").collect(Collectors.joining(", "))));
		}
		description.append(".");
		String action = String.format("Configure each MCP server in one place, either:%n"
				+ "    - move the entries to mcp.servers: spring.ai.mcp.client.stdio.connections.<name>.command, args "
				+ "and env become mcp.servers.<name>.command, args and env; a streamable-http connection becomes "
				+ "mcp.servers.<name>.transport=streamable-http with mcp.servers.<name>.url set to its url and "
				+ "endpoint (/mcp when unset); then remove the spring.ai.mcp.client connections, or%n"
				+ "    - set spring.ai.mcp.client.enabled=false to switch Spring AI's MCP client off.%s",
				urls(cause.getUrls()));
		return new FailureAnalysis(description.toString(), action, cause);
	}

	private static String urls(Map<String, String> urls) {
		if (urls.isEmpty()) {
			return "";
		}
		return urls.entrySet()
			.stream()
			.map((url) -> String.format("%n    mcp.servers.%s.url=%s", url.getKey(), url.getValue()))
			.collect(Collectors.joining("",
					String.format("%nThe streamable-http connections as mcp.servers (url with endpoint):"), ""));
	}

	private static String names(List<String> names, SpringAiMcpClientConflictException cause) {
		if (names.isEmpty()) {
			return "(its servers could not be read)";
		}
		return names.stream()
			.map((name) -> (cause.getDuplicates().contains(name)) ? name + " (also in mcp.servers)" : name)
			.collect(Collectors.joining(", "));
	}

}
