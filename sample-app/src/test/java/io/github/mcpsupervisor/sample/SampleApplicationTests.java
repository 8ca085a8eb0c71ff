package io.github.mcpsupervisor.sample;

import java.net.InetAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.core.env.Environment;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The walkthrough of the README against the running sample: its three servers up, list
 * the tools, call them, crash the demo server and see it recover.
 */
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT)
class SampleApplicationTests {

	private final HttpClient http = HttpClient.newHttpClient();

	@Value("${local.server.port}")
	private int port;

	@Test
	void theSampleListensOnTheLoopbackInterfaceOnly(@Autowired Environment environment) throws Exception {
		String address = environment.getProperty("server.address");
		assertThat(address).as("server.address").isNotNull();
		assertThat(InetAddress.getByName(address).isLoopbackAddress()).as("%s is a loopback address", address).isTrue();
	}

	@Test
	void aBodilessPostWithoutContentTypeRunsATool() throws Exception {
		// what any web page can send cross-site without a CORS preflight: why the sample
		// listens on loopback only
		HttpResponse<String> response = this.http.send(
				HttpRequest.newBuilder(uri("/tools/demo_pid")).POST(HttpRequest.BodyPublishers.noBody()).build(),
				HttpResponse.BodyHandlers.ofString());
		assertThat(response.statusCode()).isEqualTo(200);
	}

	@Test
	void toolsAreListedWithTheServersState() throws Exception {
		HttpResponse<String> tools = get("/tools");
		assertThat(tools.statusCode()).isEqualTo(200);
		assertThat(tools.body()).contains("\"name\":\"demo_echo\"", "\"name\":\"demo_add\"", "\"name\":\"demo_crash\"")
			.contains("\"state\":\"UP\"");
	}

	@Test
	void aToolIsCalledWithJsonArguments() throws Exception {
		HttpResponse<String> sum = post("/tools/demo_add", "{\"a\":2,\"b\":40}");
		assertThat(sum.statusCode()).isEqualTo(200);
		assertThat(sum.body()).isEqualTo("[{\"text\":\"42\"}]");
	}

	@Test
	void theRedirectEndpointRefusesAnAnswerNoServerAwaits() throws Exception {
		assertThat(get("/authorizations").body()).isEqualTo("[]");
		HttpResponse<String> forged = get("/authorized/mcp?state=forged&code=stolen");
		assertThat(forged.statusCode()).isEqualTo(400);
		assertThat(forged.body()).contains("no MCP server awaits an authorization with this state")
			.doesNotContain("stolen");
	}

	@Test
	void badRequestsAreAnsweredClearly() throws Exception {
		assertThat(post("/tools/demo_nope", "{}").statusCode()).isEqualTo(404);
		HttpResponse<String> notJson = post("/tools/demo_add", "[1,2]");
		assertThat(notJson.statusCode()).isEqualTo(400);
		assertThat(notJson.body()).contains("must be a JSON object");
	}

	@Test
	void afterACrashTheDemoServerRecoversAndServesCallsAgain() throws Exception {
		int generation = generation();
		assertThat(post("/tools/demo_crash", "{}").body()).contains("crashing with exit code 3");
		await().atMost(Duration.ofSeconds(60)).until(() -> generation() > generation);
		await().atMost(Duration.ofSeconds(60))
			.until(() -> post("/tools/demo_echo", "{\"message\":\"back\"}").statusCode() == 200);
		assertThat(post("/tools/demo_echo", "{\"message\":\"back\"}").body()).isEqualTo("[{\"text\":\"back\"}]");
		assertThat(get("/tools").body()).contains("\"state\":\"UP\"");
	}

	@Test
	void healthShowsTheDemoServer() throws Exception {
		HttpResponse<String> health = get("/actuator/health");
		assertThat(health.statusCode()).isEqualTo(200);
		assertThat(health.body()).contains("\"status\":\"UP\"").contains("\"mcp\"").contains("\"demo\"");
		assertThat(get("/actuator/health/readiness").body()).contains("\"mcp\"");
		assertThat(get("/actuator/health/mcp/demo").body()).contains("\"state\"").contains("\"required\":true");
	}

	@Test
	void healthShowsTheThreeServersUpEachInItsRevision() throws Exception {
		await().atMost(Duration.ofSeconds(60)).untilAsserted(() -> {
			JsonNode servers = JsonMapper.shared()
				.readTree(get("/actuator/health").body())
				.at("/components/mcp/components");
			assertThat(servers.at("/demo/details/state").asString("")).isEqualTo("UP");
			assertThat(servers.at("/modern/details/state").asString("")).isEqualTo("UP");
			assertThat(servers.at("/modern-http/details/state").asString("")).isEqualTo("UP");
		});
		JsonNode servers = JsonMapper.shared()
			.readTree(get("/actuator/health").body())
			.at("/components/mcp/components");
		assertThat(servers.at("/demo/details/protocol").asString("")).isEqualTo("2025-11-25");
		assertThat(servers.at("/modern/details/protocol").asString("")).isEqualTo("2026-07-28");
		assertThat(servers.at("/modern-http/details/protocol").asString("")).isEqualTo("2026-07-28");
	}

	@ParameterizedTest
	@ValueSource(strings = { "demo", "modern", "modern-http" })
	void aToolOfEachServerIsCalled(String server) throws Exception {
		await().atMost(Duration.ofSeconds(60))
			.until(() -> get("/actuator/mcp/" + server).body().contains("\"state\":\"UP\""));
		HttpResponse<String> echo = post("/tools/" + server + "_echo", "{\"message\":\"hello " + server + "\"}");
		assertThat(echo.statusCode()).isEqualTo(200);
		assertThat(echo.body()).isEqualTo("[{\"text\":\"hello " + server + "\"}]");
	}

	@Test
	void theReadmeWalkthroughCrashesWatchesAndResets() throws Exception {
		assertThat(get("/actuator/mcp").body()).contains("\"demo\"");
		assertThat(get("/actuator/mcp/demo").body()).contains("\"DEMO_API_TOKEN\":\"******\"");
		int generation = generation();
		post("/tools/demo_crash", "{}");
		await().atMost(Duration.ofSeconds(60)).until(() -> generation() > generation);
		HttpResponse<String> reset = post("/actuator/mcp/demo/reset", "");
		assertThat(reset.statusCode()).isEqualTo(200);
		assertThat(reset.body()).contains("\"action\":\"reset\"");
		awaitUp();
	}

	@BeforeEach
	void awaitUp() {
		await().atMost(Duration.ofSeconds(60))
			.until(() -> get("/actuator/mcp/demo").body().contains("\"state\":\"UP\""));
	}

	private int generation() throws Exception {
		String body = get("/actuator/mcp/demo").body();
		Matcher matcher = Pattern.compile("\"generation\":(\\d+)").matcher(body);
		assertThat(matcher.find()).isTrue();
		return Integer.parseInt(matcher.group(1));
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
