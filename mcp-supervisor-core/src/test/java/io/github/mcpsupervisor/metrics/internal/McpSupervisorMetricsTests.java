package io.github.mcpsupervisor.metrics.internal;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

import io.github.mcpsupervisor.supervisor.McpServerState;
import io.github.mcpsupervisor.supervisor.McpServerStateChange;
import io.github.mcpsupervisor.supervisor.SupervisorListener.RestartCause;
import io.github.mcpsupervisor.supervisor.ToolSet;
import io.github.mcpsupervisor.tool.ToolCallObserver.Outcome;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.config.MeterFilter;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.modelcontextprotocol.spec.McpSchema.Tool;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The meters of supervised servers, whose tool names the servers choose.
 */
class McpSupervisorMetricsTests {

	private final SimpleMeterRegistry registry = new SimpleMeterRegistry();

	private final McpSupervisorMetrics metrics = new McpSupervisorMetrics(this.registry);

	@Test
	void eachCooldownOverIsCountedByServerAndARestartAfterItByItsCause() {
		this.metrics.cooldownOver("flaky", Duration.ofMinutes(5));
		this.metrics.cooldownOver("flaky", Duration.ofMinutes(10));
		this.metrics.restarting("flaky", RestartCause.COOLDOWN);
		assertThat(this.registry.get("mcp.supervisor.cooldowns").tags("server", "flaky").counter().count())
			.isEqualTo(2);
		assertThat(this.registry.get("mcp.supervisor.restarts")
			.tags("server", "flaky", "cause", "cooldown")
			.counter()
			.count()).isOne();
	}

	@Test
	void eachPromotionOfASpareIsCountedByServer() {
		this.metrics.promoted("files", 2, 1);
		this.metrics.promoted("files", 4, 2);
		this.metrics.promoted("web", 3, 1);
		assertThat(this.registry.get("mcp.supervisor.promotions").tags("server", "files").counter().count())
			.isEqualTo(2);
		assertThat(this.registry.get("mcp.supervisor.promotions").tags("server", "web").counter().count()).isOne();
	}

	@Test
	void everyMeterOfARemovedServerIsRemovedAndTheOthersKept() {
		for (String server : List.of("gone", "kept")) {
			this.metrics.stateChanged(
					new McpServerStateChange(server, McpServerState.STARTING, McpServerState.UP, 1, "connected", null));
			this.metrics.attemptFinished(server, 1, true);
			this.metrics.restarting(server, RestartCause.RESTART);
			this.metrics.toolsChanged(server, tools(1, List.of("t")));
			this.metrics.called(server, "t", server + "_t", Outcome.SUCCESS, Duration.ofMillis(1));
			// as the MCP request observation's meter handler registers it
			this.registry.timer("mcp.client.operation", "mcp.supervisor.server", server).record(Duration.ofMillis(1));
		}
		this.metrics.removed("gone");
		assertThat(this.registry.getMeters()).extracting((meter) -> (meter.getId().getTag("server") != null)
				? meter.getId().getTag("server") : meter.getId().getTag("mcp.supervisor.server"))
			.containsOnly("kept");
		// a server added again under the name is counted from scratch
		this.metrics.stateChanged(
				new McpServerStateChange("gone", McpServerState.STOPPED, McpServerState.STARTING, 1, "start", null));
		assertThat(
				this.registry.get("mcp.supervisor.state").tags("server", "gone", "state", "starting").gauge().value())
			.isEqualTo(1);
	}

	@Test
	void aServerThatRenamesItsToolsKeepsTheToolMetersBounded() {
		for (int i = 0; i < 500; i++) {
			String name = "tool-" + i;
			this.metrics.toolsChanged("renaming", tools(i + 1, List.of(name)));
			call("renaming", name, Outcome.SUCCESS);
		}
		assertThat(toolTags("renaming")).containsExactly("renaming_tool-499");
	}

	@Test
	void aServerWithMoreToolsThanTheCapTagsTheRestAsOther() {
		List<String> names = IntStream.range(0, 150).mapToObj((i) -> "t" + i).toList();
		this.metrics.toolsChanged("wide", tools(1, names));
		names.forEach((name) -> call("wide", name, Outcome.SUCCESS));
		Set<String> tags = toolTags("wide");
		assertThat(tags).hasSize(McpSupervisorMetrics.MAX_TOOL_TAGS + 1).contains("wide_t0", "wide_t99", "other");
		assertThat(tags).doesNotContain("wide_t100", "wide_t149");
		assertThat(this.registry.get("mcp.tool.calls").tags("server", "wide", "tool", "other").timer().count())
			.isEqualTo(50);
	}

	@Test
	void theMetersOfAToolNoLongerListedAreRemovedAndItsPlaceFreed() {
		List<String> names = IntStream.range(0, 100).mapToObj((i) -> "t" + i).toList();
		this.metrics.toolsChanged("evolving", tools(1, names));
		names.forEach((name) -> call("evolving", name, Outcome.ERROR));
		this.metrics.toolsChanged("evolving", tools(2, List.of("t0", "new")));
		call("evolving", "new", Outcome.SUCCESS);
		assertThat(toolTags("evolving")).containsExactlyInAnyOrder("evolving_t0", "evolving_new");
		assertThat(
				this.registry.get("mcp.tool.calls").tags("server", "evolving", "tool", "evolving_t0").timer().count())
			.isOne();
	}

