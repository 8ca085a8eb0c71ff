package io.github.mcpsupervisor.e2e.authorization;

import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.FutureTask;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

import io.github.mcpsupervisor.authorization.McpAuthorizationException;
import io.github.mcpsupervisor.authorization.McpAuthorizationRequest;
import io.github.mcpsupervisor.authorization.McpAuthorizationRequiredEvent;
import io.github.mcpsupervisor.authorization.McpServerAuthorizations;
import io.github.mcpsupervisor.authorization.McpUserAuthorizationRequiredEvent;
import io.github.mcpsupervisor.demo.oauth.DemoAuthorizationServer;
import io.github.mcpsupervisor.demo.oauth.ProtectedDemoMcpServer;
import io.github.mcpsupervisor.demo.oauth.ProtectedDemoMcpServer.Received;
import io.github.mcpsupervisor.supervisor.McpServerState;
import io.github.mcpsupervisor.supervisor.McpServerSupervisor;
import io.github.mcpsupervisor.supervisor.McpSupervisors;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import org.springframework.ai.chat.client.ChatClient;
import org.springframework.ai.chat.messages.AssistantMessage;
import org.springframework.ai.chat.messages.AssistantMessage.ToolCall;
import org.springframework.ai.chat.messages.Message;
import org.springframework.ai.chat.messages.ToolResponseMessage;
import org.springframework.ai.chat.model.ChatModel;
import org.springframework.ai.chat.model.ChatResponse;
import org.springframework.ai.chat.model.Generation;
import org.springframework.ai.chat.prompt.ChatOptions;
import org.springframework.ai.chat.prompt.Prompt;
import org.springframework.ai.model.tool.ToolCallingChatOptions;
import org.springframework.ai.model.tool.ToolCallingManager;
import org.springframework.ai.model.tool.ToolExecutionResult;
import org.springframework.ai.tool.ToolCallback;
import org.springframework.ai.tool.ToolCallbackProvider;
import org.springframework.boot.Banner;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.security.oauth2.server.authorization.autoconfigure.servlet.OAuth2AuthorizationServerAutoConfiguration;
import org.springframework.boot.security.oauth2.server.authorization.autoconfigure.servlet.OAuth2AuthorizationServerJwtAutoConfiguration;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;
import org.springframework.context.event.EventListener;
import org.springframework.http.ResponseEntity;
import org.springframework.security.config.Customizer;
import org.springframework.security.config.annotation.web.builders.HttpSecurity;
import org.springframework.security.core.userdetails.User;
import org.springframework.security.provisioning.InMemoryUserDetailsManager;
import org.springframework.security.web.SecurityFilterChain;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A server that acts for each user ({@code oauth.acts-for: user}), end to end, in both
 * revisions: a real servlet application configured as "Acting for each user" in
 * docs/authorization.md says, whose users log in with HTTP Basic and chat through a real
 * {@link ChatClient} (its model a scripted test double that asks for the server's
 * {@code whoami} tool), a real Spring Authorization Server, and an MCP server that checks
 * each request's token and answers whose it is. Each user connects their own account
 * through the application's redirect endpoint, and is then served with their own token
 * only, however the users' turns interleave; the supervisor's own requests carry the
 * application's identity; a crash of the server asks no one again; a request made for no
 * user is refused; a user who disconnects is asked again, the others are not. Over
 * 2025-11-25, a server that keeps each session for the identity that opened it fails a
 * user's call, naming why, and is not reconnected.
 */
@ExtendWith(OutputCaptureExtension.class)
class ActingForUsersIT {

	private static final Log logger = LogFactory.getLog(ActingForUsersIT.class);

	private static final Duration PATIENCE = Duration.ofSeconds(30);

	private static final String ADA = DemoAuthorizationServer.USER;

	private static final String GRACE = DemoAuthorizationServer.SECOND_USER;

	/** The passwords of the application's own users (not the authorization server's). */
	private static final Map<String, String> PASSWORDS = Map.of(ADA, "ada-at-the-app", GRACE, "grace-at-the-app");

