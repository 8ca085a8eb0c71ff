package io.github.mcpsupervisor.tool;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import io.github.mcpsupervisor.supervisor.McpServerSupervisor;
import io.github.mcpsupervisor.supervisor.McpSupervisors;
import io.github.mcpsupervisor.supervisor.ToolSet;
import io.modelcontextprotocol.spec.McpSchema.Tool;

import org.springframework.ai.mcp.McpToolsChangedEvent;
import org.springframework.ai.mcp.SyncMcpToolCallbackProvider;
import org.springframework.ai.tool.ToolCallback;

/**
 * The tools of every supervised server, as Spring AI tool callbacks that always reflect
 * the current tool sets.
 *
 * <p>
 * It extends {@link SyncMcpToolCallbackProvider} only so that Spring AI's tool-calling
 * auto-configuration treats it as a dynamic MCP provider rather than freezing its
 * callbacks at startup; it holds no clients of its own.
 */
public class McpSupervisorToolCallbackProvider extends SyncMcpToolCallbackProvider {

	private final McpSupervisors supervisors;

	private final ToolCallObserver observer;

	private volatile Snapshot snapshot = new Snapshot(List.of(), new ToolCallback[0]);

	public McpSupervisorToolCallbackProvider(McpSupervisors supervisors) {
		this(supervisors, ToolCallObserver.NONE);
	}

	@SuppressWarnings("deprecation")
	public McpSupervisorToolCallbackProvider(McpSupervisors supervisors, ToolCallObserver observer) {
		super(List.of());
		this.supervisors = supervisors;
		this.observer = observer;
	}

	/**
	 * Returns the callbacks of the current tool sets; rebuilt only after a swap. Their
	 * names are unique, and a tool's name does not depend on which other servers are up.
	 * @return the callbacks, in configuration order of the servers
	 */
	@Override
	public ToolCallback[] getToolCallbacks() {
		List<McpServerSupervisor> all = this.supervisors.supervisors();
		List<ToolSet> current = all.stream().map(McpServerSupervisor::tools).toList();
		Snapshot cached = this.snapshot;
		if (!sameInstances(cached.toolSets(), current)) {
			cached = new Snapshot(current, build(all, current, this.observer));
			this.snapshot = cached;
		}
		return cached.callbacks().clone();
	}

	@Override
	public void invalidateCache() {
		this.snapshot = new Snapshot(List.of(), new ToolCallback[0]);
	}

	@Override
	public void onApplicationEvent(McpToolsChangedEvent event) {
		// Tool sets are compared on every call: nothing to invalidate.
	}

	private static ToolCallback[] build(List<McpServerSupervisor> supervisors, List<ToolSet> toolSets,
			ToolCallObserver observer) {
		McpToolNames names = new McpToolNames(supervisors.stream().map(McpServerSupervisor::name).toList());
		List<ToolCallback> callbacks = new ArrayList<>();
		for (int i = 0; i < supervisors.size(); i++) {
			McpServerSupervisor supervisor = supervisors.get(i);
			Set<String> seen = new HashSet<>();
			for (Tool tool : toolSets.get(i).tools()) {
				// a tool listed twice is exposed once (its listing warned about it)
				if (seen.add(tool.name())) {
					callbacks.add(new SupervisedToolCallback(supervisor, tool,
							names.assign(supervisor.name(), tool.name()), observer));
				}
			}
		}
		return callbacks.toArray(ToolCallback[]::new);
	}

	private static boolean sameInstances(List<ToolSet> cached, List<ToolSet> current) {
		if (cached.size() != current.size()) {
			return false;
		}
		for (int i = 0; i < cached.size(); i++) {
			if (cached.get(i) != current.get(i)) {
				return false;
			}
		}
		return true;
	}

	private record Snapshot(List<ToolSet> toolSets, ToolCallback[] callbacks) {

	}

}
