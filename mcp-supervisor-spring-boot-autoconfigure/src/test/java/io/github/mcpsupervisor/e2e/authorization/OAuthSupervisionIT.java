package io.github.mcpsupervisor.e2e.authorization;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;

import javax.sql.DataSource;

import io.github.mcpsupervisor.actuate.McpEndpoint;
import io.github.mcpsupervisor.authorization.McpAuthorizationException;
import io.github.mcpsupervisor.authorization.McpAuthorizationRequest;
import io.github.mcpsupervisor.authorization.McpAuthorizationRequiredEvent;
import io.github.mcpsupervisor.authorization.McpServerAuthorizations;
import io.github.mcpsupervisor.autoconfigure.McpSupervisorAutoConfiguration;
import io.github.mcpsupervisor.autoconfigure.authorization.McpAuthorizationAutoConfiguration;
import io.github.mcpsupervisor.autoconfigure.endpoint.McpEndpointAutoConfiguration;
import io.github.mcpsupervisor.autoconfigure.health.McpHealthContributorAutoConfiguration;
import io.github.mcpsupervisor.demo.oauth.DemoAuthorizationServer;
import io.github.mcpsupervisor.demo.oauth.ProtectedDemoMcpServer;
import io.github.mcpsupervisor.demo.oauth.ProtectedDemoMcpServer.Received;
import io.github.mcpsupervisor.supervisor.McpServerState;
import io.github.mcpsupervisor.supervisor.McpServerSupervisor;
import io.github.mcpsupervisor.supervisor.McpSupervisors;
import io.modelcontextprotocol.spec.McpSchema.CallToolRequest;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import io.modelcontextprotocol.spec.McpSchema.TextContent;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.boot.actuate.autoconfigure.endpoint.EndpointAutoConfiguration;
import org.springframework.boot.actuate.autoconfigure.endpoint.web.WebEndpointAutoConfiguration;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.health.actuate.endpoint.HealthEndpoint;
import org.springframework.boot.health.autoconfigure.actuate.endpoint.HealthEndpointAutoConfiguration;
import org.springframework.boot.health.autoconfigure.contributor.HealthContributorAutoConfiguration;
import org.springframework.boot.health.autoconfigure.registry.HealthContributorRegistryAutoConfiguration;
import org.springframework.boot.security.oauth2.client.autoconfigure.OAuth2ClientAutoConfiguration;
import org.springframework.boot.test.context.assertj.AssertableApplicationContext;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.ApplicationListener;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.io.ClassPathResource;
import org.springframework.integration.jdbc.lock.DefaultLockRepository;
import org.springframework.integration.jdbc.lock.JdbcLockRegistry;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;
import org.springframework.jdbc.datasource.SimpleDriverDataSource;
import org.springframework.jdbc.datasource.init.ResourceDatabasePopulator;
import org.springframework.security.oauth2.client.JdbcOAuth2AuthorizedClientService;
import org.springframework.security.oauth2.client.OAuth2AuthorizedClientService;
import org.springframework.security.oauth2.client.registration.ClientRegistrationRepository;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.catchThrowable;
import static org.awaitility.Awaitility.await;

/**
 * OAuth 2.1 for streamable-http servers, end to end, in both revisions: a real Spring
 * Authorization Server, an MCP server that checks its tokens as a resource server does,
 * and the application's Spring Security client registrations. Tokens are bound to the
 * server, renewed when it refuses them, refreshed without the person, stepped up to the
 * scopes the server asks for; a grant only a person can give waits for them, and no
 * credential is ever shown or logged. Discovery, with each flow's documented settings
 * only, serves a server whose challenge and metadata name no scope.
 */
@ExtendWith(OutputCaptureExtension.class)
class OAuthSupervisionIT {

	private static final Duration PATIENCE = Duration.ofSeconds(30);

	private static final String OAUTH = "mcp.servers.remote.oauth.";

	/** How long a server is watched for attempts it must not make. */
	private static final Duration QUIET = Duration.ofSeconds(1);

	@RegisterExtension
	static final OAuthServers servers = new OAuthServers();

	private final JsonMapper json = JsonMapper.builder().build();

	private final List<McpAuthorizationRequest> requested = new CopyOnWriteArrayList<>();