	/** The subject of the application's own tokens: its client_credentials client. */
	private static final String SERVICE = DemoAuthorizationServer.SERVICE_CLIENT;

	private static final String NEEDS_CONNECT = "The tool said: MCP server 'drive' needs you to connect your account";

	private static @Nullable DemoAuthorizationServer authorizationServer;

	private @Nullable ProtectedDemoMcpServer protectedServer;

	private @Nullable UsersApplication application;

	@BeforeAll
	static void startAuthorizationServer() {
		authorizationServer = new DemoAuthorizationServer(Duration.ofMinutes(5));
	}

	@AfterAll
	static void stopAuthorizationServer() {
		if (authorizationServer != null) {
			authorizationServer.close();
		}
	}

	@AfterEach
	void stopApplicationAndServer() throws Exception {
		try {
			if (this.application != null) {
				this.application.close();
			}
		}
		finally {
			if (this.protectedServer != null) {
				this.protectedServer.close();
			}
		}
	}

	@ParameterizedTest
	@ValueSource(strings = { ProtectedDemoMcpServer.MODERN, ProtectedDemoMcpServer.LEGACY })
	void eachUserConnectsTheirOwnAccountAndIsServedWithTheirOwnTokenOnly(String path) throws Exception {
		this.protectedServer = new ProtectedDemoMcpServer(authorization());
		UsersApplication app = startApplication(this.protectedServer.url(path));
		McpServerSupervisor drive = app.drive();
		await().atMost(PATIENCE).until(drive::state, McpServerState.UP::equals);
		assertThat(drive.status().protocol()).isEqualTo(revision(path));
		// H2 on the class path: Spring Boot's embedded database keeps the users' requests
		// and tokens
		assertThat(app.authorizations().server("drive").orElseThrow().state().store()).isEqualTo("jdbc");
		assertThat(app.toolNames()).contains("drive_whoami");
		timed(path, "1. both users chat before connecting: each is asked once, the server stays UP",
				() -> beforeConnectingEachUserIsAskedToConnect(app, path));
		timed(path, "2. a user cannot complete another's request; each completes their own",
				() -> eachUserCompletesTheirOwnRequestOnly(app));
		timed(path, "3. interleaved concurrent turns: each user's calls carry that user's token only",
				() -> concurrentTurnsCarryEachUsersOwnToken(app, path));
		timed(path, "4. a crash of the server: UP again, both served, no one asked again",
				() -> aCrashAsksNoOneAgain(app, path));
		timed(path, "5. a call made for no user is refused, naming why", () -> aCallMadeForNoUserIsRefused(app, path));
		timed(path, "6. a user who disconnects is revoked and asked again; the other is still served",
				() -> aUserWhoDisconnectsIsAskedAgain(app));
		assertThat(drive.state()).isEqualTo(McpServerState.UP);
		assertThat(app.authorizations().pending()).as("the server never waits for a person").isEmpty();
		assertThat(app.requests().server).as("no McpAuthorizationRequiredEvent").isEmpty();
		assertThat(app.requests().users).as("each asked once, Ada again once she disconnected")
			.extracting(McpAuthorizationRequest::user)
			.containsExactlyInAnyOrder(ADA, GRACE, ADA)
			.endsWith(ADA);
		assertOnlyToolCallsCarryUsers(path);
	}

