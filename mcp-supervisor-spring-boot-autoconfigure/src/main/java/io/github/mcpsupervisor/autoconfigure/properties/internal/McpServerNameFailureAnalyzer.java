package io.github.mcpsupervisor.autoconfigure.properties.internal;

import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;

/**
 * Explains a server or tool name that Spring Boot's binding would change or mix up: the
 * key as written, where it was written, and the form a name takes.
 */
class McpServerNameFailureAnalyzer extends AbstractFailureAnalyzer<McpServerNameException> {

	@Override
	protected FailureAnalysis analyze(Throwable rootFailure, McpServerNameException cause) {
		String description = String.format("Invalid MCP supervisor configuration:%n%n%s",
				String.join(String.format("%n%n"), cause.getProblems()));
		return new FailureAnalysis(description, "Correct the names above. The configuration reference of "
				+ "mcp-supervisor (docs/configuration.md) describes every property and its rule.", cause);
	}

}
