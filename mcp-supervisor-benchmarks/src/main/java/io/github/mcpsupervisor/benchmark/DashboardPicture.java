package io.github.mcpsupervisor.benchmark;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import io.github.mcpsupervisor.connector.McpConnectors;
import io.github.mcpsupervisor.connector.McpConnectors.Protocol;
import io.github.mcpsupervisor.metrics.internal.McpSupervisorMetrics;
import io.github.mcpsupervisor.observation.internal.McpRequestObservations;
import io.github.mcpsupervisor.supervisor.CallPolicy;
import io.github.mcpsupervisor.supervisor.HealthCheckPolicy;
import io.github.mcpsupervisor.supervisor.McpServerSupervisor;
import io.github.mcpsupervisor.supervisor.McpSupervisors;
import io.github.mcpsupervisor.supervisor.McpSupervisors.SupervisedServer;
import io.github.mcpsupervisor.supervisor.ReconnectPolicy;
import io.github.mcpsupervisor.supervisor.ThreadPoolSupervisorScheduler;
import io.github.mcpsupervisor.tool.McpSupervisorToolCallbackProvider;
import io.github.mcpsupervisor.transport.StdioServerDefinition;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.observation.DefaultMeterObservationHandler;
import io.micrometer.core.instrument.search.Search;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.micrometer.observation.ObservationRegistry;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.BitmapEncoder.BitmapFormat;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.style.Styler.LegendPosition;
import org.knowm.xchart.style.markers.SeriesMarkers;

import org.springframework.ai.tool.ToolCallback;

/**
 * Draws four panels of the Grafana dashboard ({@code docs/grafana}) from the meters of a
 * real run: the demo server supervised with the starter's metrics and request
 * observations, its tools called through the starter's tool callbacks by two callers, and
 * its process killed three times. Each panel shows what its dashboard query computes,
 * sampled every 500 ms; it is a rendering of the panels, not Grafana.
 */
public final class DashboardPicture {

	private static final Duration STEP = Duration.ofMillis(500);

	private static final int STEPS = 80;

	private DashboardPicture() {
	}

