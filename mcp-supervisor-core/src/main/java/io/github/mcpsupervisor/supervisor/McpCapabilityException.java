package io.github.mcpsupervisor.supervisor;

/**
 * A request needs a capability that the server's live generation did not declare at
 * initialize (resources, prompts, completions, resource subscriptions…). The server is
 * not at fault and its generation goes on.
 *
 * @since 0.1.0
 */
public class McpCapabilityException extends IllegalStateException {

	private static final long serialVersionUID = 1L;

	private final String server;

	private final String capability;

	/**
	 * Creates the exception.
	 * @param server the server's name
	 * @param capability the capability it lacks, as users name it
	 */
	public McpCapabilityException(String server, String capability) {
		super("MCP server '" + server + "' does not offer " + capability
				+ " (it did not declare the capability at initialize)");
		this.server = server;
		this.capability = capability;
	}

	public String getServer() {
		return this.server;
	}

	public String getCapability() {
		return this.capability;
	}

}
