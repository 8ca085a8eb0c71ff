package io.github.mcpsupervisor.metrics.internal;

import java.time.Duration;
import java.util.HashSet;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.atomic.AtomicReferenceArray;

import io.github.mcpsupervisor.supervisor.McpServerState;
import io.github.mcpsupervisor.supervisor.McpServerStateChange;
import io.github.mcpsupervisor.supervisor.SupervisorListener;
import io.github.mcpsupervisor.supervisor.SupervisorListener.RestartCause;
import io.github.mcpsupervisor.supervisor.ToolSet;
import io.github.mcpsupervisor.tool.ToolCallObserver;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import org.jspecify.annotations.Nullable;

/**
 * Micrometer metrics, tagged by {@code server}: {@code mcp.supervisor.state} (1 for the
 * current state, tag {@code state}), {@code mcp.supervisor.restarts} (tag {@code cause}),
 * {@code mcp.supervisor.attempts} (tag {@code outcome}), {@code mcp.supervisor.cooldowns}
 * (each cooldown over, after which a given-up server tries again),
 * {@code mcp.supervisor.promotions} (each spare of a warm standby that became the serving
 * generation), {@code mcp.supervisor.outage} (each outage, from the loss of the connected
 * generation to the next connection) and {@code mcp.tool.calls} (tags {@code tool}, the
 * name the model calls, and {@code outcome}). The {@code tool} tags of a server are those
 * of its listed tools, at most {@value #MAX_TOOL_TAGS} of them; the meters of a tool that
 * the server no longer lists are removed, and so are all the meters of a server removed
 * from the application. A call records into the timer of its server, tool and outcome
 * that the first such call registered: it builds no meter and looks none up.
 *
 * @since 0.1.0
 */
public class McpSupervisorMetrics implements SupervisorListener, ToolCallObserver {

	/**
	 * The most distinct {@code tool} tags of one server's {@code mcp.tool.calls}: the
	 * calls of its other tools are tagged {@value #OTHER_TOOLS}. A server chooses its
	 * tool names; this keeps one that renames its tools, or lists hundreds, from growing
	 * the meter registry without bound.
	 */
	public static final int MAX_TOOL_TAGS = 100;

	// the server's tag on the meters of the MCP request observation
	private static final String OBSERVATION_SERVER_TAG = "mcp.supervisor.server";

	/** The {@code tool} tag of the calls of tools beyond {@link #MAX_TOOL_TAGS}. */
	public static final String OTHER_TOOLS = "other";

	private static final Outcome[] OUTCOMES = Outcome.values();

	// the outcome tags by the outcome's ordinal
	private static final String[] OUTCOME_TAGS = new String[OUTCOMES.length];

	static {
		for (Outcome outcome : OUTCOMES) {
			OUTCOME_TAGS[outcome.ordinal()] = outcome.name().toLowerCase(Locale.ROOT);
		}
	}

	private final MeterRegistry registry;

	private final Map<String, AtomicReference<McpServerState>> states = new ConcurrentHashMap<>();

	private final Map<String, ToolMeters> toolMeters = new ConcurrentHashMap<>();

	private final Map<String, Protocols> protocols = new ConcurrentHashMap<>();

	// servers removed and not added again: what they report late (a call in flight as
	// they went, their stop) registers no meter that nothing would remove
	private final Set<String> removed = ConcurrentHashMap.newKeySet();

	public McpSupervisorMetrics(MeterRegistry registry) {
		this.registry = registry;
	}

	@Override
	public void toolsChanged(String server, ToolSet tools) {
		if (!tools.tools().isEmpty()) {
			this.removed.remove(server); // listed: added again
		}
		if (this.removed.contains(server)) {
			return;
		}
		if (tools.session() != null && tools.session().protocolVersion() != null) {
			this.protocols.computeIfAbsent(server, Protocols::new).speaks(tools.session().protocolVersion());
		}
		ToolMeters meters = toolMeters(server);
		if (meters != null) {
			meters.listed(new HashSet<>(tools.names()));
		}
	}

