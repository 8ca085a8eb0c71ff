package io.github.mcpsupervisor.sample;

import java.io.IOException;
import java.net.ConnectException;
import java.net.Socket;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.DriverManager;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.Collectors;

import io.github.mcpsupervisor.authorization.McpAuthorizationRequiredEvent;
import io.github.mcpsupervisor.demo.oauth.DemoAuthorizationServer;
import io.github.mcpsupervisor.supervisor.McpServerState;
import io.github.mcpsupervisor.supervisor.McpSupervisors;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ApplicationListener;
import org.springframework.context.ConfigurableApplicationContext;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

/**
 * Two instances of the sample in its {@code replicas} profile, as docs/sample.md runs
 * them, on one database: the first starts the demo OAuth servers, the second finds them;
 * both show the one request for a person; the authorization server's redirect, sent to
 * the instance that did not make the request (as a load balancer may), authorizes both;
 * an instance restarted asks no one; and nothing of theirs is left running.
 */
class ReplicasProfileIT {

	private static final Log logger = LogFactory.getLog(ReplicasProfileIT.class);

	private static final String SERVER = "protected";

	private static final Duration PATIENCE = Duration.ofMinutes(2);

	private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();

	private final String database = "jdbc:h2:mem:sample-replicas-" + UUID.randomUUID();

	private final Set<ProcessHandle> childrenBefore = children();

	private final List<ConfigurableApplicationContext> contexts = new ArrayList<>();

	@Test
	void oneAuthorizationThroughEitherInstanceServesBothAndARestart() throws Exception {
		Asked askedA = new Asked();
		// free ports for the demo OAuth servers: the first instance starts its own there
		ConfigurableApplicationContext a = start(askedA, 0, 0);
		int authorizationServerPort = port(a, DemoOAuthServers.AUTHORIZATION_SERVER_PORT_PROPERTY);
		int protectedServerPort = port(a, DemoOAuthServers.PROTECTED_SERVER_PORT_PROPERTY);
		DemoAuthorizationServer authorizationServer = a.getBean(DemoOAuthServers.Running.class).authorizationServer();
		Asked askedB = new Asked();
		ConfigurableApplicationContext b = start(askedB, authorizationServerPort, protectedServerPort);
		assertThat(b.getBeanProvider(DemoOAuthServers.Running.class).getIfAvailable())
			.as("the second instance uses the first one's demo OAuth servers")
			.isNull();
		assertThat(port(b, DemoOAuthServers.AUTHORIZATION_SERVER_PORT_PROPERTY)).isEqualTo(authorizationServerPort);

		await().atMost(PATIENCE)
			.untilAsserted(() -> assertThat(List.of(state(a), state(b))).as("both wait for a person")
				.containsOnly(McpServerState.NEEDS_AUTHORIZATION));
		JsonNode pendingA = get(a, "/authorizations");
		JsonNode pendingB = get(b, "/authorizations");
		assertThat(pendingA.size()).as("one request on the first instance: %s", pendingA).isOne();
		assertThat(pendingB).as("the same request on the second").isEqualTo(pendingA);
		// published once the request is made, on the supervisor's threads
		await().atMost(PATIENCE).until(() -> askedA.requests.size() + askedB.requests.size() > 0);
		assertThat(askedA.requests.size() + askedB.requests.size()).as("one person asked, by one instance").isOne();
		URI authorizationUri = URI.create(pendingA.path(0).path("authorizationUri").asString());

		// the person logs in; the redirect reaches the instance that did not ask
		Map<String, String> redirect = authorizationServer.authorize(authorizationUri);
		ConfigurableApplicationContext other = askedA.requests.isEmpty() ? a : b;
		long completed = System.nanoTime();
		HttpResponse<String> authorized = send(other, "/authorized/mcp?" + query(redirect), null);
		assertThat(authorized.statusCode()).as(authorized.body()).isEqualTo(200);
		assertThat(authorized.body()).contains("'protected' is authorized");
		await().atMost(PATIENCE)
			.pollInterval(Duration.ofMillis(50))
			.untilAsserted(() -> assertThat(List.of(state(a), state(b))).containsOnly(McpServerState.UP));
		logger.info("Both instances UP " + Duration.ofNanos(System.nanoTime() - completed).toMillis()
				+ " ms after the completion on the one that did not ask");
		assertThat(get(a, "/authorizations").size()).isZero();
		assertThat(get(b, "/authorizations").size()).isZero();
		assertThat(echo(a, "to the first")).isEqualTo("[{\"text\":\"echo: to the first\"}]");
		assertThat(echo(b, "to the second")).isEqualTo("[{\"text\":\"echo: to the second\"}]");
		JsonNode health = get(b, "/actuator/health").at("/components/mcp/components/protected/details");
		assertThat(health.path("state").asString()).isEqualTo("UP");
		assertThat(health.at("/oauth/store").asString()).isEqualTo("jdbc");

		// the second instance restarts: it asks no one
		close(b);
		Asked askedAgain = new Asked();
		ConfigurableApplicationContext restarted = start(askedAgain, authorizationServerPort, protectedServerPort);
		await().atMost(PATIENCE).until(() -> state(restarted), McpServerState.UP::equals);
		assertThat(echo(restarted, "after a restart")).isEqualTo("[{\"text\":\"echo: after a restart\"}]");
		assertThat(askedA.requests.size() + askedB.requests.size() + askedAgain.requests.size())
			.as("one person asked once")
			.isOne();
		assertThat(authorizationServer.tokensIssued("authorization_code")).as("one code exchanged").isOne();
		assertThat(authorizationServer.refreshTokenReuses()).isZero();

		// the demo OAuth servers stop with the instance that started them
		close(restarted);
		close(a);
		for (int port : List.of(authorizationServerPort, protectedServerPort)) {
			assertThatExceptionOfType(ConnectException.class).as("port %d", port)
				.isThrownBy(() -> new Socket("127.0.0.1", port).close());
		}
	}

