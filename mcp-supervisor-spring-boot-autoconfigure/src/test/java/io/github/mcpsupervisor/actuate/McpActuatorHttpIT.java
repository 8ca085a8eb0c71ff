package io.github.mcpsupervisor.actuate;

import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;

import io.github.mcpsupervisor.autoconfigure.McpServerRegistry;
import io.github.mcpsupervisor.event.McpServerStateChangedEvent;
import io.github.mcpsupervisor.supervisor.McpServerState;
import io.github.mcpsupervisor.supervisor.McpSupervisors;
import io.micrometer.core.instrument.MeterRegistry;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

import org.springframework.ai.tool.ToolCallback;
import org.springframework.ai.tool.ToolCallbackProvider;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.context.ApplicationListener;
import org.springframework.context.annotation.Bean;
import org.springframework.test.annotation.DirtiesContext;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The health component, the endpoint and the metrics over a real port, with a real demo
 * server (required) and a server that cannot start (optional).
 */
// Closed after the class: its servers must not outlive it (other tests check for
// leftovers).
@DirtiesContext
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT, classes = McpActuatorHttpIT.App.class, properties = {
		// the test class path has Spring Security (the OAuth tests): not what is tested
		// here
		"spring.autoconfigure.exclude=" + Http.NO_WEB_SECURITY, "mcp.servers.demo.command=${java.home}/bin/java",
		"mcp.servers.demo.args[0]=-cp", "mcp.servers.demo.args[1]=${java.class.path}",
		"mcp.servers.demo.args[2]=io.github.mcpsupervisor.demo.DemoMcpServer", "mcp.servers.demo.env.API_TOKEN=s3cr3t",
		"mcp.servers.demo.required=true", "mcp.servers.demo.reconnect.initial-delay=100ms",
		"mcp.servers.demo.termination-grace-period=1s", "mcp.servers.broken.command=/nonexistent/mcp-server",
		"mcp.defaults.health-check.timeout=4s", "management.endpoints.web.exposure.include=health,mcp",
		"management.endpoint.mcp.access=unrestricted", "management.endpoint.health.show-details=always",
		"management.endpoint.health.group.readiness.include=readinessState,mcp/demo" })
class McpActuatorHttpIT {

	@Value("${local.server.port}")
	private int port;

	@Autowired
	private McpSupervisors supervisors;

	@Autowired
	private McpServerRegistry registry;

	@Autowired
	private MeterRegistry meterRegistry;

	@Autowired
	private ToolCallbackProvider tools;

	@Autowired
	private List<McpServerStateChangedEvent> events;

	@Test
	void healthHasOneComponentPerServerAndAnOptionalFailureDoesNotTurnItDown() throws Exception {
		HttpResponse<String> response = http().get("/actuator/health");
		JsonNode mcp = http().json(response).at("/components/mcp");
		assertThat(response.statusCode()).isEqualTo(200);
		assertThat(http().json(response).at("/status").asString()).isEqualTo("UP");
		assertThat(mcp.at("/status").asString()).isEqualTo("UP");
		assertThat(mcp.has("details")).isFalse();
		assertThat(mcp.at("/components/demo/status").asString()).isEqualTo("UP");
		assertThat(mcp.at("/components/demo/details/state").asString()).isEqualTo("UP");
		assertThat(mcp.at("/components/demo/details/required").asBoolean()).isTrue();
		assertThat(mcp.at("/components/demo/details/pid").asLong()).isPositive();
		assertThat(mcp.at("/components/demo/details/uptime").asString()).startsWith("PT");
		assertThat(mcp.at("/components/demo/details/tools").asInt()).isEqualTo(15);
		assertThat(mcp.at("/components/broken/status").asString()).isEqualTo("UP");
		assertThat(mcp.at("/components/broken/details/state").asString()).isEqualTo("FAILED");
		assertThat(mcp.at("/components/broken/details/lastError").asString()).contains("/nonexistent/mcp-server");
	}

