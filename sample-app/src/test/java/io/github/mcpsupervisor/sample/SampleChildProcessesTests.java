package io.github.mcpsupervisor.sample;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.Collectors;

import io.github.mcpsupervisor.event.McpServerStateChangedEvent;
import io.github.mcpsupervisor.supervisor.McpServerState;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.ApplicationListener;
import org.springframework.context.ConfigurableApplicationContext;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

/**
 * The sample's demo servers are child processes of the application, the one over HTTP
 * included: when that one is killed, nothing starts it again, its server is reconnecting
 * and the application keeps serving the others; none outlives the application context,
 * nor an application that fails to start. Each test runs an application of its own, so
 * that its processes are known.
 */
class SampleChildProcessesTests {

	private static final Duration PATIENCE = Duration.ofSeconds(60);

	private static final Set<String> SERVERS = Set.of("demo", "modern", ModernHttpDemo.SERVER);

	private final HttpClient http = HttpClient.newHttpClient();

	private final List<McpServerStateChangedEvent> changes = new CopyOnWriteArrayList<>();

	private @Nullable ConfigurableApplicationContext context;

	private int port;

	@AfterEach
	void close() {
		if (this.context != null) {
			this.context.close();
		}
	}

	@Test
	void whenTheHttpDemoIsKilledItsServerIsReconnectingAndTheApplicationKeepsServing() throws Exception {
		start();
		ProcessHandle demo = ProcessHandle.of(Long.parseLong(text(post("/tools/modern-http_pid", "{}")))).orElseThrow();
		assertThat(demo.parent().map(ProcessHandle::pid)).contains(ProcessHandle.current().pid());
		demo.destroyForcibly();
		await().atMost(PATIENCE).until(() -> !demo.isAlive());
		// a call waits for a recovery that does not come, and says so
		HttpResponse<String> call = post("/tools/modern-http_echo", "{\"message\":\"anyone?\"}");
		assertThat(call.statusCode()).as(call.body()).isEqualTo(503);
		await().atMost(PATIENCE)
			.until(() -> this.changes.stream()
				.anyMatch((change) -> change.getServer().equals(ModernHttpDemo.SERVER)
						&& change.getFrom() == McpServerState.UP && change.getTo() == McpServerState.RECONNECTING));
		assertThat(text(post("/tools/demo_echo", "{\"message\":\"still here\"}"))).isEqualTo("still here");
		assertThat(text(post("/tools/modern_echo", "{\"message\":\"still here\"}"))).isEqualTo("still here");
		HttpResponse<String> health = get("/actuator/health");
		assertThat(health.statusCode()).isEqualTo(200);
		assertThat(json(health).path("status").asString("")).isEqualTo("UP");
		assertThat(ProcessHandle.of(demo.pid()).filter(ProcessHandle::isAlive)).as("started again").isEmpty();
	}

	@Test
	void noChildProcessOutlivesTheApplicationContext() throws Exception {
		Set<Long> before = ProcessHandle.current().children().map(ProcessHandle::pid).collect(Collectors.toSet());
		start();
		long httpDemo = Long.parseLong(text(post("/tools/modern-http_pid", "{}")));
		JsonNode servers = json(get("/actuator/health")).at("/components/mcp/components");
		List<ProcessHandle> started = ProcessHandle.current()
			.children()
			.filter((child) -> !before.contains(child.pid()))
			.toList();
		assertThat(started).extracting(ProcessHandle::pid)
			.contains(httpDemo, servers.at("/demo/details/pid").asLong(), servers.at("/modern/details/pid").asLong());
		ConfigurableApplicationContext context = this.context;
		this.context = null;
		context.close();
		assertThat(started).noneMatch(ProcessHandle::isAlive);
	}

	@Test
	@ExtendWith(OutputCaptureExtension.class)
	void aStartThatFailsLeavesNoChildProcess(CapturedOutput output) {
		Set<Long> before = ProcessHandle.current().children().map(ProcessHandle::pid).collect(Collectors.toSet());
		// refused when the servers are bound, after the HTTP demo has started
		assertThatExceptionOfType(RuntimeException.class)
			.isThrownBy(() -> new SpringApplicationBuilder(SampleApplication.class).run("--server.port=0",
					"--mcp.defaults.protocol=1999-01-01"));
		assertThat(output).contains("Started the demo MCP server (2026-07-28, Streamable HTTP)");
		assertThat(ProcessHandle.current().children().filter((child) -> !before.contains(child.pid())))
			.noneMatch(ProcessHandle::isAlive);
	}

	private void start() {
		ApplicationListener<McpServerStateChangedEvent> listener = this.changes::add;
		this.context = new SpringApplicationBuilder(SampleApplication.class).listeners(listener).run("--server.port=0");
		this.port = this.context.getEnvironment().getRequiredProperty("local.server.port", Integer.class);
		await().atMost(PATIENCE).untilAsserted(() -> {
			JsonNode servers = json(get("/actuator/health")).at("/components/mcp/components");
			for (String server : SERVERS) {
				assertThat(servers.at("/" + server + "/details/state").asString("")).as(server).isEqualTo("UP");
			}
		});
	}

	private static String text(HttpResponse<String> response) {
		assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
		return json(response).path(0).path("text").asString();
	}

	private static JsonNode json(HttpResponse<String> response) {
		return JsonMapper.shared().readTree(response.body());
	}

	private HttpResponse<String> get(String path) throws Exception {
		return this.http.send(HttpRequest.newBuilder(uri(path)).GET().build(), HttpResponse.BodyHandlers.ofString());
	}

	private HttpResponse<String> post(String path, String json) throws Exception {
		return this.http.send(HttpRequest.newBuilder(uri(path))
			.header("Content-Type", "application/json")
			.POST(HttpRequest.BodyPublishers.ofString(json))
			.build(), HttpResponse.BodyHandlers.ofString());
	}

	private URI uri(String path) {
		return URI.create("http://127.0.0.1:" + this.port + path);
	}

}