	private final List<String> codes = new ArrayList<>();

	@ParameterizedTest
	@CsvSource({ "/mcp, 2026-07-28", "/legacy, 2025-11-25", "/legacy, auto" })
	void clientCredentialsTokensAreBoundToTheServerAndRenewedOnceWhenItRefusesThem(String path, String protocol,
			CapturedOutput output) {
		int issuedBefore = servers.authorization().tokensIssued("client_credentials");
		contextRunner(path, protocol, "service").run((context) -> {
			McpServerSupervisor supervisor = supervisor(context);
			assertThat(supervisor.state()).isEqualTo(McpServerState.UP);
			assertThat(supervisor.tools().names()).contains("echo", "admin", "locked");
			assertThat(text(call(supervisor, "echo", "hello"))).isEqualTo("echo: hello");
			assertThat(servers.authorization().tokensIssued("client_credentials")).isEqualTo(issuedBefore + 1);
			int generation = supervisor.status().generation();
			servers.protectedServer().refuseTokensSeenSoFar();
			int receivedBefore = servers.protectedServer().received(path).size();
			assertThat(text(call(supervisor, "echo", "again"))).isEqualTo("echo: again");
			List<Received> sinceRefusal = servers.protectedServer()
				.received(path)
				.subList(receivedBefore, servers.protectedServer().received(path).size());
			assertThat(sinceRefusal).extracting(Received::status).containsExactly(401, 0);
			assertThat(sinceRefusal.get(1).token()).isNotEqualTo(sinceRefusal.get(0).token());
			assertThat(servers.authorization().tokensIssued("client_credentials")).isEqualTo(issuedBefore + 2);
			assertThat(supervisor.status().generation()).isEqualTo(generation);
			assertThat(supervisor.state()).isEqualTo(McpServerState.UP);
			assertEveryTokenIsBoundTo(path);
			assertNothingLeaks(context, output);
		});
	}

	@ParameterizedTest
	@CsvSource({ "/mcp, 2026-07-28", "/legacy, 2025-11-25", "/legacy, auto" })
	void anAuthorizationCodeServerWaitsForThePersonAndConnectsOnceAuthorized(String path, String protocol,
			CapturedOutput output) {
		contextRunner(path, protocol, "person").run((context) -> {
			McpServerSupervisor supervisor = supervisor(context);
			McpServerAuthorizations authorizations = context.getBean(McpServerAuthorizations.class);
			await().atMost(PATIENCE).until(supervisor::state, McpServerState.NEEDS_AUTHORIZATION::equals);
			assertThat(authorizations.pending()).hasSize(1);
			McpAuthorizationRequest request = authorizations.pending().get(0);
			assertThat(request.server()).isEqualTo("remote");
			assertThat(request.authorizationUri().toString()).startsWith(servers.authorization().issuer())
				.contains("code_challenge_method=S256")
				.contains("resource=");
			// no attempt while it waits: the server sees nothing, the person is asked
			// once
			await().during(QUIET)
				.atMost(QUIET.multipliedBy(3))
				.until(() -> supervisor.state() == McpServerState.NEEDS_AUTHORIZATION
						&& servers.protectedServer().received().isEmpty());
			assertThat(this.requested).containsExactly(request);
			assertThatExceptionOfType(McpAuthorizationException.class)
				.isThrownBy(() -> authorizations.complete(Map.of("state", "unknown", "code", "whatever")));
			Map<String, String> answer = authorize(request);
			Map<String, String> otherIssuer = new HashMap<>(answer);
			otherIssuer.put("iss", "http://127.0.0.1:1");
			assertThatExceptionOfType(McpAuthorizationException.class)
				.isThrownBy(() -> authorizations.complete(otherIssuer));
			assertThat(authorizations.complete(answer)).isEqualTo("remote");
			await().atMost(PATIENCE).until(supervisor::state, McpServerState.UP::equals);
			assertThat(authorizations.pending()).isEmpty();
			assertThat(text(call(supervisor, "echo", "authorized"))).isEqualTo("echo: authorized");
			// a new generation (an operator's restart, as after an outage) keeps the
			// token
			int generation = supervisor.status().generation();
			supervisor.restart();
			await().atMost(PATIENCE)
				.until(() -> supervisor.state() == McpServerState.UP && supervisor.status().generation() > generation);
			assertThat(text(call(supervisor, "echo", "again"))).isEqualTo("echo: again");
			assertThat(this.requested).as("the person is asked once").containsExactly(request);
			assertEveryTokenIsBoundTo(path);
			assertNothingLeaks(context, output);
		});
	}

