package io.github.mcpsupervisor.supervisor;

import java.util.List;

/**
 * A server marked {@code fail-on-startup-error} did not connect at startup.
 *
 * @since 0.1.0
 */
public class McpServerStartupException extends RuntimeException {

	private static final long serialVersionUID = 1L;

	private final transient List<McpServerStatus> failed;

	/**
	 * Create a new instance.
	 * @param failed the status of each server that must start and did not, after its
	 * first attempt
	 */
	public McpServerStartupException(List<McpServerStatus> failed) {
		super(message(failed));
		this.failed = List.copyOf(failed);
	}

	/**
	 * Return the status of each server that must start and did not, after its first
	 * attempt.
	 * @return the failed servers' statuses
	 */
	public List<McpServerStatus> getFailed() {
		return this.failed;
	}

	private static String message(List<McpServerStatus> failed) {
		StringBuilder message = new StringBuilder();
		for (McpServerStatus status : failed) {
			if (!message.isEmpty()) {
				message.append("; ");
			}
			message.append("MCP server '").append(status.name()).append("' is ").append(status.state());
			message.append(" after its first attempt");
			if (status.lastError() != null) {
				message.append(": ").append(status.lastError());
			}
			if (!status.stderrTail().isEmpty()) {
				message.append(" (last stderr line: ")
					.append(status.stderrTail().get(status.stderrTail().size() - 1))
					.append(")");
			}
		}
		return message.append(". fail-on-startup-error is set for it, so the application does not start.").toString();
	}

}
