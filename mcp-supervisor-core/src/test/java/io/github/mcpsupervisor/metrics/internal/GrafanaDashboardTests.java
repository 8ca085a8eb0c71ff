package io.github.mcpsupervisor.metrics.internal;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import io.github.mcpsupervisor.observation.internal.McpRequestObservations;
import io.github.mcpsupervisor.supervisor.FakeConnector;
import io.github.mcpsupervisor.supervisor.McpServerState;
import io.github.mcpsupervisor.supervisor.McpServerSupervisor;
import io.github.mcpsupervisor.supervisor.ReconnectPolicy;
import io.github.mcpsupervisor.supervisor.ToolSet.SessionInfo;
import io.github.mcpsupervisor.supervisor.VirtualScheduler;
import io.github.mcpsupervisor.tool.ToolCallObserver.Outcome;
import io.micrometer.core.instrument.observation.DefaultMeterObservationHandler;
import io.micrometer.observation.ObservationRegistry;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.modelcontextprotocol.spec.McpSchema.CallToolRequest;
import io.modelcontextprotocol.spec.McpSchema.ClientCapabilities;
import io.modelcontextprotocol.spec.McpSchema.Implementation;
import io.modelcontextprotocol.spec.McpSchema.InitializeResult;
import io.modelcontextprotocol.spec.McpSchema.ServerCapabilities;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The Grafana dashboard in {@code docs/grafana} queries only what the starter registers,
 * as Micrometer's Prometheus registry names it, and every meter the starter registers.
 */
class GrafanaDashboardTests {

	private static final Path DASHBOARD = Path.of("../docs/grafana/mcp-supervisor-dashboard.json");

	// a metric in a selector: the name before its labels
	private static final Pattern QUERIED = Pattern.compile("\\b(mcp_[a-z_]+)\\{");

	@Test
	void everyMetricTheDashboardQueriesIsOneTheStarterRegisters() throws IOException {
		Set<String> scraped = scrapedNames(scrape());
		List<String> queried = queried();
		assertThat(queried).isNotEmpty();
		assertThat(scraped).containsAll(queried);
	}

	@Test
	void everyMeterTheStarterRegistersIsQueriedByTheDashboard() throws IOException {
		String scrape = scrape();
		List<String> queried = queried();
		Set<String> families = new TreeSet<>();
		Matcher type = Pattern.compile("(?m)^# TYPE (mcp_[a-z_]+) ").matcher(scrape);
		while (type.find()) {
			// a timer's _max gauge belongs to the timer the dashboard queries
			families.add(type.group(1).replaceAll("_max$", ""));
		}
		assertThat(families).contains("mcp_supervisor_state", "mcp_supervisor_restarts_total",
				"mcp_supervisor_attempts_total", "mcp_supervisor_cooldowns_total", "mcp_supervisor_promotions_total",
				"mcp_supervisor_outage_seconds", "mcp_supervisor_protocol", "mcp_tool_calls_seconds",
				"mcp_client_operation_seconds", "mcp_client_operation_active_seconds");
		assertThat(families).allSatisfy((family) -> assertThat(queried).anyMatch((name) -> name.startsWith(family)));
	}

	private static List<String> queried() throws IOException {
		JsonNode dashboard = JsonMapper.builder().build().readTree(DASHBOARD.toFile());
		List<String> names = new ArrayList<>();
		for (JsonNode panel : dashboard.get("panels")) {
			for (JsonNode target : panel.get("targets")) {
				Matcher matcher = QUERIED.matcher(target.get("expr").asString());
				int found = 0;
				while (matcher.find()) {
					names.add(matcher.group(1));
					found++;
				}
				assertThat(found).as(target.get("expr").asString()).isPositive();
			}
		}
		return names;
	}

	private static Set<String> scrapedNames(String scrape) {
		Set<String> names = new TreeSet<>();
		for (String line : scrape.split("\n")) {
			if (!line.isBlank() && !line.startsWith("#")) {
				names.add(line.split("[{ ]", 2)[0]);
			}
		}
		return names;
	}

	// Every meter of the starter, from a supervisor that connects, is called, loses its
	// generation and recovers, observed as the auto-configuration observes it, a cooldown
	// over, and a warm standby's promotion.
	// the constructor is deprecated in Micrometer 1.18 (Spring Boot 4.2) for a builder
	// that 1.16 and 1.17 (Boot 4.0 and 4.1) do not have
	@SuppressWarnings("deprecation")
	private static String scrape() {
		PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
		McpSupervisorMetrics metrics = new McpSupervisorMetrics(registry);
		ObservationRegistry observations = ObservationRegistry.create();
		observations.observationConfig().observationHandler(new DefaultMeterObservationHandler(registry));
		VirtualScheduler scheduler = new VirtualScheduler();
		FakeConnector connector = new FakeConnector();
		connector.session = new SessionInfo(Implementation.builder("test", "1").build(),
				ClientCapabilities.builder().build(),
				InitializeResult
					.builder("2025-11-25", ServerCapabilities.builder().tools(false).build(),
							Implementation.builder("demo", "1").build())
					.build());
		McpServerSupervisor supervisor = McpServerSupervisor.builder("demo", connector, scheduler)
			.reconnect(ReconnectPolicy.builder().initialDelay(Duration.ofMillis(100)).jitter(0).build())
			.listener(metrics)
			.requestObserver(new McpRequestObservations(observations, null, true))
			.build();
		supervisor.start();
		scheduler.runReady();
		assertThat(supervisor.state()).isEqualTo(McpServerState.UP);
		supervisor.callTool(CallToolRequest.builder("echo").arguments(Map.of()).build());
		metrics.called("demo", "echo", "demo_echo", Outcome.SUCCESS, Duration.ofMillis(3));
		connector.last().crash(137);
		scheduler.runReady();
		scheduler.advance(Duration.ofSeconds(1));
		assertThat(supervisor.state()).isEqualTo(McpServerState.UP);
		// the cooldown of a given-up server, as a supervisor with one reports it
		metrics.cooldownOver("demo", Duration.ofMinutes(5));
		// the promotion of a warm standby's spare, as a supervisor with one reports it
		metrics.promoted("demo", 3, 2);
		String scrape = registry.scrape();
		supervisor.stop();
		scheduler.runReady();
		return scrape;
	}

}