	@AfterEach
	void closeWhatIsLeft() throws Exception {
		new ArrayList<>(this.contexts).forEach(this::close);
		// the child processes of the instances (the demo MCP servers) ended with them
		await().atMost(Duration.ofMinutes(1))
			.untilAsserted(
					() -> assertThat(children()).as("child processes left").allMatch(this.childrenBefore::contains));
		try (Connection connection = DriverManager.getConnection(this.database, "sa", "")) {
			connection.createStatement().execute("SHUTDOWN");
		}
	}

	// An instance as docs/sample.md starts it, on free ports: the redirect URI is the
	// fleet's one public address (the test stands in for the load balancer behind it)
	private ConfigurableApplicationContext start(Asked asked, int authorizationServerPort, int protectedServerPort) {
		ConfigurableApplicationContext context = new SpringApplicationBuilder(SampleApplication.class)
			.profiles("replicas")
			.listeners(asked)
			.run("--server.port=0", "--sample.oauth-demo.authorization-server-port=" + authorizationServerPort,
					"--sample.oauth-demo.protected-server-port=" + protectedServerPort,
					"--spring.datasource.url=" + this.database + ";DB_CLOSE_DELAY=-1",
					"--mcp.servers.protected.oauth.redirect-uri=" + DemoAuthorizationServer.REDIRECT_URI);
		this.contexts.add(context);
		return context;
	}

	private void close(ConfigurableApplicationContext context) {
		this.contexts.remove(context);
		context.close();
	}

	private static int port(ConfigurableApplicationContext context, String property) {
		return context.getEnvironment().getRequiredProperty(property, Integer.class);
	}

	private static McpServerState state(ConfigurableApplicationContext context) {
		return context.getBean(McpSupervisors.class).supervisor(SERVER).state();
	}

	private String echo(ConfigurableApplicationContext context, String message) throws Exception {
		HttpResponse<String> response = send(context, "/tools/protected_echo",
				JsonMapper.shared().writeValueAsString(Map.of("message", message)));
		assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
		return response.body();
	}

	private JsonNode get(ConfigurableApplicationContext context, String path) throws Exception {
		HttpResponse<String> response = send(context, path, null);
		assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
		return JsonMapper.shared().readTree(response.body());
	}

	private HttpResponse<String> send(ConfigurableApplicationContext context, String path, @Nullable String json)
			throws IOException, InterruptedException {
		URI uri = URI.create("http://127.0.0.1:" + port(context, "local.server.port") + path);
		HttpRequest.Builder request = HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(30));
		if (json != null) {
			request.header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(json));
		}
		return this.http.send(request.build(), HttpResponse.BodyHandlers.ofString());
	}

	private static String query(Map<String, String> parameters) {
		return parameters.entrySet()
			.stream()
			.map((entry) -> encode(entry.getKey()) + "=" + encode(entry.getValue()))
			.collect(Collectors.joining("&"));
	}

	private static String encode(String value) {
		return URLEncoder.encode(value, StandardCharsets.UTF_8);
	}

	private static Set<ProcessHandle> children() {
		return ProcessHandle.current().descendants().filter(ProcessHandle::isAlive).collect(Collectors.toSet());
	}

	/**
	 * The requests for a person that one instance published.
	 */
	private static final class Asked implements ApplicationListener<McpAuthorizationRequiredEvent> {

		private final List<McpAuthorizationRequiredEvent> requests = new CopyOnWriteArrayList<>();

		@Override
		public void onApplicationEvent(McpAuthorizationRequiredEvent event) {
			this.requests.add(event);
		}

	}

}