	// the constructor of DefaultMeterObservationHandler is deprecated in Micrometer 1.18
	// (Spring Boot 4.2) for a builder that 1.16 and 1.17 (Boot 4.0 and 4.1) do not have
	@SuppressWarnings("deprecation")
	public static void main(String[] args) throws Exception {
		ThreadPoolSupervisorScheduler scheduler = new ThreadPoolSupervisorScheduler();
		MeterRegistry registry = new SimpleMeterRegistry();
		McpSupervisorMetrics metrics = new McpSupervisorMetrics(registry);
		ObservationRegistry observations = ObservationRegistry.create();
		observations.observationConfig().observationHandler(new DefaultMeterObservationHandler(registry));
		StdioServerDefinition demo = BenchmarkServers.demo("demo", Map.of());
		McpServerSupervisor supervisor = McpServerSupervisor
			.builder("demo", McpConnectors.stdio(demo, scheduler, Protocol.V2025_11_25), scheduler)
			.reconnect(ReconnectPolicy.builder().initialDelay(Duration.ofMillis(200)).build())
			.calls(CallPolicy.defaults())
			.healthCheck(HealthCheckPolicy.disabled(Duration.ofSeconds(5)))
			.listener(metrics)
			.requestObserver(new McpRequestObservations(observations, null, true))
			.build();
		McpSupervisors supervisors = new McpSupervisors(
				List.of(new SupervisedServer(supervisor, true, true, Duration.ofSeconds(30), Duration.ofSeconds(5))));
		supervisor.start().join();
		McpSupervisorToolCallbackProvider provider = new McpSupervisorToolCallbackProvider(supervisors, metrics);
		ToolCallback slow = tool(provider, "demo_slow");
		ToolCallback slowWrite = tool(provider, "demo_slow-write");
		long end = System.nanoTime() + STEP.toNanos() * STEPS;
		List<Thread> callers = new ArrayList<>();
		for (ToolCallback callback : List.of(slow, slowWrite)) {
			Thread caller = new Thread(() -> {
				while (System.nanoTime() < end) {
					try {
						callback.call("{\"millis\":40}");
					}
					catch (RuntimeException ex) {
						// counted by the meters
					}
				}
			});
			caller.start();
			callers.add(caller);
		}
		Map<String, List<Double>> state = new LinkedHashMap<>();
		Map<String, List<Double>> calls = new LinkedHashMap<>();
		Map<String, List<Double>> requests = new LinkedHashMap<>();
		Map<String, List<Double>> restarts = new LinkedHashMap<>();
		Map<String, Double> previous = new LinkedHashMap<>();
		List<Double> seconds = new ArrayList<>();
		for (int step = 0; step < STEPS; step++) {
			if (step == 16 || step == 36 || step == 56) {
				BenchmarkServers.kill(supervisor);
			}
			Thread.sleep(STEP.toMillis());
			seconds.add((step + 1) * STEP.toMillis() / 1000.0);
			for (String name : List.of("up", "reconnecting", "starting")) {
				state.computeIfAbsent(name, (key) -> new ArrayList<>())
					.add(registry.get("mcp.supervisor.state").tag("state", name).gauge().value());
			}
			for (String outcome : List.of("success", "unavailable", "failure", "error")) {
				rate(calls, previous, "tool " + outcome,
						count(registry.find("mcp.tool.calls").tag("outcome", outcome)));
				rate(requests, previous, "request " + outcome,
						count(registry.find("mcp.client.operation").tag("mcp.supervisor.outcome", outcome)));
			}
			rate(requests, previous, "retried",
					count(registry.find("mcp.client.operation").tag("mcp.supervisor.retried", "true")));
			restarts.computeIfAbsent("restarts (crash)", (key) -> new ArrayList<>())
				.add(registry.find("mcp.supervisor.restarts").counters().stream().mapToDouble((c) -> c.count()).sum());
			restarts.computeIfAbsent("outage max (s)", (key) -> new ArrayList<>())
				.add(registry.find("mcp.supervisor.outage")
					.timers()
					.stream()
					.mapToDouble((t) -> t.max(TimeUnit.SECONDS))
					.max()
					.orElse(0));
		}
		for (Thread caller : callers) {
			caller.join();
		}
		supervisor.stop().join();
		scheduler.close();
		List<XYChart> charts = List.of(chart("Server state (mcp_supervisor_state)", seconds, state),
				chart("Tool calls/s by outcome (mcp_tool_calls_seconds_count)", seconds, calls),
				chart("MCP requests/s (mcp_client_operation_seconds_count)", seconds, requests),
				chart("Restarts and outage max (mcp_supervisor_restarts_total, outage_seconds_max)", seconds,
						restarts));
		Path file = Path.of(args[0]);
		Files.createDirectories(file.toAbsolutePath().getParent());
		BitmapEncoder.saveBitmap(charts, 2, 2, file.toString().replaceAll("\\.png$", ""), BitmapFormat.PNG);
		System.out.println("wrote " + file);
	}

	private static ToolCallback tool(McpSupervisorToolCallbackProvider provider, String name) {
		for (ToolCallback callback : provider.getToolCallbacks()) {
			if (callback.getToolDefinition().name().equals(name)) {
				return callback;
			}
		}
		throw new IllegalStateException("no tool " + name);
	}

	private static double count(Search search) {
		return search.timers().stream().mapToDouble(Timer::count).sum();
	}

	private static void rate(Map<String, List<Double>> series, Map<String, Double> previous, String name,
			double count) {
		double before = previous.getOrDefault(name, 0.0);
		previous.put(name, count);
		series.computeIfAbsent(name, (key) -> new ArrayList<>()).add((count - before) / (STEP.toMillis() / 1000.0));
	}

	private static XYChart chart(String title, List<Double> seconds, Map<String, List<Double>> series) {
		XYChart chart = new XYChartBuilder().width(640).height(300).title(title).xAxisTitle("seconds").build();
		chart.getStyler().setLegendPosition(LegendPosition.InsideNW);
		series.forEach((name, values) -> chart.addSeries(name, seconds, values).setMarker(SeriesMarkers.NONE));
		return chart;
	}

}
