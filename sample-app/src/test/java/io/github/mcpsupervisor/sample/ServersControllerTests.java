package io.github.mcpsupervisor.sample;

import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The demo server's resources and prompts over HTTP, against the running sample: listed,
 * read and got; the problems of requests they cannot answer; and a subscription that
 * outlives a crash of the server.
 */
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT)
class ServersControllerTests {

	private static final Duration PATIENCE = Duration.ofSeconds(60);

	private final HttpClient http = HttpClient.newHttpClient();

	@Value("${local.server.port}")
	private int port;

	@BeforeEach
	void awaitUp() {
		await().atMost(PATIENCE).until(() -> get("/actuator/mcp/demo").body().contains("\"state\":\"UP\""));
	}

	@Test
	void resourcesAndTemplatesAreListed() throws Exception {
		JsonNode listed = json(get("/servers/demo/resources"), 200);
		assertThat(listed.path("resources").valueStream().map((resource) -> resource.path("uri").asString()))
			.containsExactlyInAnyOrder("demo://readme", "demo://reads");
		assertThat(listed.at("/resourceTemplates/0/uriTemplate").asString()).isEqualTo("demo://greetings/{name}");
		assertThat(listed.path("resourceTemplates").size()).isEqualTo(1);
	}

	@Test
	void aResourceIsRead() throws Exception {
		JsonNode readme = json(get(resource("demo://readme")), 200);
		assertThat(readme.at("/contents/0/uri").asString()).isEqualTo("demo://readme");
		assertThat(readme.at("/contents/0/mimeType").asString()).isEqualTo("text/plain");
		assertThat(readme.at("/contents/0/text").asString()).startsWith("The demo MCP server of mcp-supervisor");
		JsonNode greeting = json(get(resource("demo://greetings/Ada")), 200);
		assertThat(greeting.at("/contents/0/uri").asString()).isEqualTo("demo://greetings/Ada");
		assertThat(greeting.at("/contents/0/text").asString()).isEqualTo("Hello, Ada!");
	}

	@Test
	void promptsAreListedWithTheirArguments() throws Exception {
		JsonNode prompts = json(get("/servers/demo/prompts"), 200).path("prompts");
		assertThat(prompts.valueStream().map((prompt) -> prompt.path("name").asString()))
			.containsExactlyInAnyOrder("about", "greet");
		JsonNode greet = prompts.valueStream()
			.filter((prompt) -> prompt.path("name").asString().equals("greet"))
			.findFirst()
			.orElseThrow();
		assertThat(greet.at("/arguments/0/name").asString()).isEqualTo("name");
		assertThat(greet.at("/arguments/0/required").asBoolean()).isTrue();
		assertThat(greet.at("/arguments/1/required").asBoolean()).isFalse();
	}

	@Test
	void aPromptIsGotWithJsonArguments() throws Exception {
		JsonNode prompt = json(post("/servers/demo/prompts/greet", "{\"name\":\"Ada\",\"style\":\"formal\"}"), 200);
		assertThat(prompt.path("description").asString()).isEqualTo("A formal greeting");
		assertThat(prompt.at("/messages/0/role").asString()).isEqualTo("user");
		assertThat(prompt.at("/messages/0/content/type").asString()).isEqualTo("text");
		assertThat(prompt.at("/messages/0/content/text").asString()).isEqualTo("Write a formal greeting for Ada.");
	}

	@Test
	void aPromptWithoutArgumentsIsGotWithoutABody() throws Exception {
		HttpResponse<String> response = this.http.send(HttpRequest.newBuilder(uri("/servers/demo/prompts/about"))
			.POST(HttpRequest.BodyPublishers.noBody())
			.build(), HttpResponse.BodyHandlers.ofString());
		assertThat(json(response, 200).at("/messages/0/content/text").asString())
			.startsWith("Introduce the mcp-supervisor demo MCP server");
	}

	@Test
	void anUnknownServerIsNotFoundAndTheServersAreNamed() throws Exception {
		assertThat(problem(get("/servers/nope/resources"), 404))
			.isEqualTo("No MCP server named 'nope'; servers: [demo, modern, modern-http]");
		assertThat(problem(get("/servers/nope/prompts"), 404)).contains("servers: [demo, modern, modern-http]");
		assertThat(problem(post("/servers/nope/prompts/greet", "{}"), 404))
			.contains("servers: [demo, modern, modern-http]");
	}

	@Test
	void anUnknownResourceIsNotFound() throws Exception {
		HttpResponse<String> response = get(resource("demo://nope"));
		assertThat(problem(response, 404)).isEqualTo("Resource not found");
		JsonNode body = JsonMapper.shared().readTree(response.body());
		assertThat(body.path("code").asInt()).isEqualTo(-32002);
		assertThat(body.at("/data/uri").asString()).isEqualTo("demo://nope");
	}

