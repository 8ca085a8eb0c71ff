package io.github.mcpsupervisor.tool;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import io.github.mcpsupervisor.client.internal.ClientSpecs;
import io.github.mcpsupervisor.supervisor.McpServerSupervisor;
import io.github.mcpsupervisor.supervisor.McpSupervisors;
import io.github.mcpsupervisor.supervisor.SessionInfo;
import io.github.mcpsupervisor.supervisor.ToolSet;
import io.modelcontextprotocol.spec.McpSchema.ClientCapabilities;
import io.modelcontextprotocol.spec.McpSchema.Tool;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

import org.springframework.ai.mcp.McpConnectionInfo;
import org.springframework.ai.mcp.McpToolFilter;
import org.springframework.ai.mcp.McpToolNamePrefixGenerator;
import org.springframework.ai.mcp.McpToolsChangedEvent;
import org.springframework.ai.mcp.SyncMcpToolCallbackProvider;
import org.springframework.ai.mcp.ToolContextToMcpMetaConverter;
import org.springframework.ai.tool.ToolCallback;

/**
 * The tools of every supervised server, as Spring AI tool callbacks that always reflect
 * the current tool sets.
 *
 * <p>
 * It extends {@link SyncMcpToolCallbackProvider} only so that Spring AI's tool-calling
 * auto-configuration treats it as a dynamic MCP provider rather than freezing its
 * callbacks at startup; it holds no clients of its own.
 *
 * <p>
 * Spring AI's extension points apply as they do to its own provider: a
 * {@link McpToolFilter} decides which tools are exposed, given the
 * {@link McpConnectionInfo} of the generation that listed them; a
 * {@link McpToolNamePrefixGenerator} replaces the deterministic {@code <server>_<tool>}
 * names (and their guarantee of uniqueness: a collision is an error naming both tools); a
 * {@link ToolContextToMcpMetaConverter} turns the tool context of a call into its
 * {@code _meta}. They are applied whenever the tool sets change: at every new generation
 * and every tool sync.
 *
 * @since 0.1.0
 */
public class McpSupervisorToolCallbackProvider extends SyncMcpToolCallbackProvider {

	private static final Log logger = LogFactory.getLog(McpSupervisorToolCallbackProvider.class);

	private final McpSupervisors supervisors;

	private final ToolCallObserver observer;

	private final McpToolFilter filter;

	private final @Nullable McpToolNamePrefixGenerator nameGenerator;

	private final ToolContextToMcpMetaConverter metaConverter;

	private volatile Snapshot snapshot = new Snapshot(List.of(), new ToolCallback[0]);

	public McpSupervisorToolCallbackProvider(McpSupervisors supervisors) {
		this(supervisors, ToolCallObserver.NONE);
	}

	public McpSupervisorToolCallbackProvider(McpSupervisors supervisors, ToolCallObserver observer) {
		this(supervisors, observer, (connection, tool) -> true, null, ToolContextToMcpMetaConverter.defaultConverter());
	}

	/**
	 * Creates a provider with Spring AI's extension points.
	 * @param supervisors the supervised servers
	 * @param observer told of every call
	 * @param filter decides which tools are exposed
	 * @param nameGenerator names the tools, or {@code null} for the deterministic
	 * {@code <server>_<tool>} names
	 * @param metaConverter turns a call's tool context into its {@code _meta}
	 */
	@SuppressWarnings("deprecation")
	public McpSupervisorToolCallbackProvider(McpSupervisors supervisors, ToolCallObserver observer,
			McpToolFilter filter, @Nullable McpToolNamePrefixGenerator nameGenerator,
			ToolContextToMcpMetaConverter metaConverter) {
		super(List.of());
		this.supervisors = supervisors;
		this.observer = observer;
		this.filter = filter;
		this.nameGenerator = nameGenerator;
		this.metaConverter = metaConverter;
	}

	/**
	 * Returns the callbacks of the current tool sets; rebuilt only after a swap. Their
	 * names are unique, and a tool's name does not depend on which other servers are up.
	 * @return the callbacks, in the order of the servers (by name when auto-configured)
	 */
	@Override
	public ToolCallback[] getToolCallbacks() {
		List<McpServerSupervisor> all = this.supervisors.supervisors();
		List<ToolSet> current = all.stream().map(McpServerSupervisor::tools).toList();
		Snapshot cached = this.snapshot;
		if (!sameInstances(cached.toolSets(), current)) {
			cached = new Snapshot(current, build(all, current));
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

	private ToolCallback[] build(List<McpServerSupervisor> supervisors, List<ToolSet> toolSets) {
		McpToolNames names = new McpToolNames(supervisors.stream().map(McpServerSupervisor::name).toList());
		Map<String, String> owners = new HashMap<>();
		List<ToolCallback> callbacks = new ArrayList<>();
		for (int i = 0; i < supervisors.size(); i++) {
			McpServerSupervisor supervisor = supervisors.get(i);
			McpConnectionInfo connection = connectionInfo(supervisor.name(), toolSets.get(i).session());
			Set<String> seen = new HashSet<>();
			for (Tool tool : toolSets.get(i).tools()) {
				// a tool listed twice is exposed once (its listing warned about it)
				if (seen.add(tool.name()) && this.filter.test(connection, tool)) {
					String name = name(names, owners, supervisor, connection, tool);
					if (name != null) {
						callbacks
							.add(new SupervisedToolCallback(supervisor, tool, name, this.observer, this.metaConverter));
					}
				}
			}
		}
		return callbacks.toArray(ToolCallback[]::new);
	}

	// The name of a tool, or null when the application's generator gave it a name that
	// another tool has: that tool is left out, with an error naming both, so that one
	// collision costs one tool, not every tool of every server.
	private @Nullable String name(McpToolNames names, Map<String, String> owners, McpServerSupervisor supervisor,
			McpConnectionInfo connection, Tool tool) {
		String server = supervisor.name();
		McpToolNamePrefixGenerator generator = this.nameGenerator;
		if (generator == null) {
			return names.assign(server, tool.name());
		}
		String name = generator.prefixedToolName(connection, tool);
		String owner = owners.putIfAbsent(name, server + "/" + tool.name());
		if (owner != null) {
			String later = supervisor.loggable(server + "/" + tool.name());
			logger.error("The McpToolNamePrefixGenerator named two MCP tools '" + supervisor.loggable(name) + "': "
					+ supervisor.loggable(owner) + " and " + later + "; tool names must be unique, so " + later
					+ " is left out");
			return null;
		}
		return name;
	}

	// What Spring AI's extension points are told of the generation that listed the
	// tools; a tool set whose session is not known gets the client info alone.
	private static McpConnectionInfo connectionInfo(String server, @Nullable SessionInfo session) {
		if (session == null) {
			return new McpConnectionInfo(ClientCapabilities.builder().build(), ClientSpecs.clientInfo(server), null);
		}
		return new McpConnectionInfo(session.clientCapabilities(), session.clientInfo(), session.initializeResult());
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
