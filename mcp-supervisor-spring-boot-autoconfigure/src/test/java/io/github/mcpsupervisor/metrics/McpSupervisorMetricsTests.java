package io.github.mcpsupervisor.metrics;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

import io.github.mcpsupervisor.supervisor.ToolSet;
import io.github.mcpsupervisor.tool.ToolCallObserver.Outcome;
import io.micrometer.core.instrument.Meter;
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
	void aServerThatRenamesItsToolsKeepsTheToolMetersBounded() {
		for (int i = 0; i < 500; i++) {
			String name = "tool-" + i;
			this.metrics.toolsChanged("renaming", tools(i + 1, List.of(name)));
			this.metrics.called("renaming", name, Outcome.SUCCESS, Duration.ofMillis(1));
		}
		assertThat(toolTags("renaming")).containsExactly("tool-499");
	}

	@Test
	void aServerWithMoreToolsThanTheCapTagsTheRestAsOther() {
		List<String> names = IntStream.range(0, 150).mapToObj((i) -> "t" + i).toList();
		this.metrics.toolsChanged("wide", tools(1, names));
		names.forEach((name) -> this.metrics.called("wide", name, Outcome.SUCCESS, Duration.ofMillis(1)));
		Set<String> tags = toolTags("wide");
		assertThat(tags).hasSize(McpSupervisorMetrics.MAX_TOOL_TAGS + 1).contains("t0", "t99", "other");
		assertThat(tags).doesNotContain("t100", "t149");
		assertThat(this.registry.get("mcp.tool.calls").tags("server", "wide", "tool", "other").timer().count())
			.isEqualTo(50);
	}

	@Test
	void theMetersOfAToolNoLongerListedAreRemovedAndItsPlaceFreed() {
		List<String> names = IntStream.range(0, 100).mapToObj((i) -> "t" + i).toList();
		this.metrics.toolsChanged("evolving", tools(1, names));
		names.forEach((name) -> this.metrics.called("evolving", name, Outcome.ERROR, Duration.ofMillis(1)));
		this.metrics.toolsChanged("evolving", tools(2, List.of("t0", "new")));
		this.metrics.called("evolving", "new", Outcome.SUCCESS, Duration.ofMillis(1));
		assertThat(toolTags("evolving")).containsExactlyInAnyOrder("t0", "new");
		assertThat(this.registry.get("mcp.tool.calls").tags("server", "evolving", "tool", "t0").timer().count())
			.isOne();
	}

	@Test
	void theToolMetersOfOneServerDoNotTouchAnothers() {
		this.metrics.toolsChanged("a", tools(1, List.of("echo")));
		this.metrics.toolsChanged("b", tools(1, List.of("echo")));
		this.metrics.called("a", "echo", Outcome.SUCCESS, Duration.ofMillis(1));
		this.metrics.called("b", "echo", Outcome.SUCCESS, Duration.ofMillis(1));
		this.metrics.toolsChanged("a", tools(2, List.of()));
		assertThat(toolTags("a")).isEmpty();
		assertThat(toolTags("b")).containsExactly("echo");
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