	@Test
	void promptsTheServerRejectsAreUnprocessable() throws Exception {
		HttpResponse<String> unknown = post("/servers/demo/prompts/nope", "{}");
		assertThat(problem(unknown, 422)).isEqualTo("Invalid prompt name");
		assertThat(JsonMapper.shared().readTree(unknown.body()).path("data").asString())
			.isEqualTo("Prompt not found: nope");
		assertThat(problem(post("/servers/demo/prompts/greet", "{}"), 422))
			.isEqualTo("Prompt 'greet' needs the argument 'name'");
	}

	@Test
	void badRequestsAreAnsweredClearly() throws Exception {
		assertThat(problem(post("/servers/demo/prompts/greet", "[\"Ada\"]"), 400))
			.isEqualTo("The request body must be a JSON object of the prompt's arguments");
		assertThat(problem(post("/servers/demo/prompts/greet", "{\"name\":"), 400)).contains("JSON object");
		assertThat(problem(get("/servers/demo/resource"), 400)).contains("'uri' must name a resource");
	}

	@Test
	void aSubscriptionOutlivesACrashOfTheServer() throws Exception {
		JsonNode subscribed = json(send("POST", subscriptions("demo://reads")), 200);
		assertThat(subscribed.path("subscriptions").valueStream().map(JsonNode::asString))
			.containsExactly("demo://reads");
		// each read of another resource updates the count, and the server says so
		get(resource("demo://readme"));
		get(resource("demo://readme"));
		await().atMost(PATIENCE).until(() -> latestReads() >= 2);

		int generation = generation();
		post("/tools/demo_crash", "{}");
		await().atMost(PATIENCE).until(() -> generation() > generation);
		awaitUp();
		// the new process counts from 0: its update comes from the subscription it was
		// given again
		json(get(resource("demo://readme")), 200);
		await().atMost(PATIENCE).until(() -> latestReads() == 1);

		JsonNode unsubscribed = json(send("DELETE", subscriptions("demo://reads")), 200);
		assertThat(unsubscribed.path("subscriptions").isEmpty()).isTrue();
		assertThat(unsubscribed.path("updates").isEmpty()).isTrue();
	}

	private long latestReads() throws Exception {
		JsonNode updates = json(get("/servers/demo/subscriptions"), 200).path("updates");
		assertThat(updates.valueStream().map((update) -> update.path("uri").asString())).containsOnly("demo://reads");
		return updates.isEmpty() ? 0 : Long.parseLong(updates.at("/0/text").asString());
	}

	private int generation() throws Exception {
		return JsonMapper.shared().readTree(get("/actuator/mcp/demo").body()).path("generation").asInt();
	}

	private static String resource(String uri) {
		return "/servers/demo/resource?uri=" + URLEncoder.encode(uri, StandardCharsets.UTF_8);
	}

	private static String subscriptions(String uri) {
		return "/servers/demo/subscriptions?uri=" + URLEncoder.encode(uri, StandardCharsets.UTF_8);
	}

	private static JsonNode json(HttpResponse<String> response, int status) {
		assertThat(response.statusCode()).as(response.body()).isEqualTo(status);
		assertThat(response.headers().firstValue("Content-Type"))
			.hasValueSatisfying((type) -> assertThat(type).startsWith("application/json"));
		return JsonMapper.shared().readTree(response.body());
	}

	// The detail of a problem, once it is known to be one.
	private static String problem(HttpResponse<String> response, int status) {
		assertThat(response.statusCode()).as(response.body()).isEqualTo(status);
		assertThat(response.headers().firstValue("Content-Type")).hasValue("application/problem+json");
		JsonNode problem = JsonMapper.shared().readTree(response.body());
		assertThat(problem.path("status").asInt()).isEqualTo(status);
		return problem.path("detail").asString();
	}

	private HttpResponse<String> get(String path) throws Exception {
		return send("GET", path);
	}

	private HttpResponse<String> post(String path, String json) throws Exception {
		return this.http.send(HttpRequest.newBuilder(uri(path))
			.header("Content-Type", "application/json")
			.POST(HttpRequest.BodyPublishers.ofString(json))
			.build(), HttpResponse.BodyHandlers.ofString());
	}

	private HttpResponse<String> send(String method, String path) throws Exception {
		return this.http.send(
				HttpRequest.newBuilder(uri(path)).method(method, HttpRequest.BodyPublishers.noBody()).build(),
				HttpResponse.BodyHandlers.ofString());
	}

	private URI uri(String path) {
		return URI.create("http://127.0.0.1:" + this.port + path);
	}

}
