package io.github.mcpsupervisor.supervisor;

import java.util.List;

import io.modelcontextprotocol.spec.McpSchema.Tool;
import org.jspecify.annotations.Nullable;

/**
 * The tools a generation offers, replaced as a whole on every swap.
 *
 * @param generation the generation that listed them ({@code 0} for none)
 * @param tools the tools in the server's order
 * @param session what the client and server of that generation told each other, or
 * {@code null} when not known
 * @since 0.1.0
 */
public record ToolSet(int generation, List<Tool> tools, @Nullable SessionInfo session) {

	/** No tools: before the first connection and after the tools were withdrawn. */
	public static final ToolSet EMPTY = new ToolSet(0, List.of(), null);

	public ToolSet {
		tools = List.copyOf(tools);
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

}