	@Override
	public void stateChanged(McpServerStateChange change) {
		if (change.from() == McpServerState.STOPPED) {
			this.removed.remove(change.server()); // started: added again
		}
		if (this.removed.contains(change.server())) {
			return;
		}
		this.states.computeIfAbsent(change.server(), this::registerStateGauges).set(change.to());
	}

	@Override
	public void attemptFinished(String server, int generation, boolean connected) {
		if (this.removed.contains(server)) {
			return;
		}
		Counter.builder("mcp.supervisor.attempts")
			.description("Connection attempts of supervised MCP servers")
			.tag("server", server)
			.tag("outcome", connected ? "success" : "failure")
			.register(this.registry)
			.increment();
	}

	@Override
	public void recovered(String server, int attempts, Duration outage) {
		if (this.removed.contains(server)) {
			return;
		}
		Timer.builder("mcp.supervisor.outage")
			.description("Outages of supervised MCP servers, from the loss of a connected generation to the next")
			.tag("server", server)
			.register(this.registry)
			.record(outage);
	}

	@Override
	public void restarting(String server, RestartCause cause) {
		if (this.removed.contains(server)) {
			return;
		}
		Counter.builder("mcp.supervisor.restarts")
			.description("Restarts of supervised MCP servers")
			.tag("server", server)
			.tag("cause", cause.name().toLowerCase(Locale.ROOT))
			.register(this.registry)
			.increment();
	}

	@Override
	public void cooldownOver(String server, Duration cooldown) {
		if (this.removed.contains(server)) {
			return;
		}
		Counter.builder("mcp.supervisor.cooldowns")
			.description("Cooldowns of supervised MCP servers given up after a spent outage budget that ended in a"
					+ " fresh budget")
			.tag("server", server)
			.register(this.registry)
			.increment();
	}

	@Override
	public void promoted(String server, int generation, int replaced) {
		if (this.removed.contains(server)) {
			return;
		}
		Counter.builder("mcp.supervisor.promotions")
			.description("Spares of supervised MCP servers' warm standbys that became the serving generation")
			.tag("server", server)
			.register(this.registry)
			.increment();
	}

	@Override
	public void called(String server, String serverTool, String tool, Outcome outcome, Duration duration) {
		ToolMeters meters = toolMeters(server);
		Timer timer = (meters != null) ? meters.timer(serverTool, tool, outcome) : null;
		if (timer != null) {
			timer.record(duration);
		}
	}

	private @Nullable ToolMeters toolMeters(String server) {
		ToolMeters meters = this.toolMeters.get(server);
		if (meters != null) {
			return meters;
		}
		return this.removed.contains(server) ? null : this.toolMeters.computeIfAbsent(server, ToolMeters::new);
	}

	@Override
	public void removed(String server) {
		this.removed.add(server);
		this.states.remove(server);
		ToolMeters meters = this.toolMeters.remove(server);
		if (meters != null) {
			// before the meters go: a call that still holds them registers none after
			meters.close();
		}
		this.protocols.remove(server);
		this.registry.getMeters()
			.stream()
			.filter((meter) -> meter.getId().getName().startsWith("mcp.")
					&& (server.equals(meter.getId().getTag("server"))
							|| server.equals(meter.getId().getTag(OBSERVATION_SERVER_TAG))))
			.forEach(this.registry::remove);
	}

	private AtomicReference<McpServerState> registerStateGauges(String server) {
		AtomicReference<McpServerState> current = new AtomicReference<>();
		for (McpServerState state : McpServerState.values()) {
			Gauge.builder("mcp.supervisor.state", current, (value) -> (value.get() == state) ? 1 : 0)
				.description("1 for the current state of a supervised MCP server, 0 for the others")
				.tag("server", server)
				.tag("state", state.name().toLowerCase(Locale.ROOT))
				.register(this.registry);
		}
		return current;
	}

	/**
	 * The MCP revision one server's live generation speaks: a gauge per revision it has
	 * spoken, 1 for the current one. The revisions are those the SDK's clients accept, a
	 * handful.
	 */
	private final class Protocols {

		private final String server;

		private final AtomicReference<String> current = new AtomicReference<>();

		private final Set<String> registered = ConcurrentHashMap.newKeySet();