	@Test
	void theToolMetersOfOneServerDoNotTouchAnothers() {
		this.metrics.toolsChanged("a", tools(1, List.of("echo")));
		this.metrics.toolsChanged("b", tools(1, List.of("echo")));
		call("a", "echo", Outcome.SUCCESS);
		call("b", "echo", Outcome.SUCCESS);
		this.metrics.toolsChanged("a", tools(2, List.of()));
		assertThat(toolTags("a")).isEmpty();
		assertThat(toolTags("b")).containsExactly("b_echo");
	}

	@Test
	void theToolTagIsTheNameTheModelCallsAndItsMetersGoWhenTheServerNoLongerListsTheTool() {
		this.metrics.toolsChanged("files", tools(1, List.of("read_file")));
		this.metrics.called("files", "read_file", "read_file", Outcome.SUCCESS, Duration.ofMillis(1));
		this.metrics.toolsChanged("docs", tools(1, List.of("read_file")));
		this.metrics.called("docs", "read_file", "docs_read_file", Outcome.SUCCESS, Duration.ofMillis(1));
		assertThat(toolTags("files")).containsExactly("read_file");
		assertThat(toolTags("docs")).containsExactly("docs_read_file");
		this.metrics.toolsChanged("docs", tools(2, List.of()));
		assertThat(toolTags("docs")).isEmpty();
		assertThat(toolTags("files")).containsExactly("read_file");
	}

	@Test
	void aCallOfAToolAndOutcomeSeenBeforeRecordsWithoutRegisteringItsTimerAgain() {
		this.metrics.toolsChanged("files", tools(1, List.of("read")));
		call("files", "read", Outcome.SUCCESS);
		call("files", "read", Outcome.ERROR);
		// a registration applies the registry's filters (again for a meter registered
		// before a filter was added): a call that records into the timer it has applies
		// none
		List<Meter.Id> registered = new CopyOnWriteArrayList<>();
		this.registry.config().meterFilter(new MeterFilter() {

			@Override
			public Meter.Id map(Meter.Id id) {
				registered.add(id);
				return id;
			}

		});
		call("files", "read", Outcome.SUCCESS);
		call("files", "read", Outcome.ERROR);
		call("files", "read", Outcome.SUCCESS);
		assertThat(registered).isEmpty();
		assertThat(this.registry.get("mcp.tool.calls").tags("tool", "files_read", "outcome", "success").timer().count())
			.isEqualTo(3);
		assertThat(this.registry.get("mcp.tool.calls").tags("tool", "files_read", "outcome", "error").timer().count())
			.isEqualTo(2);
	}

	@Test
	void aToolListedAgainOrAServerAddedAgainRecordsIntoMetersOfTheRegistry() {
		this.metrics.toolsChanged("files", tools(1, List.of("read")));
		call("files", "read", Outcome.SUCCESS);
		this.metrics.toolsChanged("files", tools(2, List.of()));
		this.metrics.toolsChanged("files", tools(3, List.of("read")));
		call("files", "read", Outcome.SUCCESS);
		assertThat(this.registry.get("mcp.tool.calls").tags("tool", "files_read", "outcome", "success").timer().count())
			.isOne();
		this.metrics.removed("files");
		this.metrics.toolsChanged("files", tools(1, List.of("read")));
		call("files", "read", Outcome.SUCCESS);
		assertThat(this.registry.get("mcp.tool.calls").tags("tool", "files_read", "outcome", "success").timer().count())
			.isOne();
	}

	@Test
	void whatARemovedServerReportsLateRegistersNoMeter() {
		this.metrics.stateChanged(
				new McpServerStateChange("files", McpServerState.STOPPED, McpServerState.STARTING, 0, "start", null));
		this.metrics.toolsChanged("files", tools(1, List.of("read")));
		this.metrics.removed("files");
		// a call in flight as the server was removed ends, and its stop is told
		call("files", "read", Outcome.SUCCESS);
		this.metrics.stateChanged(
				new McpServerStateChange("files", McpServerState.UP, McpServerState.STOPPED, 1, "stop", null));
		this.metrics.toolsChanged("files", tools(1, List.of()));
		this.metrics.attemptFinished("files", 2, false);
		assertThat(this.registry.getMeters()).isEmpty();
	}

	@Test
	void aToolCalledUnderAnotherNameIsTaggedWithTheNameOfEachCall() {
		this.metrics.toolsChanged("files", tools(1, List.of("read")));
		this.metrics.called("files", "read", "files_read", Outcome.SUCCESS, Duration.ofMillis(1));
		this.metrics.called("files", "read", "read", Outcome.SUCCESS, Duration.ofMillis(1));
		this.metrics.called("files", "read", "read", Outcome.SUCCESS, Duration.ofMillis(1));
		assertThat(this.registry.get("mcp.tool.calls").tags("tool", "files_read").timer().count()).isOne();
		assertThat(this.registry.get("mcp.tool.calls").tags("tool", "read").timer().count()).isEqualTo(2);
	}

	// As the tool bridge names tools by default: the server's name, '_', the tool's.
	private void call(String server, String tool, Outcome outcome) {
		this.metrics.called(server, tool, server + "_" + tool, outcome, Duration.ofMillis(1));
	}

	private Set<String> toolTags(String server) {
		return this.registry.find("mcp.tool.calls")
			.tag("server", server)
			.meters()
			.stream()
			.map((Meter meter) -> meter.getId().getTag("tool"))
			.collect(Collectors.toSet());
	}

	private static ToolSet tools(int generation, List<String> names) {
		return new ToolSet(generation,
				names.stream().map((name) -> Tool.builder(name, Map.of("type", "object")).build()).toList());
	}

}
