package io.github.mcpsupervisor.supervisor;

import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;

import io.modelcontextprotocol.spec.McpSchema.Tool;
import org.jspecify.annotations.Nullable;

/**
 * The tools a generation offers, replaced as a whole on every swap.
 *
 * @param generation the generation that listed them ({@code 0} for none)
 * @param tools the tools in the server's order
 */
public record ToolSet(int generation, List<Tool> tools) {

	/** No tools: before the first connection and after the tools were withdrawn. */
	public static final ToolSet EMPTY = new ToolSet(0, List.of());

	public ToolSet {
		tools = List.copyOf(tools);
	}

	/**
	 * Finds a tool by its name on the server.
	 * @param name the tool's name on the server
	 * @return the tool or {@code null}
	 */
	public @Nullable Tool find(String name) {
		return byName().get(name);
	}

	public List<String> names() {
		return this.tools.stream().map(Tool::name).toList();
	}

	private Map<String, Tool> byName() {
		return this.tools.stream().collect(Collectors.toMap(Tool::name, Function.identity(), (a, b) -> a));
	}

}
