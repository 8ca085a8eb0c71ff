package io.github.mcpsupervisor.supervisor;

/**
 * A server marked {@code fail-on-startup-error} did not connect at startup.
 */
public class McpServerStartupException extends RuntimeException {

	private static final long serialVersionUID = 1L;

	public McpServerStartupException(String message) {
		super(message);
	}

}