		Protocols(String server) {
			this.server = server;
		}

		void speaks(String protocol) {
			this.current.set(protocol);
			if (this.registered.add(protocol)) {
				Gauge.builder("mcp.supervisor.protocol", this.current, (value) -> protocol.equals(value.get()) ? 1 : 0)
					.description("1 for the MCP revision a supervised server's live generation speaks, 0 for others")
					.tag("server", this.server)
					.tag("protocol", protocol)
					.register(McpSupervisorMetrics.this.registry);
			}
		}

	}

	/**
	 * The {@code mcp.tool.calls} timers of one server, by the tool's name on the server
	 * and the outcome, each registered by the first call of its tool and outcome. The
	 * tools that have a tag of their own (the name the model calls, which its listings
	 * give) are at most {@link #MAX_TOOL_TAGS}; the calls of the others share the timers
	 * tagged {@value #OTHER_TOOLS}. A call finds its timer without a lock; registering a
	 * timer, and forgetting and removing those of a tool, take the server's.
	 */
	private final class ToolMeters {

		private final String server;

		private final Map<String, CallTimers> tagged = new ConcurrentHashMap<>();

		private final CallTimers others = new CallTimers(OTHER_TOOLS);

		// once the server is removed: nothing is registered for it any more
		private boolean closed;

		ToolMeters(String server) {
			this.server = server;
		}

		// The timer of a call, or null once the server was removed.
		@Nullable Timer timer(String serverTool, String tool, Outcome outcome) {
			CallTimers timers = this.tagged.get(serverTool);
			if (timers == null) {
				timers = (this.tagged.size() >= MAX_TOOL_TAGS) ? this.others : null;
			}
			else if (!timers.tag.equals(tool)) {
				timers = null;
			}
			Timer timer = (timers != null) ? timers.get(outcome) : null;
			return (timer != null) ? timer : register(serverTool, tool, outcome);
		}

		private synchronized @Nullable Timer register(String serverTool, String tool, Outcome outcome) {
			if (this.closed) {
				return null;
			}
			CallTimers timers = this.tagged.get(serverTool);
			if (timers == null && this.tagged.size() >= MAX_TOOL_TAGS) {
				timers = this.others;
			}
			else if (timers == null || !timers.tag.equals(tool)) {
				// a tool called by another name is tagged with the name of the call
				timers = new CallTimers(tool);
				this.tagged.put(serverTool, timers);
			}
			Timer timer = timers.get(outcome);
			if (timer == null) {
				timer = Timer.builder("mcp.tool.calls")
					.description("Calls of the tools of supervised MCP servers")
					.tag("server", this.server)
					.tag("tool", timers.tag)
					.tag("outcome", OUTCOME_TAGS[outcome.ordinal()])
					.register(McpSupervisorMetrics.this.registry);
				timers.set(outcome, timer);
			}
			return timer;
		}

		// Forgets the tools no longer listed, frees their tags and removes their meters.
		synchronized void listed(Set<String> serverTools) {
			for (Map.Entry<String, CallTimers> entry : Map.copyOf(this.tagged).entrySet()) {
				if (!serverTools.contains(entry.getKey())) {
					this.tagged.remove(entry.getKey());
					McpSupervisorMetrics.this.registry.find("mcp.tool.calls")
						.tag("server", this.server)
						.tag("tool", entry.getValue().tag)
						.meters()
						.forEach(McpSupervisorMetrics.this.registry::remove);
				}
			}
		}

		synchronized void close() {
			this.closed = true;
		}

	}

	/**
	 * The timers of the calls of one tag, by outcome, each set once registered.
	 */
	private static final class CallTimers {

		private final String tag;

		private final AtomicReferenceArray<Timer> byOutcome = new AtomicReferenceArray<>(OUTCOMES.length);

		CallTimers(String tag) {
			this.tag = tag;
		}

		@Nullable Timer get(Outcome outcome) {
			return this.byOutcome.get(outcome.ordinal());
		}

		void set(Outcome outcome, Timer timer) {
			this.byOutcome.set(outcome.ordinal(), timer);
		}

	}

}
