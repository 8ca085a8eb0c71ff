package io.github.mcpsupervisor.demo.oauth;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import io.github.mcpsupervisor.demo.oauth.ProtectedDemoMcpServer.Received;
import io.modelcontextprotocol.client.McpClient;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.client.transport.HttpClientStreamableHttpTransport;
import io.modelcontextprotocol.modern.client.transport.HttpClientMcpTransport;
import io.modelcontextprotocol.modern.client.transport.McpHttpRequestCustomizer;
import io.modelcontextprotocol.modern.client.transport.McpHttpStatusException;
import io.modelcontextprotocol.spec.McpSchema;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatException;
import static org.assertj.core.api.Assertions.tuple;

/**
 * Tests for {@link ProtectedDemoMcpServer}: the subject of each request, anonymous
 * listing and sessions bound to a subject.
 */
class ProtectedDemoMcpServerTests {

	private static final String INITIALIZE = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":"
			+ "{\"protocolVersion\":\"2025-11-25\",\"capabilities\":{},\"clientInfo\":{\"name\":\"test\",\"version\":\"1\"}}}";

	private static final String INITIALIZED = "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}";

	private static final String LIST_TOOLS = "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/list\"}";

	private static final String WHOAMI = "{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"tools/call\",\"params\":"
			+ "{\"name\":\"whoami\",\"arguments\":{}}}";

	private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

	private static DemoAuthorizationServer authorizationServer;

	private static ProtectedDemoMcpServer server;

	// by user, then by endpoint
	private static Map<String, Map<String, String>> tokens;

	@BeforeAll
	static void start() throws Exception {
		authorizationServer = new DemoAuthorizationServer(Duration.ofMinutes(10));
		try {
			server = new ProtectedDemoMcpServer(authorizationServer);
			tokens = Map.of("ada", tokens(DemoAuthorizationServer.USER, DemoAuthorizationServer.PASSWORD), "grace",
					tokens(DemoAuthorizationServer.SECOND_USER, DemoAuthorizationServer.SECOND_PASSWORD));
		}
		catch (Exception ex) {
			stop();
			throw ex;
		}
	}

	private static Map<String, String> tokens(String user, String password) throws Exception {
		return Map.of(ProtectedDemoMcpServer.MODERN,
				OAuthFlow.authorize(authorizationServer, user, password, server.url(ProtectedDemoMcpServer.MODERN))
					.access(),
				ProtectedDemoMcpServer.LEGACY,
				OAuthFlow.authorize(authorizationServer, user, password, server.url(ProtectedDemoMcpServer.LEGACY))
					.access());
	}

	@AfterAll
	static void stop() throws Exception {
		try {
			if (server != null) {
				server.close();
			}
		}
		finally {
			authorizationServer.close();
		}
	}

	@AfterEach
	void resetOptions() {
		server.allowAnonymous(false);
		server.bindSessionsToSubject(false);
	}

	@Test
	void eachUserIsAnsweredTheirOwnSubjectOnBothEndpoints() throws Exception {
		int before = server.received().size();
		for (String user : List.of("ada", "grace")) {
			assertThat(modernWhoami(modernClient(token(user, ProtectedDemoMcpServer.MODERN))))
				.isEqualTo("subject: " + user);
			try (Legacy legacy = legacyClient(token(user, ProtectedDemoMcpServer.LEGACY))) {
				assertThat(legacyWhoami(legacy.client())).isEqualTo("subject: " + user);
			}
		}
		assertThat(since(before))
			.filteredOn((received) -> "tools/call".equals(received.method()) && received.status() == 0)
			.extracting(Received::path, Received::subject)
			.containsExactly(tuple(ProtectedDemoMcpServer.MODERN, "ada"), tuple(ProtectedDemoMcpServer.LEGACY, "ada"),
					tuple(ProtectedDemoMcpServer.MODERN, "grace"), tuple(ProtectedDemoMcpServer.LEGACY, "grace"));
		assertThat(since(before)).extracting(Received::subject).doesNotContainNull();
	}

	@Test
	void aServiceIsAnsweredItsClientId() throws Exception {
		String token = OAuthFlow.serviceToken(authorizationServer, server.url(ProtectedDemoMcpServer.MODERN));
		assertThat(modernWhoami(modernClient(token))).isEqualTo("subject: " + DemoAuthorizationServer.SERVICE_CLIENT);
	}

