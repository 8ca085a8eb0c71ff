package io.github.mcpsupervisor.tool;

import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Function;
import java.util.stream.Collectors;

import io.github.mcpsupervisor.authorization.McpUserResolver;
import io.github.mcpsupervisor.client.internal.ClientSpecs;
import io.github.mcpsupervisor.supervisor.McpServerSupervisor;
import io.github.mcpsupervisor.supervisor.McpSupervisors;
import io.github.mcpsupervisor.supervisor.ToolSet;
import io.github.mcpsupervisor.supervisor.ToolSet.SessionInfo;
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
import org.springframework.context.SmartLifecycle;
import org.springframework.util.StringUtils;

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
 * Each server's tools are named as its {@link McpToolNaming} says:
 * {@link McpToolNaming#PREFIXED} names are deterministic {@code <server>_<tool>} names
 * that never collide; {@link McpToolNaming#SPRING_AI} names are those of Spring AI's MCP
 * client, given by the {@link McpToolNamePrefixGenerator} when there is one. A name that
 * another tool has, or one that models do not accept, is refused: started after the
 * servers' first attempts, the provider fails with an {@link McpToolNamesException}
 * naming every such tool; later, when a swap brings one, that tool is left out with a
 * warning naming both tools and the rest of the tools are exposed. Of two tools that want
 * one name, the one that had it keeps it.
 *
 * <p>
 * Spring AI's other extension points apply as they do to its own provider: a
 * {@link McpToolFilter} decides which tools are exposed, given the
 * {@link McpConnectionInfo} of the generation that listed them; a
 * {@link ToolContextToMcpMetaConverter} turns the tool context of a call into its
 * {@code _meta}. They are applied whenever the tool sets change: at every new generation
 * and every tool sync.
 *
 * <p>
 * The tools of a server that is down and keeps them ({@code tools-when-down: keep}) are
 * exposed under their names with the server's unavailable notice as description.
 *
 * @since 0.1.0
 */
public class McpSupervisorToolCallbackProvider extends SyncMcpToolCallbackProvider implements SmartLifecycle {

	/** Starts right after the servers' first attempts, to check the names they bring. */
	public static final int PHASE = McpSupervisors.PHASE + 1;

	private static final Log logger = LogFactory.getLog(McpSupervisorToolCallbackProvider.class);

	private final McpSupervisors supervisors;

	private final ToolCallObserver observer;

	private final McpToolFilter filter;

	private final @Nullable McpToolNamePrefixGenerator nameGenerator;

	private final ToolContextToMcpMetaConverter metaConverter;

	private final Function<String, McpToolNaming> naming;

	private volatile McpUserResolver users = McpUserResolver.DEFAULT;

	private final Object rebuild = new Object();

	private volatile Snapshot snapshot = new Snapshot(List.of(), new ToolCallback[0], Map.of());

	private volatile boolean running;

	public McpSupervisorToolCallbackProvider(McpSupervisors supervisors) {
		this(supervisors, ToolCallObserver.NONE);
	}

	public McpSupervisorToolCallbackProvider(McpSupervisors supervisors, ToolCallObserver observer) {
		this(supervisors, observer, (connection, tool) -> true, null, ToolContextToMcpMetaConverter.defaultConverter());
	}

	/**
	 * Creates a provider with Spring AI's extension points, whose generator, when given,
	 * names the tools of every server.
	 * @param supervisors the supervised servers
	 * @param observer told of every call
	 * @param filter decides which tools are exposed
	 * @param nameGenerator names the tools, or {@code null} for the deterministic
	 * {@code <server>_<tool>} names
	 * @param metaConverter turns a call's tool context into its {@code _meta}
	 */
	public McpSupervisorToolCallbackProvider(McpSupervisors supervisors, ToolCallObserver observer,
			McpToolFilter filter, @Nullable McpToolNamePrefixGenerator nameGenerator,
			ToolContextToMcpMetaConverter metaConverter) {
		this(supervisors, observer, filter, nameGenerator, metaConverter,
				everyServer(supervisors, (nameGenerator != null) ? McpToolNaming.SPRING_AI : McpToolNaming.PREFIXED));
	}

	/**
	 * Creates a provider with Spring AI's extension points and a naming per server.
	 * @param supervisors the supervised servers
	 * @param observer told of every call
	 * @param filter decides which tools are exposed
	 * @param nameGenerator names the tools of the {@link McpToolNaming#SPRING_AI}
	 * servers, or {@code null} for Spring AI's default names
	 * @param metaConverter turns a call's tool context into its {@code _meta}
	 * @param toolNames how each server's tools are named, by server;
	 * {@link McpToolNaming#PREFIXED} for a server not in it
	 */
	public McpSupervisorToolCallbackProvider(McpSupervisors supervisors, ToolCallObserver observer,
			McpToolFilter filter, @Nullable McpToolNamePrefixGenerator nameGenerator,
			ToolContextToMcpMetaConverter metaConverter, Map<String, McpToolNaming> toolNames) {
		this(supervisors, observer, filter, nameGenerator, metaConverter, naming(Map.copyOf(toolNames)));
	}

	/**
	 * Creates a provider with Spring AI's extension points and a naming per server that
	 * is asked whenever the tools are named again: for servers added while the
	 * application runs.
	 * @param supervisors the supervised servers
	 * @param observer told of every call
	 * @param filter decides which tools are exposed
	 * @param nameGenerator names the tools of the {@link McpToolNaming#SPRING_AI}
	 * servers, or {@code null} for Spring AI's default names
	 * @param metaConverter turns a call's tool context into its {@code _meta}
	 * @param toolNames how a server's tools are named, by server name
	 * @since 0.1.0
	 */
	@SuppressWarnings("deprecation")
	public McpSupervisorToolCallbackProvider(McpSupervisors supervisors, ToolCallObserver observer,
			McpToolFilter filter, @Nullable McpToolNamePrefixGenerator nameGenerator,
			ToolContextToMcpMetaConverter metaConverter, Function<String, McpToolNaming> toolNames) {
		super(List.of());
		this.supervisors = supervisors;
		this.observer = observer;
		this.filter = filter;
		this.nameGenerator = nameGenerator;
		this.metaConverter = metaConverter;
		this.naming = toolNames;
	}

	/**
	 * Sets who tells on whose behalf a tool call is made, from its tool context, for the
	 * servers that act for each user. Applies to the callbacks built from then on.
	 * @param users the resolver (default {@link McpUserResolver#DEFAULT})
	 */
	public void setUserResolver(McpUserResolver users) {
		this.users = users;
	}

	private static Function<String, McpToolNaming> naming(Map<String, McpToolNaming> toolNames) {
		return (server) -> toolNames.getOrDefault(server, McpToolNaming.PREFIXED);
	}

	private static Map<String, McpToolNaming> everyServer(McpSupervisors supervisors, McpToolNaming naming) {
		Map<String, McpToolNaming> all = new HashMap<>();
		supervisors.supervisors().forEach((supervisor) -> all.put(supervisor.name(), naming));
		return all;
	}

	/**
	 * Returns the callbacks of the current tool sets; rebuilt only after a swap. Their
	 * names are unique, and a prefixed tool's name does not depend on which other servers
	 * are up.
	 * @return the callbacks, in the order of the servers (by name when auto-configured)
	 */
	@Override
	public ToolCallback[] getToolCallbacks() {
		return current().callbacks().clone();
	}

	private Snapshot current() {
		List<McpServerSupervisor> all = this.supervisors.supervisors();
		List<ToolSet> toolSets = all.stream().map(McpServerSupervisor::tools).toList();
		Snapshot cached = this.snapshot;
		if (sameInstances(cached.toolSets(), toolSets)) {
			return cached;
		}
		synchronized (this.rebuild) {
			cached = this.snapshot;
			if (!sameInstances(cached.toolSets(), toolSets)) {
				ExposedNames.Result names = names(all, toolSets, cached.owners());
				names.refusals()
					.forEach((refusal) -> logger.warn(StringUtils.capitalize(refusal.describe())
							+ ", so it is not exposed; " + remedy(refusal.servers())));
				cached = new Snapshot(toolSets, callbacks(names, toolSets), names.owners());
				this.snapshot = cached;
			}
			return cached;
		}
	}

	private static String remedy(List<String> servers) {
		String which = servers.stream().map((server) -> "'" + server + "'").collect(Collectors.joining(" or "));
		return "name the tools of MCP server " + which
				+ " with tool-names=prefixed, or leave one of the tools out with a McpToolFilter";
	}

	@Override
	public void invalidateCache() {
		this.snapshot = new Snapshot(List.of(), new ToolCallback[0], this.snapshot.owners());
	}

	@Override
	public void onApplicationEvent(McpToolsChangedEvent event) {
		// names the new tools now, so that a refused one is told of at its swap
		current();
	}

	/**
	 * Names the tools of the servers' first attempts.
	 * @throws McpToolNamesException if a tool's name is refused
	 */
	@Override
	public void start() {
		this.running = true;
		List<McpServerSupervisor> all = this.supervisors.supervisors();
		List<ToolSet> toolSets = all.stream().map(McpServerSupervisor::tools).toList();
		ExposedNames.Result names = names(all, toolSets, Map.of());
		if (!names.refusals().isEmpty()) {
			this.running = false;
			throw new McpToolNamesException(names.refusals().stream().map(ExposedNames.Refusal::describe).toList(),
					names.refusals()
						.stream()
						.flatMap((refusal) -> refusal.servers().stream())
						.collect(Collectors.toCollection(TreeSet::new)));
		}
		synchronized (this.rebuild) {
			this.snapshot = new Snapshot(toolSets, callbacks(names, toolSets), names.owners());
		}
	}

	@Override
	public void stop() {
		this.running = false;
	}

	@Override
	public boolean isRunning() {
		return this.running;
	}

	@Override
	public int getPhase() {
		return PHASE;
	}

	private ExposedNames.Result names(List<McpServerSupervisor> supervisors, List<ToolSet> toolSets,
			Map<String, String> owners) {
		ExposedNames names = new ExposedNames(supervisors.stream().map(McpServerSupervisor::name).toList(), this.naming,
				this.nameGenerator, owners);
		for (int i = 0; i < supervisors.size(); i++) {
			McpServerSupervisor supervisor = supervisors.get(i);
			McpConnectionInfo connection = connectionInfo(supervisor.name(), toolSets.get(i).session());
			Set<String> seen = new HashSet<>();
			for (Tool tool : toolSets.get(i).tools()) {
				// a tool listed twice is exposed once (its listing warned about it)
				if (seen.add(tool.name()) && this.filter.test(connection, tool)) {
					names.add(supervisor, connection, tool);
				}
			}
		}
		return names.result();
	}

	// The tools of a server that is down and keeps them are built from the same tool set:
	// all of them are described as unavailable, or none.
	private ToolCallback[] callbacks(ExposedNames.Result names, List<ToolSet> toolSets) {
		Map<String, ToolSet.Unavailability> down = new HashMap<>();
		toolSets.stream()
			.map(ToolSet::unavailable)
			.filter(Objects::nonNull)
			.forEach((unavailable) -> down.put(unavailable.server(), unavailable));
		return names.exposed()
			.stream()
			.map((candidate) -> new SupervisedToolCallback(this.supervisors, candidate.supervisor().name(),
					candidate.tool(), candidate.name(), this.observer, this.metaConverter, this.users,
					down.get(candidate.supervisor().name())))
			.toArray(ToolCallback[]::new);
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

	private record Snapshot(List<ToolSet> toolSets, ToolCallback[] callbacks, Map<String, String> owners) {

	}

}