	@Test
	void overTheLegacyRevisionAServerThatKeepsEachSessionForItsOpenerFailsTheUsersCallWithoutReconnecting(
			CapturedOutput output) throws Exception {
		String path = ProtectedDemoMcpServer.LEGACY;
		this.protectedServer = new ProtectedDemoMcpServer(authorization());
		// before the application starts: the session it opens is bound to its identity
		this.protectedServer.bindSessionsToSubject(true);
		UsersApplication app = startApplication(this.protectedServer.url(path));
		McpServerSupervisor drive = app.drive();
		await().atMost(PATIENCE).until(drive::state, McpServerState.UP::equals);
		assertThat(drive.status().protocol()).isEqualTo(revision(path));
		assertThat(app.chat(ADA)).startsWith(NEEDS_CONNECT);
		McpAuthorizationRequest request = only(app.authorizations().pending(ADA));
		Map<String, String> answer = authorization().authorize(request.authorizationUri(), ADA,
				DemoAuthorizationServer.PASSWORD);
		assertThat(app.redirect(ADA, answer).body()).isEqualTo("drive");
		int generation = drive.status().generation();
		int refusedBefore = this.protectedServer.sessionsRefusedToOtherSubjects();
		long started = System.nanoTime();
		for (int turn = 0; turn < 2; turn++) {
			assertThat(app.chat(ADA)).startsWith("The tool said: MCP server 'drive' does not take your account")
				.contains("keeps each session for one identity");
		}
		logger.info(path + " 7. a session kept for its opener fails the user's call without a reconnect: "
				+ Duration.ofNanos(System.nanoTime() - started).toMillis() + " ms");
		assertThat(this.protectedServer.sessionsRefusedToOtherSubjects()).isGreaterThanOrEqualTo(refusedBefore + 2);
		// no reconnect: the same generation, the same session, through health checks too
		await().during(Duration.ofSeconds(2))
			.atMost(PATIENCE)
			.until(() -> drive.state() == McpServerState.UP && drive.status().generation() == generation);
		assertThat(this.protectedServer.received(path)).filteredOn((received) -> "initialize".equals(received.method()))
			.hasSize(1);
		assertThat(output.getAll().split("does not know its session when a user's token", -1))
			.as("one WARN for the connection")
			.hasSize(2);
		assertThat(app.requests().server).isEmpty();
		await().atMost(PATIENCE).until(() -> !app.requests().users.isEmpty());
		assertThat(app.requests().users).extracting(McpAuthorizationRequest::user).containsExactly(ADA);
		assertOnlyToolCallsCarryUsers(path);
	}

	// 1. Both users chat at once before either connected: each answer asks that user to
	// connect, without the URL; one request per user, published and pending for that
	// user only; nothing reached the server for them, and it serves on.
	private void beforeConnectingEachUserIsAskedToConnect(UsersApplication app, String path) throws Exception {
		Map<String, List<String>> answers = concurrently(app, 1);
		for (String user : List.of(ADA, GRACE)) {
			assertThat(answers.get(user)).singleElement()
				.satisfies((answer) -> assertThat(answer).startsWith(NEEDS_CONNECT)
					.doesNotContain(authorization().issuer())
					.doesNotContain("state="));
		}
		// the application is told on the supervisor's own thread, soon after the answer
		await().atMost(PATIENCE).until(() -> app.requests().users.size() >= 2);
		assertThat(app.requests().users).extracting(McpAuthorizationRequest::user)
			.containsExactlyInAnyOrder(ADA, GRACE);
		for (String user : List.of(ADA, GRACE)) {
			McpAuthorizationRequest published = app.requests().of(user);
			assertThat(published.server()).isEqualTo("drive");
			assertThat(published.registration()).isEqualTo("drive");
			assertThat(published.authorizationUri().toString()).startsWith(authorization().issuer());
			assertThat(app.authorizations().pending(user)).containsExactly(published);
		}
		assertThat(app.drive().state()).isEqualTo(McpServerState.UP);
		assertThat(app.authorizations().pending()).isEmpty();
		assertThat(app.requests().server).isEmpty();
		assertThat(server().received(path)).noneMatch((received) -> "tools/call".equals(received.method()));
	}

