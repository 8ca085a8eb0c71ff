package io.github.mcpsupervisor.autoconfigure;

import io.github.mcpsupervisor.autoconfigure.properties.McpClientType;

import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;

/**
 * Explains a start refused because customizers of the other client type were found.
 */
class McpClientTypeMismatchFailureAnalyzer extends AbstractFailureAnalyzer<McpClientTypeMismatchException> {

	@Override
	protected FailureAnalysis analyze(Throwable rootFailure, McpClientTypeMismatchException cause) {
		McpClientType type = cause.getClientType();
		McpClientType other = McpClientTypeMismatchException.other(type);
		String spec = (type == McpClientType.SYNC) ? "AsyncSpec" : "SyncSpec";
		String description = String.format(
				"mcp.client-type is %s, but these McpClientCustomizer<McpClient.%s> beans were found:%n    - %s%n"
						+ "They would not be applied to any MCP client.",
				McpClientTypeMismatchException.name(type), spec,
				String.join(String.format("%n    - "), cause.getCustomizers()));
		String action = String.format(
				"Either set mcp.client-type=%s (the equivalent of spring.ai.mcp.client.type),"
						+ " or rewrite them as McpClientCustomizer<McpClient.%s> beans.",
				McpClientTypeMismatchException.name(other), (type == McpClientType.SYNC) ? "SyncSpec" : "AsyncSpec");
		return new FailureAnalysis(description, action, cause);
	}

}