	@Test
	void concurrentUsersAreEachAnsweredTheirOwnSubject() throws Exception {
		ExecutorService executor = Executors.newFixedThreadPool(8);
		Map<String, io.modelcontextprotocol.modern.client.McpSyncClient> modern = Map.of("ada",
				modernClient(token("ada", ProtectedDemoMcpServer.MODERN)), "grace",
				modernClient(token("grace", ProtectedDemoMcpServer.MODERN)));
		try (Legacy ada = legacyClient(token("ada", ProtectedDemoMcpServer.LEGACY));
				Legacy grace = legacyClient(token("grace", ProtectedDemoMcpServer.LEGACY))) {
			List<Callable<String>> calls = new ArrayList<>();
			List<String> expected = new ArrayList<>();
			for (int i = 0; i < 20; i++) {
				String user = (i % 2 == 0) ? "ada" : "grace";
				McpSyncClient legacy = (i % 2 == 0) ? ada.client() : grace.client();
				calls.add(() -> modernWhoami(modern.get(user)));
				calls.add(() -> legacyWhoami(legacy));
				expected.add("subject: " + user);
				expected.add("subject: " + user);
			}
			List<String> answers = new ArrayList<>();
			for (Future<String> answer : executor.invokeAll(calls)) {
				answers.add(answer.get(30, TimeUnit.SECONDS));
			}
			assertThat(answers).isEqualTo(expected);
		}
		finally {
			executor.shutdownNow();
		}
	}

	@Test
	void aSessionBoundToOneSubjectIsNotFoundForAnother() throws Exception {
		server.bindSessionsToSubject(true);
		int before = server.received().size();
		int refusedBefore = server.sessionsRefusedToOtherSubjects();
		String ada = token("ada", ProtectedDemoMcpServer.LEGACY);
		String grace = token("grace", ProtectedDemoMcpServer.LEGACY);
		String session = initialize(ada);
		HttpResponse<String> refused = post(grace, session, LIST_TOOLS);
		HttpResponse<String> unknown = post(grace, "no-such-session", LIST_TOOLS);
		assertThat(refused.statusCode()).isEqualTo(404);
		assertThat(unknown.statusCode()).as("the SDK's own answer").isEqualTo(404);
		// the SDK writes the whole McpError, its stack trace too: the same but for that
		for (String field : List.of("jsonRpcError", "message")) {
			assertThat(OAuthFlow.json(refused.body()).get(field))
				.isEqualTo(OAuthFlow.json(unknown.body().replace("no-such-session", session)).get(field));
		}
		assertThat(refused.headers().firstValue("Content-Type"))
			.isEqualTo(unknown.headers().firstValue("Content-Type"));
		assertThat(post(grace, session, WHOAMI).statusCode()).isEqualTo(404);
		HttpResponse<String> listening = HTTP.send(legacy(grace, session).GET().build(),
				HttpResponse.BodyHandlers.ofString());
		assertThat(listening.statusCode()).isEqualTo(404);
		HttpResponse<String> deleted = HTTP.send(legacy(grace, session).DELETE().build(),
				HttpResponse.BodyHandlers.ofString());
		assertThat(deleted.statusCode()).isEqualTo(404);
		assertThat(server.sessionsRefusedToOtherSubjects()).isEqualTo(refusedBefore + 4);
		assertThat(since(before)).filteredOn((received) -> received.status() == 404)
			.extracting(Received::subject)
			.containsOnly("grace");
		HttpResponse<String> owner = post(ada, session, WHOAMI);
		assertThat(owner.statusCode()).isEqualTo(200);
		assertThat(owner.body()).contains("subject: ada");
	}

	@Test
	void sessionsAreNotBoundUnlessAsked() throws Exception {
		String session = initialize(token("ada", ProtectedDemoMcpServer.LEGACY));
		HttpResponse<String> other = post(token("grace", ProtectedDemoMcpServer.LEGACY), session, WHOAMI);
		assertThat(other.statusCode()).isEqualTo(200);
		assertThat(other.body()).as("each request's own subject").contains("subject: grace");
	}

	@Test
	void anonymousRequestsListButDoNotCall() throws Exception {
		server.allowAnonymous(true);
		int before = server.received().size();
		io.modelcontextprotocol.modern.client.McpSyncClient modern = modernClient(null);
		assertThat(modern.listTools().skipCache().list().tools()).extracting((tool) -> tool.name())
			.contains("echo", "whoami");
		assertThatException().isThrownBy(() -> modern.tool("whoami").arguments(Map.of()).call())
			.satisfies((ex) -> assertThat(ex).isInstanceOf(McpHttpStatusException.class)
				.extracting((status) -> ((McpHttpStatusException) status).statusCode())
				.isEqualTo(401));
		try (Legacy legacy = legacyClient(null)) {
			assertThat(legacy.client().listTools().tools()).extracting(McpSchema.Tool::name).contains("echo", "whoami");
		}
		String session = initialize(null);
		HttpResponse<String> call = post(null, session, WHOAMI);
		assertThat(call.statusCode()).isEqualTo(401);
		assertThat(call.headers().firstValue("WWW-Authenticate")).hasValue("Bearer resource_metadata=\""
				+ server.url("/.well-known/oauth-protected-resource" + ProtectedDemoMcpServer.LEGACY) + "\"");
		assertThat(post(null, session, LIST_TOOLS).statusCode()).isEqualTo(200);
		assertThat(since(before)).isNotEmpty()
			.allSatisfy((received) -> assertThat(received.subject()).isNull())
			.allSatisfy((received) -> assertThat(received.status())
				.isEqualTo("tools/call".equals(received.method()) ? 401 : 0));
	}