	// 2. Grace's browser brings Ada's answer back: refused, Ada's code not spent, Ada's
	// request still pending. Then each completes their own, Ada with that very answer.
	private void eachUserCompletesTheirOwnRequestOnly(UsersApplication app) throws Exception {
		McpAuthorizationRequest adaRequest = only(app.authorizations().pending(ADA));
		McpAuthorizationRequest graceRequest = only(app.authorizations().pending(GRACE));
		Map<String, String> adaAnswer = authorization().authorize(adaRequest.authorizationUri(), ADA,
				DemoAuthorizationServer.PASSWORD);
		int codesBefore = authorization().tokensIssued("authorization_code");
		HttpResponse<String> stolen = app.redirect(GRACE, adaAnswer);
		assertThat(stolen.statusCode()).isEqualTo(400);
		assertThat(stolen.body()).contains("made for another user");
		assertThat(authorization().tokensIssued("authorization_code")).as("the code was not exchanged")
			.isEqualTo(codesBefore);
		assertThat(app.authorizations().pending(ADA)).containsExactly(adaRequest);
		assertThat(app.authorizations().pending(GRACE)).containsExactly(graceRequest);
		HttpResponse<String> ada = app.redirect(ADA, adaAnswer);
		assertThat(ada.statusCode()).isEqualTo(200);
		assertThat(ada.body()).isEqualTo("drive");
		Map<String, String> graceAnswer = authorization().authorize(graceRequest.authorizationUri(), GRACE,
				DemoAuthorizationServer.SECOND_PASSWORD);
		HttpResponse<String> grace = app.redirect(GRACE, graceAnswer);
		assertThat(grace.statusCode()).isEqualTo(200);
		assertThat(grace.body()).isEqualTo("drive");
		assertThat(authorization().tokensIssued("authorization_code")).isEqualTo(codesBefore + 2);
		assertThat(app.authorizations().pending(ADA)).isEmpty();
		assertThat(app.authorizations().pending(GRACE)).isEmpty();
		assertThat(app.requests().users).hasSize(2);
	}

	// 3. Both users chat at once, turn after turn: each answer is its user's, and the
	// server saw each call with the token of the user who made it.
	private void concurrentTurnsCarryEachUsersOwnToken(UsersApplication app, String path) throws Exception {
		int turns = 20;
		int receivedBefore = server().received(path).size();
		Map<String, List<String>> answers = concurrently(app, turns);
		for (String user : List.of(ADA, GRACE)) {
			assertThat(answers.get(user)).hasSize(turns).containsOnly(served(user));
		}
		List<Received> received = server().received(path);
		List<Received> toolCalls = received.subList(receivedBefore, received.size())
			.stream()
			.filter((request) -> "tools/call".equals(request.method()))
			.toList();
		assertThat(toolCalls).as("let through, none refused").allSatisfy((call) -> assertThat(call.status()).isZero());
		Map<String, Long> callsBySubject = toolCalls.stream()
			.collect(Collectors.groupingBy((call) -> String.valueOf(call.subject()), Collectors.counting()));
		assertThat(callsBySubject).containsOnly(Map.entry(ADA, (long) turns), Map.entry(GRACE, (long) turns));
		assertOnlyToolCallsCarryUsers(path);
		assertThat(app.drive().state()).isEqualTo(McpServerState.UP);
	}

	// 4. The server crashes between calls and comes back on the same port: a new
	// generation, both users served with their own tokens, no one asked again.
	private void aCrashAsksNoOneAgain(UsersApplication app, String path) throws Exception {
		McpServerSupervisor drive = app.drive();
		int generation = drive.status().generation();
		int codesBefore = authorization().tokensIssued("authorization_code");
		int askedBefore = app.requests().users.size();
		int port = URI.create(server().url(path)).getPort();
		ProtectedDemoMcpServer crashed = server();
		this.protectedServer = null;
		crashed.close();
		await().atMost(PATIENCE).until(() -> drive.state() != McpServerState.UP);
		this.protectedServer = new ProtectedDemoMcpServer(authorization(), port);
		await().atMost(PATIENCE)
			.until(() -> drive.state() == McpServerState.UP && drive.status().generation() > generation);
		Map<String, List<String>> answers = concurrently(app, 3);
		for (String user : List.of(ADA, GRACE)) {
			assertThat(answers.get(user)).hasSize(3).containsOnly(served(user));
		}
		assertThat(app.requests().users).as("no user asked again").hasSize(askedBefore);
		assertThat(authorization().tokensIssued("authorization_code")).isEqualTo(codesBefore);
		assertThat(app.authorizations().pending(ADA)).isEmpty();
		assertThat(app.authorizations().pending(GRACE)).isEmpty();
		// the new server's first requests, the supervisor's own, carried the
		// application's token
		assertOnlyToolCallsCarryUsers(path);
	}