	@ParameterizedTest
	@ValueSource(strings = { ProtectedDemoMcpServer.MODERN, ProtectedDemoMcpServer.LEGACY })
	void aRefusedTokenIsRefreshedAndARevokedRefreshTokenAsksThePersonAgain(String path, CapturedOutput output) {
		contextRunner(path, revision(path), "person").run((context) -> {
			McpServerSupervisor supervisor = supervisor(context);
			McpServerAuthorizations authorizations = context.getBean(McpServerAuthorizations.class);
			await().atMost(PATIENCE).until(() -> authorizations.pending().size() == 1);
			authorizations.complete(authorize(authorizations.pending().get(0)));
			await().atMost(PATIENCE).until(supervisor::state, McpServerState.UP::equals);
			int generation = supervisor.status().generation();
			int refreshedBefore = servers.authorization().tokensIssued("refresh_token");
			servers.protectedServer().refuseTokensSeenSoFar();
			assertThat(text(call(supervisor, "echo", "refreshed"))).isEqualTo("echo: refreshed");
			assertThat(servers.authorization().tokensIssued("refresh_token")).isEqualTo(refreshedBefore + 1);
			assertThat(supervisor.status().generation()).isEqualTo(generation);
			assertThat(this.requested).hasSize(1);

			assertThat(servers.authorization().revokeAll()).isPositive();
			servers.protectedServer().refuseTokensSeenSoFar();
			assertThat(catchThrowable(() -> call(supervisor, "echo", "revoked"))).isNotNull();
			await().atMost(PATIENCE).until(supervisor::state, McpServerState.NEEDS_AUTHORIZATION::equals);
			assertThat(this.requested).hasSize(2);
			assertThat(authorizations.pending()).containsExactly(this.requested.get(1));
			int received = servers.protectedServer().received().size();
			// waits: neither FAILED nor a restart loop
			await().during(QUIET)
				.atMost(QUIET.multipliedBy(3))
				.until(() -> supervisor.state() == McpServerState.NEEDS_AUTHORIZATION
						&& servers.protectedServer().received().size() == received);
			assertThat(context.getBean(HealthEndpoint.class).healthForPath("mcp").getStatus().getCode())
				.isEqualTo("OUT_OF_SERVICE");
			authorizations.complete(authorize(this.requested.get(1)));
			await().atMost(PATIENCE).until(supervisor::state, McpServerState.UP::equals);
			assertThat(text(call(supervisor, "echo", "again"))).isEqualTo("echo: again");
			assertEveryTokenIsBoundTo(path);
			assertNothingLeaks(context, output);
		});
	}

	@ParameterizedTest
	@ValueSource(strings = { ProtectedDemoMcpServer.MODERN, ProtectedDemoMcpServer.LEGACY })
	void concurrentCallsOnARefusedTokenSendItsRotatingRefreshTokenOnce(String path, CapturedOutput output) {
		contextRunner(path, revision(path), "person").run((context) -> {
			McpServerSupervisor supervisor = supervisor(context);
			McpServerAuthorizations authorizations = context.getBean(McpServerAuthorizations.class);
			await().atMost(PATIENCE).until(() -> authorizations.pending().size() == 1);
			authorizations.complete(authorize(authorizations.pending().get(0)));
			await().atMost(PATIENCE).until(supervisor::state, McpServerState.UP::equals);
			int replacedBefore = servers.authorization().refreshTokensReplaced();
			int reusesBefore = servers.authorization().refreshTokenReuses();
			for (int round = 0; round < 3; round++) {
				int refreshedBefore = servers.authorization().tokensIssued("refresh_token");
				servers.protectedServer().refuseTokensSeenSoFar();
				List<CompletableFuture<String>> calls = new ArrayList<>();
				for (int i = 0; i < 8; i++) {
					String message = "round " + round + " call " + i;
					calls.add(CompletableFuture.supplyAsync(() -> text(call(supervisor, "echo", message))));
				}
				for (int i = 0; i < calls.size(); i++) {
					assertThat(calls.get(i).join()).isEqualTo("echo: round " + round + " call " + i);
				}
				assertThat(servers.authorization().tokensIssued("refresh_token")).as("one refresh for 8 calls")
					.isEqualTo(refreshedBefore + 1);
			}
			assertThat(servers.authorization().refreshTokenReuses()).as("a replaced refresh token sent again").isZero();
			assertThat(this.requested).as("the person is asked once").hasSize(1);
			assertNothingLeaks(context, output);
		});
	}