	@Test
	void healthAnswersForOneServer() throws Exception {
		HttpResponse<String> demo = http().get("/actuator/health/mcp/demo");
		assertThat(demo.statusCode()).isEqualTo(200);
		assertThat(http().json(demo).at("/status").asString()).isEqualTo("UP");
		assertThat(http().json(demo).at("/details/state").asString()).isEqualTo("UP");
		assertThat(http().json(demo).at("/details/tools").asInt()).isEqualTo(15);
		HttpResponse<String> broken = http().get("/actuator/health/mcp/broken");
		assertThat(broken.statusCode()).isEqualTo(200);
		assertThat(http().json(broken).at("/status").asString()).as("optional").isEqualTo("UP");
		assertThat(http().json(broken).at("/details/state").asString()).isEqualTo("FAILED");
		assertThat(http().json(broken).at("/details/required").asBoolean()).isFalse();
		assertThat(http().get("/actuator/health/mcp/nope").statusCode()).isEqualTo(404);
	}

	@Test
	void aHealthGroupIncludesTheServersItNames() throws Exception {
		HttpResponse<String> response = http().get("/actuator/health/readiness");
		JsonNode readiness = http().json(response);
		assertThat(response.statusCode()).isEqualTo(200);
		assertThat(readiness.at("/status").asString()).isEqualTo("UP");
		assertThat(readiness.at("/components/readinessState/status").asString()).isEqualTo("UP");
		assertThat(readiness.at("/components/mcp/components/demo/details/state").asString()).isEqualTo("UP");
		assertThat(readiness.at("/components/mcp/components").propertyNames()).containsExactly("demo");
	}

	@Test
	void healthFollowsAServerAddedAndRemovedAtRuntime() throws Exception {
		this.registry.add("added", Map.of("command", "/nonexistent/added-server", "required", "true"));
		try {
			await().atMost(Duration.ofSeconds(30))
				.until(() -> this.supervisors.supervisor("added").state() == McpServerState.FAILED);
			HttpResponse<String> added = http().get("/actuator/health/mcp/added");
			assertThat(added.statusCode()).isEqualTo(503);
			assertThat(http().json(added).at("/status").asString()).isEqualTo("DOWN");
			assertThat(http().json(added).at("/details/state").asString()).isEqualTo("FAILED");
			HttpResponse<String> health = http().get("/actuator/health");
			assertThat(health.statusCode()).isEqualTo(503);
			assertThat(http().json(health).at("/components/mcp/status").asString()).isEqualTo("DOWN");
		}
		finally {
			this.registry.remove("added");
		}
		assertThat(http().get("/actuator/health/mcp/added").statusCode()).isEqualTo(404);
		assertThat(http().json(http().get("/actuator/health")).at("/components/mcp/components").propertyNames())
			.containsExactlyInAnyOrder("demo", "broken");
	}

	@Test
	void theEndpointListsEveryServer() throws Exception {
		JsonNode servers = http().json(http().get("/actuator/mcp")).at("/servers");
		assertThat(servers.at("/demo/state").asString()).isIn("UP", "RECONNECTING");
		assertThat(servers.at("/demo/maxAttempts").asInt()).isEqualTo(10);
		assertThat(servers.at("/broken/state").asString()).isIn("FAILED", "RECONNECTING");
	}

	@Test
	void theEndpointShowsOneServerInFullWithItsSecretsMasked() throws Exception {
		HttpResponse<String> response = http().get("/actuator/mcp/demo");
		JsonNode demo = http().json(response);
		assertThat(response.statusCode()).isEqualTo(200);
		assertThat(demo.at("/name").asString()).isEqualTo("demo");
		assertThat(demo.at("/state").asString()).isIn("UP", "RECONNECTING");
		assertThat(demo.at("/toolNames").toString()).contains("echo", "add", "crash");
		assertThat(demo.at("/configuration/env/API_TOKEN").asString()).isEqualTo("******");
		assertThat(demo.at("/configuration/reconnect/initialDelay").asString()).isEqualTo("PT0.1S");
		assertThat(demo.at("/configuration/healthCheck/timeout").asString()).isEqualTo("PT4S");
		assertThat(demo.at("/configuration/origins/reconnect.initial-delay").asString()).isEqualTo("server");
		assertThat(demo.at("/configuration/origins/health-check.timeout").asString()).isEqualTo("defaults");
		assertThat(demo.at("/configuration/origins/request-timeout").asString()).isEqualTo("built-in");
		assertThat(response.body()).doesNotContain("s3cr3t");
	}

	@Test
	void anUnknownServerIsNotFound() throws Exception {
		assertThat(http().get("/actuator/mcp/nope").statusCode()).isEqualTo(404);
		HttpResponse<String> reset = http().post("/actuator/mcp/nope/reset");
		assertThat(reset.statusCode()).isEqualTo(404);
		assertThat(reset.body()).contains("No MCP server named 'nope'");
	}

