package io.github.mcpsupervisor.autoconfigure;

import java.util.List;
import java.util.Locale;

import io.github.mcpsupervisor.autoconfigure.properties.McpClientType;

/**
 * Customizers of the kind {@code mcp.client-type} does not name were found: a client is
 * built from one kind of spec, so they would silently not apply.
 *
 * @since 0.1.0
 */
class McpClientTypeMismatchException extends IllegalStateException {

	private static final long serialVersionUID = 1L;

	private final McpClientType clientType;

	private final List<String> customizers;

	McpClientTypeMismatchException(McpClientType clientType, List<String> customizers) {
		super(customizers.size() + " McpClientCustomizer<McpClient."
				+ ((clientType == McpClientType.SYNC) ? "AsyncSpec" : "SyncSpec")
				+ "> bean(s) cannot be applied: mcp.client-type is " + name(clientType) + ". Set mcp.client-type="
				+ name(other(clientType)) + " (as spring.ai.mcp.client.type chooses for Spring AI's clients), or"
				+ " customize the other spec.");
		this.clientType = clientType;
		this.customizers = List.copyOf(customizers);
	}

	/**
	 * Returns the configured client type.
	 * @return the type
	 */
	McpClientType getClientType() {
		return this.clientType;
	}

	/**
	 * Returns the customizers of the other type, as their classes.
	 * @return their class names
	 */
	List<String> getCustomizers() {
		return this.customizers;
	}

	static McpClientType other(McpClientType type) {
		return (type == McpClientType.SYNC) ? McpClientType.ASYNC : McpClientType.SYNC;
	}

	static String name(McpClientType type) {
		return type.name().toLowerCase(Locale.ROOT);
	}

}