	@Test
	void replicasOnOneDatabaseAskThePersonOnceAndRenewATokenChainOnce(CapturedOutput output) {
		DataSource database = database();
		ApplicationContextRunner replica = contextRunner(ProtectedDemoMcpServer.LEGACY, "2025-11-25", "person")
			.withBean(DataSource.class, () -> database)
			.withUserConfiguration(Replica.class);
		replica.run((first) -> {
			McpServerSupervisor one = supervisor(first);
			McpServerAuthorizations authorizations = first.getBean(McpServerAuthorizations.class);
			await().atMost(PATIENCE).until(() -> authorizations.pending().size() == 1);
			authorizations.complete(authorize(authorizations.pending().get(0)));
			await().atMost(PATIENCE).until(one::state, McpServerState.UP::equals);
			replica.run((second) -> {
				McpServerSupervisor two = supervisor(second);
				await().atMost(PATIENCE).until(two::state, McpServerState.UP::equals);
				assertThat(this.requested).as("the person is asked once for both replicas").hasSize(1);
				int replacedBefore = servers.authorization().refreshTokensReplaced();
				int reusesBefore = servers.authorization().refreshTokenReuses();
				for (int round = 0; round < 3; round++) {
					int refreshedBefore = servers.authorization().tokensIssued("refresh_token");
					servers.protectedServer().refuseTokensSeenSoFar();
					List<CompletableFuture<String>> calls = new ArrayList<>();
					for (int i = 0; i < 8; i++) {
						McpServerSupervisor supervisor = (i % 2 == 0) ? one : two;
						String message = "round " + round + " call " + i;
						calls.add(CompletableFuture.supplyAsync(() -> text(call(supervisor, "echo", message))));
					}
					for (int i = 0; i < calls.size(); i++) {
						assertThat(calls.get(i).join()).isEqualTo("echo: round " + round + " call " + i);
					}
					assertThat(servers.authorization().tokensIssued("refresh_token"))
						.as("one refresh for both replicas")
						.isEqualTo(refreshedBefore + 1);
				}
				assertThat(servers.authorization().refreshTokensReplaced()).isEqualTo(replacedBefore + 3);
				assertThat(servers.authorization().refreshTokenReuses()).as("a replaced refresh token sent again")
					.isEqualTo(reusesBefore);
				assertNothingLeaks(second, output);
			});
			assertThat(this.requested).hasSize(1);
		});
	}

	@ParameterizedTest
	@ValueSource(strings = { ProtectedDemoMcpServer.MODERN, ProtectedDemoMcpServer.LEGACY })
	void aServerThatAsksForAScopeGetsATokenWithItOnceAndIsNotAskedInALoop(String path, CapturedOutput output) {
		contextRunner(path, revision(path), "service").run((context) -> {
			McpServerSupervisor supervisor = supervisor(context);
			assertThat(supervisor.state()).isEqualTo(McpServerState.UP);
			int issuedBefore = servers.authorization().scopes().size();
			assertThat(text(call(supervisor, "admin", "stepped up"))).isEqualTo("admin: stepped up");
			List<Set<String>> scopes = servers.authorization().scopes();
			assertThat(scopes.subList(issuedBefore, scopes.size())).containsExactly(Set.of("mcp:read", "mcp:admin"));
			int generation = supervisor.status().generation();
			int issued = servers.authorization().scopes().size();
			int lockedBefore = lockedCalls(path);
			Throwable lockedFailure = catchThrowable(() -> call(supervisor, "locked", "in vain"));
			assertThat(lockedFailure).isNotNull();
			assertThat(lockedCalls(path) - lockedBefore).isBetween(1, 2);
			assertThat(servers.authorization().scopes()).hasSize(issued);
			assertThat(supervisor.state()).isEqualTo(McpServerState.UP);
			assertThat(supervisor.status().generation()).isEqualTo(generation);
			assertThat(text(call(supervisor, "echo", "still"))).isEqualTo("echo: still");
			assertEveryTokenIsBoundTo(path);
			assertNothingLeaks(context, output);
		});
	}

