package io.github.mcpsupervisor.supervisor;

import io.modelcontextprotocol.spec.McpSchema.ClientCapabilities;
import io.modelcontextprotocol.spec.McpSchema.Implementation;
import io.modelcontextprotocol.spec.McpSchema.InitializeResult;
import io.modelcontextprotocol.spec.McpSchema.ServerCapabilities;
import org.jspecify.annotations.Nullable;

/**
 * What the client and the server of one generation told each other at initialize.
 *
 * @param clientInfo the client's name and version as announced to the server
 * @param clientCapabilities the capabilities the client declared
 * @param initializeResult the server's answer: its info, capabilities and instructions
 * @since 0.1.0
 */
public record SessionInfo(Implementation clientInfo, ClientCapabilities clientCapabilities,
		@Nullable InitializeResult initializeResult) {

	/**
	 * Returns the MCP revision the generation speaks: the one the server answered at
	 * initialize, or 2026-07-28 for a server discovered in that revision.
	 * @return the revision, or {@code null} before initialize
	 */
	public @Nullable String protocolVersion() {
		return (this.initializeResult != null) ? this.initializeResult.protocolVersion() : null;
	}

	/**
	 * Returns the capabilities the server declared.
	 * @return the capabilities, or {@code null} before initialize
	 */
	public @Nullable ServerCapabilities serverCapabilities() {
		return (this.initializeResult != null) ? this.initializeResult.capabilities() : null;
	}

}