	// 5. A thread without a user (a scheduled job) calls the tool: refused before
	// anything is sent, naming why.
	private void aCallMadeForNoUserIsRefused(UsersApplication app, String path) throws Exception {
		ToolCallback whoami = app.tool("drive_whoami");
		int receivedBefore = server().received(path).size();
		FutureTask<String> call = new FutureTask<>(() -> whoami.call("{}"));
		Thread job = new Thread(call, "job-without-a-user");
		job.start();
		String answer;
		try {
			answer = call.get(PATIENCE.toSeconds(), TimeUnit.SECONDS);
		}
		catch (ExecutionException ex) {
			answer = String.valueOf(ex.getCause().getMessage());
		}
		assertThat(answer).contains("made for no user").contains("oauth.without-user");
		assertThat(server().received(path).subList(receivedBefore, server().received(path).size()))
			.noneMatch((received) -> "tools/call".equals(received.method()));
		assertThat(app.drive().state()).isEqualTo(McpServerState.UP);
	}

	// 6. Ada disconnects: her tokens are revoked at the authorization server and
	// forgotten, her next chat asks her to connect again; Grace is still served.
	private void aUserWhoDisconnectsIsAskedAgain(UsersApplication app) throws Exception {
		int revocationsBefore = authorization().revocations();
		int askedBefore = app.requests().users.size();
		assertThat(app.authorizations().disconnect("drive", ADA)).isTrue();
		assertThat(authorization().revocations()).isGreaterThan(revocationsBefore);
		assertThat(app.chat(ADA)).startsWith(NEEDS_CONNECT);
		await().atMost(PATIENCE).until(() -> app.requests().users.size() >= askedBefore + 1);
		assertThat(app.requests().users).hasSize(askedBefore + 1);
		McpAuthorizationRequest again = app.requests().users.get(askedBefore);
		assertThat(again.user()).isEqualTo(ADA);
		assertThat(app.authorizations().pending(ADA)).containsExactly(again);
		assertThat(app.authorizations().pending(GRACE)).isEmpty();
		assertThat(app.chat(GRACE)).isEqualTo(served(GRACE));
		assertThat(app.drive().state()).isEqualTo(McpServerState.UP);
	}

	// Every request the server received without a user's call (initialize, listings,
	// pings, the event stream) carried the application's token; every tool call, a
	// user's.
	private void assertOnlyToolCallsCarryUsers(String path) {
		assertThat(server().received(path)).isNotEmpty().allSatisfy((received) -> {
			if ("tools/call".equals(received.method())) {
				assertThat(received.subject()).as("%s", received).isIn(ADA, GRACE);
			}
			else {
				assertThat(received.subject()).as("%s", received).isEqualTo(SERVICE);
			}
		});
	}

	// Each user chats the given number of turns on a thread of their own, both
	// starting together.
	private static Map<String, List<String>> concurrently(UsersApplication app, int turns) throws Exception {
		CountDownLatch start = new CountDownLatch(1);
		ExecutorService threads = Executors.newFixedThreadPool(2);
		try {
			Map<String, Future<List<String>>> chats = new LinkedHashMap<>();
			for (String user : List.of(ADA, GRACE)) {
				Callable<List<String>> chat = () -> {
					start.await();
					List<String> answers = new ArrayList<>();
					for (int turn = 0; turn < turns; turn++) {
						answers.add(app.chat(user));
					}
					return answers;
				};
				chats.put(user, threads.submit(chat));
			}
			start.countDown();
			Map<String, List<String>> answers = new LinkedHashMap<>();
			for (Map.Entry<String, Future<List<String>>> chat : chats.entrySet()) {
				answers.put(chat.getKey(), chat.getValue().get(PATIENCE.toSeconds(), TimeUnit.SECONDS));
			}
			return answers;
		}
		finally {
			threads.shutdownNow();
		}
	}

