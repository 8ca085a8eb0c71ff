package io.github.mcpsupervisor.supervisor;

import java.time.Instant;
import java.util.List;

import io.modelcontextprotocol.spec.McpSchema.ClientCapabilities;
import io.modelcontextprotocol.spec.McpSchema.Implementation;
import io.modelcontextprotocol.spec.McpSchema.InitializeResult;
import io.modelcontextprotocol.spec.McpSchema.ServerCapabilities;
import io.modelcontextprotocol.spec.McpSchema.Tool;
import org.jspecify.annotations.Nullable;

/**
 * The tools a generation offers, replaced as a whole on every swap.
 *
 * @param generation the generation that listed them ({@code 0} for none)
 * @param tools the tools in the server's order
 * @param session what the client and server of that generation told each other, or
 * {@code null} when not known
 * @param unavailable why the tools cannot be called: set while their server is down and
 * keeps its tools ({@link ToolsWhenDown#KEEP}), {@code null} otherwise
 * @since 0.1.0
 */
public record ToolSet(int generation, List<Tool> tools, @Nullable SessionInfo session,
		@Nullable Unavailability unavailable) {

	/** No tools: before the first connection and after the tools were withdrawn. */
	public static final ToolSet EMPTY = new ToolSet(0, List.of(), null);

	public ToolSet {
		tools = List.copyOf(tools);
	}

	/**
	 * Creates the tool set of a generation.
	 * @param generation the generation that listed them
	 * @param tools the tools in the server's order
	 * @param session what the client and server of that generation told each other, or
	 * {@code null} when not known
	 */
	public ToolSet(int generation, List<Tool> tools, @Nullable SessionInfo session) {
		this(generation, tools, session, null);
	}

	/**
	 * Creates a tool set whose session is not known.
	 * @param generation the generation that listed them
	 * @param tools the tools in the server's order
	 */
	public ToolSet(int generation, List<Tool> tools) {
		this(generation, tools, null);
	}

	/**
	 * Finds a tool by its name on the server.
	 * @param name the tool's name on the server
	 * @return the tool or {@code null}
	 */
	public @Nullable Tool find(String name) {
		for (Tool tool : this.tools) {
			if (tool.name().equals(name)) {
				return tool;
			}
		}
		return null;
	}

	public List<String> names() {
		return this.tools.stream().map(Tool::name).toList();
	}

	/**
	 * Returns the same tools, marked as those of a server that is down.
	 * @param unavailability the server, its state and since when it is down
	 * @return the marked tool set
	 */
	ToolSet markedUnavailable(Unavailability unavailability) {
		return new ToolSet(this.generation, this.tools, this.session, unavailability);
	}

	/**
	 * Why the tools of a server cannot be called: the server is down. Its texts name the
	 * server, its state and since when; they quote neither the server's configuration nor
	 * what the server said.
	 *
	 * @param server the server's name
	 * @param state the state the server is in
	 * @param since when the server's last generation left
	 * @param retryAt when a failed server tries again on its own after its cooldown, or
	 * {@code null} when no attempt is planned
	 */
	public record Unavailability(String server, McpServerState state, Instant since, @Nullable Instant retryAt) {

		/**
		 * Creates the unavailability of a server that plans no attempt of its own.
		 * @param server the server's name
		 * @param state the state the server is in
		 * @param since when the server's last generation left
		 */
		public Unavailability(String server, McpServerState state, Instant since) {
			this(server, state, since, null);
		}

		/**
		 * Returns the description each tool is given in place of its own.
		 * @return the description, for the model
		 */
		public String description() {
			return "Unavailable: " + UnavailableMessages.down(this.server, this.state, this.since, this.retryAt)
					+ " Until it recovers, a call of this tool does not run and answers with this notice.";
		}

		/**
		 * Returns the result of a call that found the server down.
		 * @return the result, for the model
		 */
		public String callResult() {
			return UnavailableMessages.down(this.server, this.state, this.since, this.retryAt)
					+ " The call did not run.";
		}

	}

	/**
	 * What the client and the server of one generation told each other at initialize.
	 *
	 * @param clientInfo the client's name and version as announced to the server
	 * @param clientCapabilities the capabilities the client declared
	 * @param initializeResult the server's answer: its info, capabilities and
	 * instructions
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

}