	@Test
	void anAuthorizationServerThatIsOutIsRetriedLikeAnyOutage(CapturedOutput output) {
		servers.authorization().tokenEndpointUnavailable(true);
		try {
			contextRunner(ProtectedDemoMcpServer.MODERN, "2026-07-28", "service").run((context) -> {
				McpServerSupervisor supervisor = supervisor(context);
				await().atMost(PATIENCE).until(() -> servers.authorization().tokenRequestsRefused() >= 2);
				assertThat(supervisor.state()).isIn(McpServerState.STARTING, McpServerState.RECONNECTING);
				assertThat(context.getBean(McpServerAuthorizations.class).pending()).isEmpty();
				servers.authorization().tokenEndpointUnavailable(false);
				await().atMost(PATIENCE).until(supervisor::state, McpServerState.UP::equals);
				assertThat(text(call(supervisor, "echo", "back"))).isEqualTo("echo: back");
				assertNothingLeaks(context, output);
			});
		}
		finally {
			servers.authorization().tokenEndpointUnavailable(false);
		}
	}

	@ParameterizedTest
	@ValueSource(strings = { ProtectedDemoMcpServer.MODERN, ProtectedDemoMcpServer.LEGACY })
	void aServiceGivenItsClientConnectsToAServerThatNamesNoScope(String path, CapturedOutput output) {
		List<Set<String>> scopesBefore = servers.authorization().scopes();
		application(path, revision(path))
			.withPropertyValues(OAUTH + "grant-type=client-credentials",
					OAUTH + "client-id=" + DemoAuthorizationServer.SERVICE_CLIENT,
					OAUTH + "client-secret=" + DemoAuthorizationServer.SERVICE_SECRET,
					OAUTH + "issuer=" + servers.authorization().issuer())
			.run((context) -> {
				McpServerSupervisor supervisor = supervisor(context);
				await().atMost(PATIENCE).until(supervisor::state, McpServerState.UP::equals);
				assertThat(text(call(supervisor, "echo", "no scope"))).isEqualTo("echo: no scope");
				List<Set<String>> scopes = servers.authorization().scopes();
				assertThat(scopes.subList(scopesBefore.size(), scopes.size())).containsExactly(Set.of());
				assertThat(context.getBean(McpServerAuthorizations.class).pending()).isEmpty();
				assertThat(this.requested).isEmpty();
				assertEveryTokenIsBoundTo(path);
				assertNothingLeaks(context, output);
			});
	}

	@ParameterizedTest
	@CsvSource({ "/mcp, registered", "/legacy, registered", "/mcp, given", "/legacy, given" })
	void aPersonAuthorizesAServerThatNamesNoScopeWithTheDocumentedSettingsOnly(String path, String client,
			CapturedOutput output) {
		boolean given = client.equals("given");
		ApplicationContextRunner runner = application(path, revision(path))
			.withPropertyValues(OAUTH + "redirect-uri=" + DemoAuthorizationServer.REDIRECT_URI);
		if (given) {
			runner = runner.withPropertyValues(OAUTH + "client-id=" + DemoAuthorizationServer.PERSON_CLIENT,
					OAUTH + "client-secret=" + DemoAuthorizationServer.PERSON_SECRET,
					OAUTH + "issuer=" + servers.authorization().issuer());
		}
		runner.run((context) -> {
			McpServerSupervisor supervisor = supervisor(context);
			McpServerAuthorizations authorizations = context.getBean(McpServerAuthorizations.class);
			await().atMost(PATIENCE).until(supervisor::state, McpServerState.NEEDS_AUTHORIZATION::equals);
			assertThat(authorizations.pending()).hasSize(1);
			McpAuthorizationRequest request = authorizations.pending().get(0);
			String query = request.authorizationUri().getRawQuery();
			assertThat(query).doesNotContain("scope=");
			if (given) {
				assertThat(query).contains("client_id=" + DemoAuthorizationServer.PERSON_CLIENT + "&");
			}
			else {
				// a client it registered itself
				assertThat(query).contains("client_id=")
					.doesNotContain("client_id=" + DemoAuthorizationServer.PERSON_CLIENT + "&")
					.doesNotContain("client_id=" + DemoAuthorizationServer.SERVICE_CLIENT + "&");
			}
			assertThat(authorizations.complete(authorize(request))).isEqualTo("remote");
			await().atMost(PATIENCE).until(supervisor::state, McpServerState.UP::equals);
			assertThat(text(call(supervisor, "echo", "no scope"))).isEqualTo("echo: no scope");
			assertThat(this.requested).containsExactly(request);
			assertEveryTokenIsBoundTo(path);
			assertNothingLeaks(context, output);
		});
	}