	private static String served(String user) {
		return "The tool said: [{\"text\":\"subject: " + user + "\"}]";
	}

	private static McpAuthorizationRequest only(List<McpAuthorizationRequest> requests) {
		assertThat(requests).hasSize(1);
		return requests.get(0);
	}

	private static String revision(String path) {
		return (path.equals(ProtectedDemoMcpServer.MODERN)) ? "2026-07-28" : "2025-11-25";
	}

	private static void timed(String path, String scenario, Step step) throws Exception {
		long started = System.nanoTime();
		step.run();
		logger.info(path + " " + scenario + ": " + Duration.ofNanos(System.nanoTime() - started).toMillis() + " ms");
	}

	private static DemoAuthorizationServer authorization() {
		DemoAuthorizationServer current = authorizationServer;
		if (current == null) {
			throw new IllegalStateException("the authorization server starts before the test class");
		}
		return current;
	}

	private ProtectedDemoMcpServer server() {
		ProtectedDemoMcpServer current = this.protectedServer;
		if (current == null) {
			throw new IllegalStateException("the protected MCP server is not running");
		}
		return current;
	}

	// The application, configured as "Acting for each user" shows, with the test's
	// servers; and a quick probe and reconnect, for a crash to be seen and mended fast.
	private UsersApplication startApplication(String url) {
		String drive = "--spring.security.oauth2.client.registration.drive.";
		String driveApp = "--spring.security.oauth2.client.registration.drive-app.";
		String provider = "--spring.security.oauth2.client.provider.";
		String server = "--mcp.servers.drive.";
		ConfigurableApplicationContext context = new SpringApplicationBuilder(Application.class)
			.web(WebApplicationType.SERVLET)
			.bannerMode(Banner.Mode.OFF)
			.logStartupInfo(false)
			.run("--server.address=127.0.0.1", "--server.port=0",
					drive + "client-id=" + DemoAuthorizationServer.PERSON_CLIENT,
					drive + "client-secret=" + DemoAuthorizationServer.PERSON_SECRET,
					drive + "authorization-grant-type=authorization_code",
					drive + "redirect-uri=" + DemoAuthorizationServer.REDIRECT_URI, drive + "scope=mcp:read",
					driveApp + "client-id=" + DemoAuthorizationServer.SERVICE_CLIENT,
					driveApp + "client-secret=" + DemoAuthorizationServer.SERVICE_SECRET,
					driveApp + "authorization-grant-type=client_credentials", driveApp + "scope=mcp:read",
					provider + "drive.issuer-uri=" + authorization().issuer(),
					provider + "drive-app.issuer-uri=" + authorization().issuer(), server + "transport=streamable-http",
					server + "url=" + url, server + "oauth.registration=drive", server + "oauth.acts-for=user",
					server + "oauth.application-registration=drive-app", server + "reconnect.initial-delay=100ms",
					server + "health-check.interval=1s");
		this.application = new UsersApplication(context);
		return this.application;
	}

	/**
	 * A step of a scenario.
	 */
	@FunctionalInterface
	interface Step {

		void run() throws Exception;

	}

	/**
	 * The running application, and its users' browsers.
	 */
	static final class UsersApplication implements AutoCloseable {

		private final ConfigurableApplicationContext context;

		private final URI base;

		private final HttpClient http = HttpClient.newBuilder()
			.version(HttpClient.Version.HTTP_1_1)
			.connectTimeout(Duration.ofSeconds(5))
			.build();

