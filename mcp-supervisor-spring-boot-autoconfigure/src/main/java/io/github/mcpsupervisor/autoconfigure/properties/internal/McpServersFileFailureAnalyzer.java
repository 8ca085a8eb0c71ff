package io.github.mcpsupervisor.autoconfigure.properties.internal;

import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;

/**
 * Explains a start aborted because a file of {@code mcp.servers-configuration} could not
 * be read or holds an entry that is not a server: which file, which entry, what is wrong.
 */
class McpServersFileFailureAnalyzer extends AbstractFailureAnalyzer<McpServersFileException> {

	@Override
	protected FailureAnalysis analyze(Throwable rootFailure, McpServersFileException cause) {
		String action;
		if (cause.getEntry() != null) {
			action = String.format(
					"Fix the entry '%s' in '%s', or remove it from the file and configure the "
							+ "server as mcp.servers.%s.* properties.",
					cause.getEntry(), cause.getLocation(), cause.getEntry());
		}
		else {
			action = String.format("Fix '%s' or its location in mcp.servers-configuration. The file must hold a "
					+ "JSON object whose 'mcpServers' (or 'servers') object maps each server's name to its "
					+ "'command', 'args' and 'env', or its 'url' and 'headers'.", cause.getLocation());
		}
		return new FailureAnalysis(String.valueOf(cause.getMessage()), action, cause);
	}

}