	@Test
	void anonymousRequestsAreRefusedUnlessAllowed() throws Exception {
		HttpResponse<String> refused = HTTP.send(
				legacy(null, null).POST(HttpRequest.BodyPublishers.ofString(INITIALIZE)).build(),
				HttpResponse.BodyHandlers.ofString());
		assertThat(refused.statusCode()).isEqualTo(401);
		assertThat(refused.headers().firstValue("WWW-Authenticate"))
			.hasValueSatisfying((challenge) -> assertThat(challenge).startsWith("Bearer resource_metadata="));
	}

	private static List<Received> since(int before) {
		List<Received> received = server.received();
		return received.subList(before, received.size());
	}

	private static String token(String user, String endpoint) {
		return tokens.get(user).get(endpoint);
	}

	private static io.modelcontextprotocol.modern.client.McpSyncClient modernClient(@Nullable String token) {
		HttpClientMcpTransport.Builder transport = HttpClientMcpTransport
			.builder(server.url(ProtectedDemoMcpServer.MODERN));
		if (token != null) {
			transport.requestCustomizer(McpHttpRequestCustomizer
				.fromSync((request, headers, context) -> headers.set("Authorization", "Bearer " + token)));
		}
		return io.modelcontextprotocol.modern.client.McpClient.sync(transport.build())
			.callTimeout(Duration.ofSeconds(10))
			.build();
	}

	private static String modernWhoami(io.modelcontextprotocol.modern.client.McpSyncClient client) {
		io.modelcontextprotocol.modern.McpSchema.CallToolResult result = client.tool("whoami")
			.arguments(Map.of())
			.call();
		return ((io.modelcontextprotocol.modern.McpSchema.TextContent) result.content().get(0)).text();
	}

	private static Legacy legacyClient(@Nullable String token) {
		HttpClientStreamableHttpTransport.Builder transport = HttpClientStreamableHttpTransport.builder(server.url(""))
			.endpoint(ProtectedDemoMcpServer.LEGACY);
		if (token != null) {
			transport.addHttpRequestCustomizer(
					(request, method, uri, body, context) -> request.header("Authorization", "Bearer " + token));
		}
		McpSyncClient client = McpClient.sync(transport.build()).requestTimeout(Duration.ofSeconds(10)).build();
		client.initialize();
		return new Legacy(client);
	}

	private static String legacyWhoami(McpSyncClient client) {
		McpSchema.CallToolResult result = client
			.callTool(McpSchema.CallToolRequest.builder("whoami").arguments(Map.of()).build());
		return ((McpSchema.TextContent) result.content().get(0)).text();
	}

	// initializes a session on the legacy endpoint over HTTP, and returns its id
	private static String initialize(@Nullable String token) throws Exception {
		HttpResponse<String> initialized = HTTP.send(
				legacy(token, null).POST(HttpRequest.BodyPublishers.ofString(INITIALIZE)).build(),
				HttpResponse.BodyHandlers.ofString());
		assertThat(initialized.statusCode()).as(initialized.body()).isEqualTo(200);
		String session = initialized.headers().firstValue("Mcp-Session-Id").orElseThrow();
		assertThat(post(token, session, INITIALIZED).statusCode()).isEqualTo(202);
		return session;
	}

	private static HttpResponse<String> post(@Nullable String token, String session, String message) throws Exception {
		return HTTP.send(legacy(token, session).POST(HttpRequest.BodyPublishers.ofString(message)).build(),
				HttpResponse.BodyHandlers.ofString());
	}

	private static HttpRequest.Builder legacy(@Nullable String token, @Nullable String session) {
		HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(server.url(ProtectedDemoMcpServer.LEGACY)))
			.timeout(Duration.ofSeconds(10))
			.header("Content-Type", "application/json")
			.header("Accept", "application/json, text/event-stream");
		if (token != null) {
			request.header("Authorization", "Bearer " + token);
		}
		if (session != null) {
			request.header("Mcp-Session-Id", session).header("MCP-Protocol-Version", "2025-11-25");
		}
		return request;
	}

	/**
	 * A 2025-11-25 client closed gracefully: its session's DELETE has reached the server
	 * once it is closed, so that no test sees a request of the test before it.
	 */
	private record Legacy(McpSyncClient client) implements AutoCloseable {

		@Override
		public void close() {
			this.client.closeGracefully();
		}

	}

}