		UsersApplication(ConfigurableApplicationContext context) {
			this.context = context;
			this.base = URI
				.create("http://127.0.0.1:" + ((WebServerApplicationContext) context).getWebServer().getPort() + "/");
		}

		// a turn of a user's chat: the model's answer
		String chat(String user) throws IOException, InterruptedException {
			HttpResponse<String> response = this.http
				.send(as(user, this.base.resolve("chat")).header("Content-Type", "text/plain")
					.POST(HttpRequest.BodyPublishers.ofString("Who am I on the drive?"))
					.build(), HttpResponse.BodyHandlers.ofString());
			assertThat(response.statusCode()).as("%s", response.body()).isEqualTo(200);
			return response.body();
		}

		// the authorization server's redirect, brought back by a user's browser
		HttpResponse<String> redirect(String user, Map<String, String> parameters)
				throws IOException, InterruptedException {
			String query = parameters.entrySet()
				.stream()
				.map((parameter) -> encode(parameter.getKey()) + "=" + encode(parameter.getValue()))
				.collect(Collectors.joining("&"));
			return this.http.send(as(user, this.base.resolve("authorized/mcp?" + query)).GET().build(),
					HttpResponse.BodyHandlers.ofString());
		}

		McpServerSupervisor drive() {
			return this.context.getBean(McpSupervisors.class).supervisor("drive");
		}

		McpServerAuthorizations authorizations() {
			return this.context.getBean(McpServerAuthorizations.class);
		}

		AuthorizationRequests requests() {
			return this.context.getBean(AuthorizationRequests.class);
		}

		List<String> toolNames() {
			return Arrays.stream(this.context.getBean(ToolCallbackProvider.class).getToolCallbacks())
				.map((tool) -> tool.getToolDefinition().name())
				.toList();
		}

		ToolCallback tool(String name) {
			return Arrays.stream(this.context.getBean(ToolCallbackProvider.class).getToolCallbacks())
				.filter((tool) -> tool.getToolDefinition().name().equals(name))
				.findFirst()
				.orElseThrow(() -> new AssertionError("no tool " + name + " in " + toolNames()));
		}

		@Override
		public void close() {
			this.context.close();
		}

		private static HttpRequest.Builder as(String user, URI uri) {
			String credentials = user + ":" + PASSWORDS.get(user);
			return HttpRequest.newBuilder(uri)
				.timeout(PATIENCE)
				.header("Authorization",
						"Basic " + Base64.getEncoder().encodeToString(credentials.getBytes(StandardCharsets.UTF_8)));
		}

		private static String encode(String value) {
			return URLEncoder.encode(value, StandardCharsets.UTF_8);
		}

	}

	/**
	 * The application: Spring Boot's auto-configuration (the authorization server's,
	 * which only the test's class path has, left out), its users with HTTP Basic, a chat
	 * endpoint whose model calls the drive's {@code whoami} tool, and the redirect
	 * endpoint of the documentation.
	 */
	@SpringBootConfiguration
	@EnableAutoConfiguration(exclude = { OAuth2AuthorizationServerAutoConfiguration.class,
			OAuth2AuthorizationServerJwtAutoConfiguration.class })
	@Import({ ChatEndpoint.class, RedirectEndpoint.class })
	static class Application {

		@Bean
		SecurityFilterChain securityFilterChain(HttpSecurity http) throws Exception {
			return http.authorizeHttpRequests((requests) -> requests.anyRequest().authenticated())
				.httpBasic(Customizer.withDefaults())
				.csrf((csrf) -> csrf.ignoringRequestMatchers("/chat"))
				.build();
		}

		@Bean
		InMemoryUserDetailsManager users() {
			return new InMemoryUserDetailsManager(
					User.withUsername(ADA).password("{noop}" + PASSWORDS.get(ADA)).build(),
					User.withUsername(GRACE).password("{noop}" + PASSWORDS.get(GRACE)).build());
		}