	// a database both replicas use: Spring Security's authorized clients, Spring
	// Integration's locks
	private static DataSource database() {
		SimpleDriverDataSource database = new SimpleDriverDataSource(new org.h2.Driver(),
				"jdbc:h2:mem:replicas-" + UUID.randomUUID() + ";DB_CLOSE_DELAY=-1");
		new ResourceDatabasePopulator(
				new ClassPathResource("org/springframework/security/oauth2/client/oauth2-client-schema.sql"),
				new ClassPathResource("org/springframework/integration/jdbc/schema-h2.sql"))
			.execute(database);
		return database;
	}

	private static String revision(String path) {
		return (path.equals(ProtectedDemoMcpServer.MODERN)) ? "2026-07-28" : "2025-11-25";
	}

	private ApplicationContextRunner contextRunner(String path, String protocol, String registration) {
		String client = "spring.security.oauth2.client.registration." + registration + ".";
		boolean person = registration.equals("person");
		return application(path, protocol).withPropertyValues(client + "provider=test",
				client + "client-id=" + registration,
				client + "client-secret="
						+ (person ? DemoAuthorizationServer.PERSON_SECRET : DemoAuthorizationServer.SERVICE_SECRET),
				client + "client-authentication-method=client_secret_basic",
				client + "authorization-grant-type=" + (person ? "authorization_code" : "client_credentials"),
				client + "scope=mcp:read", client + "redirect-uri=" + DemoAuthorizationServer.REDIRECT_URI,
				"spring.security.oauth2.client.provider.test.issuer-uri=" + servers.authorization().issuer(),
				OAUTH + "registration=" + registration);
	}

	// the application and its server, without its OAuth settings
	private ApplicationContextRunner application(String path, String protocol) {
		return new ApplicationContextRunner()
			.withConfiguration(
					AutoConfigurations.of(OAuth2ClientAutoConfiguration.class, McpAuthorizationAutoConfiguration.class,
							McpSupervisorAutoConfiguration.class, McpHealthContributorAutoConfiguration.class,
							McpEndpointAutoConfiguration.class, HealthContributorAutoConfiguration.class,
							HealthContributorRegistryAutoConfiguration.class, HealthEndpointAutoConfiguration.class,
							EndpointAutoConfiguration.class, WebEndpointAutoConfiguration.class))
			.withBean(AuthorizationRequests.class, () -> new AuthorizationRequests(this.requested))
			.withPropertyValues("mcp.servers.remote.transport=streamable-http",
					"mcp.servers.remote.url=" + servers.protectedServer().url(path),
					"mcp.servers.remote.protocol=" + protocol, "mcp.servers.remote.required=true",
					"mcp.servers.remote.reconnect.initial-delay=100ms", "mcp.servers.remote.call.wait-for-recovery=0",
					"management.endpoints.web.exposure.include=health,mcp");
	}

	private static McpServerSupervisor supervisor(AssertableApplicationContext context) {
		assertThat(context).hasNotFailed();
		return context.getBean(McpSupervisors.class).supervisor("remote");
	}