	@Test
	void anUnknownActionIsABadRequest() throws Exception {
		HttpResponse<String> response = http().post("/actuator/mcp/demo/explode");
		assertThat(response.statusCode()).isEqualTo(400);
		// Boot rejects a value that is not a McpServerAction before the operation runs
		assertThat(http().json(response).at("/error").asString()).isEqualTo("Bad Request");
		assertThat(http().json(response).at("/path").asString()).isEqualTo("/actuator/mcp/demo/explode");
	}

	@Test
	void resetOfAFailedServerConnectsItAgain() throws Exception {
		int generation = this.supervisors.supervisor("broken").status().generation();
		HttpResponse<String> response = http().post("/actuator/mcp/broken/reset");
		assertThat(response.statusCode()).isEqualTo(200);
		assertThat(http().json(response).at("/action").asString()).isEqualTo("reset");
		await().atMost(Duration.ofSeconds(30))
			.until(() -> this.supervisors.supervisor("broken").status().generation() == generation + 1
					&& this.supervisors.supervisor("broken").state() == McpServerState.FAILED);
	}

	@Test
	void aRestartAndACrashAreCountedTimedAndAnnouncedInOrder() throws Exception {
		int generation = this.supervisors.supervisor("demo").status().generation();
		int seen = this.events.size();
		double outages = outageCount();
		HttpResponse<String> restart = http().post("/actuator/mcp/demo/restart");
		assertThat(restart.statusCode()).isEqualTo(200);
		assertThat(http().json(restart).at("/state").asString()).isEqualTo("RECONNECTING");
		awaitUp(generation + 1);
		tool("demo_crash").call("{}");
		awaitUp(generation + 2);
		assertThat(restarts("restart")).isEqualTo(1);
		assertThat(restarts("crash")).isEqualTo(1);
		assertThat(outageCount()).isEqualTo(outages + 2);
		assertThat(this.meterRegistry.get("mcp.tool.calls")
			.tags("server", "demo", "tool", "demo_crash", "outcome", "success")
			.timer()
			.count()).isEqualTo(1);
		// the gauge and the event are both state listeners, in no guaranteed order
		await().atMost(Duration.ofSeconds(10))
			.untilAsserted(() -> assertThat(this.meterRegistry.get("mcp.supervisor.state")
				.tags("server", "demo", "state", "up")
				.gauge()
				.value()).isEqualTo(1));
		List<String> transitions = this.events.subList(seen, this.events.size())
			.stream()
			.filter((event) -> event.getServer().equals("demo"))
			.map((event) -> event.getFrom() + "->" + event.getTo() + "@" + event.getGeneration())
			.toList();
		assertThat(transitions).containsExactly("UP->RECONNECTING@" + generation,
				"RECONNECTING->UP@" + (generation + 1), "UP->RECONNECTING@" + (generation + 1),
				"RECONNECTING->UP@" + (generation + 2));
	}

	/**
	 * Waits for the event of the generation coming up: it is delivered after every other
	 * notification of that step (metrics included), unlike the state, which is visible
	 * first.
	 */
	private void awaitUp(int generation) {
		await().atMost(Duration.ofSeconds(60))
			.until(() -> List.copyOf(this.events)
				.stream()
				.anyMatch((event) -> event.getServer().equals("demo") && event.getTo() == McpServerState.UP
						&& event.getGeneration() == generation));
	}

	private double restarts(String cause) {
		return this.meterRegistry.get("mcp.supervisor.restarts")
			.tags("server", "demo", "cause", cause)
			.counter()
			.count();
	}

	private double outageCount() {
		var timer = this.meterRegistry.find("mcp.supervisor.outage").tag("server", "demo").timer();
		return (timer != null) ? timer.count() : 0;
	}

	private ToolCallback tool(String name) {
		for (ToolCallback callback : this.tools.getToolCallbacks()) {
			if (callback.getToolDefinition().name().equals(name)) {
				return callback;
			}
		}
		throw new IllegalStateException("no tool " + name);
	}

	private Http http() {
		return new Http(this.port);
	}

	@SpringBootConfiguration
	@EnableAutoConfiguration
	static class App {

		@Bean
		List<McpServerStateChangedEvent> stateEvents() {
			return new CopyOnWriteArrayList<>();
		}

		@Bean
		ApplicationListener<McpServerStateChangedEvent> stateEventRecorder(List<McpServerStateChangedEvent> events) {
			return events::add;
		}

	}

}