		@Bean
		ChatModel chatModel(ToolCallingManager toolCallingManager) {
			return new WhoamiChatModel(toolCallingManager);
		}

		@Bean
		ChatClient chatClient(ChatModel chatModel, ToolCallbackProvider tools) {
			return ChatClient.builder(chatModel).defaultTools(tools).build();
		}

		@Bean
		AuthorizationRequests authorizationRequests() {
			return new AuthorizationRequests();
		}

	}

	/**
	 * A user's chat: a turn of the model, within the user's own web request.
	 */
	@RestController
	static class ChatEndpoint {

		private final ChatClient chatClient;

		ChatEndpoint(ChatClient chatClient) {
			this.chatClient = chatClient;
		}

		@PostMapping("/chat")
		String chat(@RequestBody String question) {
			return this.chatClient.prompt(question).call().content();
		}

	}

	/**
	 * The redirect endpoint of the documentation, reached by the logged-in user.
	 */
	@RestController
	static class RedirectEndpoint {

		private final McpServerAuthorizations authorizations;

		RedirectEndpoint(McpServerAuthorizations authorizations) {
			this.authorizations = authorizations;
		}

		@GetMapping("/authorized/mcp")
		String authorized(@RequestParam Map<String, String> parameters) {
			return this.authorizations.complete(parameters);
		}

		@ExceptionHandler(McpAuthorizationException.class)
		ResponseEntity<String> refused(McpAuthorizationException ex) {
			return ResponseEntity.badRequest().body(ex.getMessage());
		}

	}

	/**
	 * What the application is told: each user's requests to connect their account, and
	 * any request for the server's own authorization (never, for a server that acts for
	 * each user).
	 */
	static final class AuthorizationRequests {

		private final List<McpAuthorizationRequest> users = new CopyOnWriteArrayList<>();

		private final List<McpAuthorizationRequest> server = new CopyOnWriteArrayList<>();

		@EventListener
		void connectAccount(McpUserAuthorizationRequiredEvent event) {
			this.users.add(event.getRequest());
		}

		@EventListener
		void authorizeServer(McpAuthorizationRequiredEvent event) {
			this.server.add(event.getRequest());
		}

		McpAuthorizationRequest of(String user) {
			return this.users.stream().filter((request) -> user.equals(request.user())).reduce((first, second) -> {
				throw new AssertionError("more than one request for " + user + ": " + this.users);
			}).orElseThrow(() -> new AssertionError("no request for " + user + ": " + this.users));
		}

	}

	/**
	 * A chat model test double that behaves like a provider's model, as
	 * {@code e2e.ScriptedChatModel} does: each prompt asks for the drive's {@code whoami}
	 * tool, runs the call through Spring AI's {@link ToolCallingManager} with the
	 * callbacks the ChatClient passed, on the calling thread, and answers with what the
	 * tool returned.
	 */
	static final class WhoamiChatModel implements ChatModel {

		private final ToolCallingManager toolCallingManager;

		WhoamiChatModel(ToolCallingManager toolCallingManager) {
			this.toolCallingManager = toolCallingManager;
		}

		@Override
		public ChatOptions getOptions() {
			return ToolCallingChatOptions.builder().build();
		}

		@Override
		public ChatResponse call(Prompt prompt) {
			ToolCall whoami = new ToolCall("call-drive_whoami", "function", "drive_whoami", "{}");
			ChatResponse askForTool = new ChatResponse(
					List.of(new Generation(AssistantMessage.builder().content("").toolCalls(List.of(whoami)).build())));
			ToolExecutionResult result = this.toolCallingManager.executeToolCalls(prompt, askForTool);
			List<Message> history = result.conversationHistory();
			ToolResponseMessage toolResponse = (ToolResponseMessage) history.get(history.size() - 1);
			String answer = "The tool said: " + toolResponse.getResponses().get(0).responseData();
			return new ChatResponse(List.of(new Generation(new AssistantMessage(answer))));
		}

	}

}