	private static CallToolResult call(McpServerSupervisor supervisor, String tool, String message) {
		return supervisor.callTool(CallToolRequest.builder(tool).arguments(Map.of("message", message)).build());
	}

	private static String text(CallToolResult result) {
		assertThat(result.isError()).as("the result is an error: %s", result).isNotEqualTo(Boolean.TRUE);
		return ((TextContent) result.content().get(0)).text();
	}

	private Map<String, String> authorize(McpAuthorizationRequest request) throws Exception {
		Map<String, String> answer = servers.authorization().authorize(request.authorizationUri());
		this.codes.add(answer.get("code"));
		return answer;
	}

	private int lockedCalls(String path) {
		return (int) servers.protectedServer()
			.received(path)
			.stream()
			.filter((received) -> "tools/call".equals(received.method()) && received.status() == 403)
			.count();
	}

	// Every token the server got is one of its own: bound to it, never to another.
	private void assertEveryTokenIsBoundTo(String path) {
		String resource = servers.protectedServer().url(path);
		assertThat(servers.protectedServer().received()).isNotEmpty().allSatisfy((received) -> {
			assertThat(received.path()).isEqualTo(path);
			if (received.token() == null) {
				// discovery starts from the server's challenge to a request without one
				assertThat(received.status()).isEqualTo(401);
				return;
			}
			assertThat(received.audience()).containsExactly(resource);
		});
		assertThat(servers.protectedServer().received())
			.anySatisfy((received) -> assertThat(received.status()).isZero());
		List<String> resources = servers.authorization().resources();
		assertThat(resources.subList(resources.size() - servers.protectedServer().tokens(), resources.size()))
			.containsOnly(resource);
	}

	private void assertNothingLeaks(AssertableApplicationContext context, CapturedOutput output) {
		List<String> secrets = new ArrayList<>();
		secrets.add(DemoAuthorizationServer.SERVICE_SECRET);
		secrets.add(DemoAuthorizationServer.PERSON_SECRET);
		secrets.addAll(servers.protectedServer().requestsByToken().keySet());
		secrets.addAll(servers.authorization().credentials());
		secrets.addAll(this.codes);
		McpSupervisors supervisors = context.getBean(McpSupervisors.class);
		String status = this.json.writeValueAsString(supervisors.status());
		String endpoint = this.json.writeValueAsString(context.getBean(McpEndpoint.class).servers());
		String health = this.json.writeValueAsString(context.getBean(HealthEndpoint.class).healthForPath("mcp"));
		assertThat(secrets).isNotEmpty().allSatisfy((secret) -> {
			assertThat(output.getAll()).as("the logs").doesNotContain(secret);
			assertThat(status).as("the status").doesNotContain(secret);
			assertThat(endpoint).as("the endpoint").doesNotContain(secret);
			assertThat(health).as("the health details").doesNotContain(secret);
		});
	}

	/**
	 * Keeps the requests of the {@link McpAuthorizationRequiredEvent}s.
	 */
	static final class AuthorizationRequests implements ApplicationListener<McpAuthorizationRequiredEvent> {

		private final List<McpAuthorizationRequest> requests;

		AuthorizationRequests(List<McpAuthorizationRequest> requests) {
			this.requests = requests;
		}

		@Override
		public void onApplicationEvent(McpAuthorizationRequiredEvent event) {
			this.requests.add(event.getRequest());
		}

	}

	/**
	 * What a replica of a fleet on one database defines: the tokens in the database, and
	 * a lock registry on it.
	 */
	@Configuration(proxyBeanMethods = false)
	static class Replica {

		@Bean
		OAuth2AuthorizedClientService authorizedClientService(DataSource database,
				ClientRegistrationRepository registrations) {
			return new JdbcOAuth2AuthorizedClientService(new JdbcTemplate(database), registrations);
		}

		@Bean
		DataSourceTransactionManager transactionManager(DataSource database) {
			return new DataSourceTransactionManager(database);
		}

		@Bean
		DefaultLockRepository lockRepository(DataSource database) {
			return new DefaultLockRepository(database);
		}

		@Bean
		JdbcLockRegistry lockRegistry(DefaultLockRepository locks) {
			// its own default time to live, shorter than a renewal may take
			return new JdbcLockRegistry(locks);
		}

	}

}
