package io.github.mcpsupervisor.sample;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The sample run as Boot applications usually are, {@code java -jar} of the repackaged
 * jar, with a profile that overrides its demo server as a production file would: the demo
 * server starts from the jar's nested libraries with the overridden settings, as do the
 * two 2026-07-28 demo servers (stdio, and HTTP as the application's own child), each
 * answers a tool call, and all are gone once the application has stopped. Run by Failsafe
 * after {@code package}.
 */
class ExecutableJarIT {

	private static final Pattern STARTED_ON_PORT = Pattern.compile("Tomcat started on port (\\d+)");

	private static final Duration TIMEOUT = Duration.ofSeconds(30);

	private final HttpClient http = HttpClient.newBuilder().connectTimeout(TIMEOUT).build();

	private final List<ProcessHandle> started = new ArrayList<>();

	private @Nullable Process application;

	@Test
	void javaJarWithAProfileSupervisesTheOverriddenDemoServerAndLeavesNoProcessBehind(@TempDir Path config)
			throws Exception {
		String jarProperty = System.getProperty("sample.jar");
		assertThat(jarProperty).as("system property sample.jar (set by the build)").isNotBlank();
		Path jar = Path.of(jarProperty);
		assertThat(jar).isRegularFile();
		Path log = jar.resolveSibling("executable-jar-it.log");
		// lists the demo server's arguments again and changes one reconnect setting:
		// the base file's other settings stay
		Files.writeString(config.resolve("application-prod.yml"), """
				mcp:
				  servers:
				    demo:
				      args:
				        - -Dloader.main=io.github.mcpsupervisor.demo.DemoMcpServer
				        - -cp
				        - ${java.class.path}
				        - org.springframework.boot.loader.launch.PropertiesLauncher
				      reconnect:
				        max-attempts: 7
				""");
		Process application = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
				"-jar", jar.toString(), "--server.port=0", "--server.address=127.0.0.1",
				"--spring.profiles.active=prod", "--spring.config.additional-location=file:" + config + "/")
			.redirectErrorStream(true)
			.redirectOutput(log.toFile())
			.start();
		this.application = application;
		this.started.add(application.toHandle());

		String exited = "the application exited; see " + log;
		Integer port = await().atMost(Duration.ofMinutes(3))
			.failFast(exited, () -> !application.isAlive())
			.until(() -> port(log), Objects::nonNull);
		await().atMost(Duration.ofMinutes(2)).failFast(exited, () -> !application.isAlive()).untilAsserted(() -> {
			JsonNode mcp = get(port, "/actuator/health").path("components").path("mcp");
			assertThat(mcp.path("status").asString("")).as("mcp health; see %s", log).isEqualTo("UP");
			for (String server : List.of("demo", "modern", "modern-http")) {
				assertThat(mcp.at("/components/" + server + "/details/state").asString(""))
					.as("%s state; see %s", server, log)
					.isEqualTo("UP");
			}
		});
		long demoPid = get(port, "/actuator/health").at("/components/mcp/components/demo/details/pid").asLong();
		JsonNode demo = get(port, "/actuator/mcp/demo").path("configuration");
		assertThat(demo.at("/reconnect/maxAttempts").asInt()).as("from the profile").isEqualTo(7);
		assertThat(demo.at("/reconnect/initialDelay").asString()).as("from the base file's defaults")
			.isEqualTo("PT0.25S");
		assertThat(demo.at("/origins/reconnect.max-attempts").asString()).isEqualTo("server");
		assertThat(demo.at("/required").asBoolean()).as("from the base file").isTrue();
		List<ProcessHandle> children = application.descendants().toList();
		this.started.addAll(children);
		assertThat(children).extracting(ProcessHandle::pid).contains(demoPid);

		for (String server : List.of("demo", "modern", "modern-http")) {
			HttpResponse<String> echo = post(port, "/tools/" + server + "_echo", "{\"message\":\"from the jar\"}");
			assertThat(echo.statusCode()).as(server).isEqualTo(200);
			assertThat(echo.body()).as(server).isEqualTo("[{\"text\":\"from the jar\"}]");
		}
		HttpResponse<String> httpDemo = post(port, "/tools/modern-http_pid", "{}");
		assertThat(children).extracting(ProcessHandle::pid)
			.as("the HTTP demo server is a child of the application")
			.contains(JsonMapper.shared().readTree(httpDemo.body()).path(0).path("text").asLong());

		application.destroy();
		await().atMost(Duration.ofMinutes(1)).until(() -> !application.isAlive());
		// The supervisor stops its servers before the application exits, so no child
		// outlives it (not even one that would exit later on the end of its stdin)
		assertThat(children).noneMatch(ProcessHandle::isAlive);
	}

	@AfterEach
	void destroyWhatIsLeft() {
		if (this.application != null) {
			this.application.descendants().forEach(this.started::add);
		}
		this.started.forEach(ProcessHandle::destroyForcibly);
		await().atMost(Duration.ofMinutes(1)).until(() -> this.started.stream().noneMatch(ProcessHandle::isAlive));
	}

	private static @Nullable Integer port(Path log) throws IOException {
		Matcher matcher = STARTED_ON_PORT.matcher(Files.readString(log));
		return matcher.find() ? Integer.valueOf(matcher.group(1)) : null;
	}

	private JsonNode get(int port, String path) throws Exception {
		HttpResponse<String> response = this.http.send(HttpRequest.newBuilder(uri(port, path)).timeout(TIMEOUT).build(),
				HttpResponse.BodyHandlers.ofString());
		return JsonMapper.shared().readTree(response.body());
	}

	private HttpResponse<String> post(int port, String path, String json) throws Exception {
		return this.http.send(HttpRequest.newBuilder(uri(port, path))
			.timeout(TIMEOUT)
			.header("Content-Type", "application/json")
			.POST(HttpRequest.BodyPublishers.ofString(json))
			.build(), HttpResponse.BodyHandlers.ofString());
	}

	private static URI uri(int port, String path) {
		return URI.create("http://127.0.0.1:" + port + path);
	}

}
