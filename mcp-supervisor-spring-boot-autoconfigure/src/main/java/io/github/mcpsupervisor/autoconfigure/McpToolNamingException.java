package io.github.mcpsupervisor.autoconfigure;

/**
 * A {@code McpToolNamePrefixGenerator} bean would be ignored.
 */
class McpToolNamingException extends IllegalStateException {

	private static final long serialVersionUID = 1L;

	private final String action;

	McpToolNamingException(String description, String action) {
		super(description);
		this.action = action;
	}

	String getAction() {
		return this.action;
	}

}
