package io.github.mcpsupervisor.transport.internal.http.authorization;

import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.URLDecoder;
import java.net.http.HttpClient;
import java.net.http.HttpHeaders;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Supplier;

import com.sun.net.httpserver.HttpServer;
import io.github.mcpsupervisor.authorization.JdbcMcpAuthorizationStore;
import io.github.mcpsupervisor.authorization.McpAuthorizationRequest;
import io.github.mcpsupervisor.authorization.McpAuthorizationStore;
import io.github.mcpsupervisor.authorization.McpAuthorizationStore.DynamicClient;
import io.github.mcpsupervisor.authorization.McpAuthorizationStore.PendingAuthorization;
import io.github.mcpsupervisor.supervisor.VirtualScheduler;
import io.github.mcpsupervisor.transport.internal.http.AuthorizationRequiredException;
import io.github.mcpsupervisor.transport.internal.http.authorization.ServerAuthorization.Surroundings;
import io.modelcontextprotocol.json.McpJsonDefaults;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import org.springframework.core.io.ClassPathResource;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.DriverManagerDataSource;
import org.springframework.jdbc.datasource.init.ResourceDatabasePopulator;
import org.springframework.security.authentication.UsernamePasswordAuthenticationToken;
import org.springframework.security.oauth2.client.OAuth2AuthorizedClient;
import org.springframework.security.oauth2.client.OAuth2AuthorizedClientService;
import org.springframework.security.oauth2.client.registration.ClientRegistration;
import org.springframework.security.oauth2.client.registration.InMemoryClientRegistrationRepository;
import org.springframework.security.oauth2.core.AuthorizationGrantType;
import org.springframework.security.oauth2.core.OAuth2AccessToken;
import org.springframework.security.oauth2.core.OAuth2RefreshToken;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * Tests for {@link ServerAuthorization} of replicas on one store (the JDBC store on H2),
 * against an authorization server on loopback whose token endpoint answers
 * {@code tok-<scopes>} for the scopes asked, or a refusal: step-ups, discoveries and
 * completions spread over replicas, and the watch's end.
 */
class FleetAuthorizationTests {

	private static final Duration WATCH = Duration.ofSeconds(2);

	private static final HttpHeaders NONE = HttpHeaders.of(Map.of(), (name, value) -> true);

	private final VirtualScheduler time = new VirtualScheduler();

	private final List<McpAuthorizationRequest> requested = new CopyOnWriteArrayList<>();

	private final Map<String, String> documents = new ConcurrentHashMap<>();

	private McpAuthorizationStore store;

	private ClientRegistration registration;

	private InMemoryClientRegistrationRepository registrations;

	private OAuth2AuthorizedClientService clients;

	private HttpServer server;

	private volatile long expiresIn = 3600;

	private volatile String tokenError;

	private final AtomicInteger registered = new AtomicInteger();

	private String base;

	@BeforeEach
	void setUp() throws IOException {
		DriverManagerDataSource dataSource = new DriverManagerDataSource(
				"jdbc:h2:mem:" + UUID.randomUUID() + ";DB_CLOSE_DELAY=-1");
		new ResourceDatabasePopulator(new ClassPathResource("io/github/mcpsupervisor/authorization/schema-h2.sql"))
			.execute(dataSource);
		this.store = new JdbcMcpAuthorizationStore(new JdbcTemplate(dataSource), this.time.clock());
		this.registration = ClientRegistration.withRegistrationId("people")
			.clientId("app")
			.authorizationGrantType(AuthorizationGrantType.AUTHORIZATION_CODE)
			.authorizationUri("http://127.0.0.1:1/authorize")
			.tokenUri("http://127.0.0.1:1/token")
			.redirectUri("http://127.0.0.1:8080/authorized")
			.scope("mcp:read", "offline_access")
			.build();
		this.registrations = new InMemoryClientRegistrationRepository(this.registration);
		this.clients = this.store.authorizedClients(this.registrations);
		this.server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
		this.server.createContext("/", (exchange) -> {
			String path = exchange.getRequestURI().getRawPath();
			String body = this.documents.getOrDefault(path, "{}");
			int status = this.documents.containsKey(path) ? 200 : 404;
			if (path.equals("/token") && this.tokenError != null) {
				exchange.getRequestBody().readAllBytes();
				body = "{\"error\":\"" + this.tokenError + "\"}";
				status = 401;
			}
			else if (path.equals("/token")) {
				String form = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
				String scope = "";
				for (String pair : form.split("&")) {
					if (pair.startsWith("scope=")) {
						scope = URLDecoder.decode(pair.substring(6), StandardCharsets.UTF_8);
					}
				}
				body = "{\"access_token\":\"tok-" + scope.replace(' ', '+')
						+ "\",\"token_type\":\"Bearer\",\"expires_in\":" + this.expiresIn + ",\"scope\":\"" + scope
						+ "\",\"refresh_token\":\"refresh-" + this.registered.get() + "\"}";
				status = 200;
			}
			else if (path.equals("/register")) {
				exchange.getRequestBody().readAllBytes();
				body = "{\"client_id\":\"dynamic-" + this.registered.incrementAndGet() + "\"}";
				status = 201;
			}
			byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
			exchange.getResponseHeaders().add("Content-Type", "application/json");
			exchange.sendResponseHeaders(status, bytes.length);
			try (OutputStream out = exchange.getResponseBody()) {
				out.write(bytes);
			}
		});
		this.server.start();
		this.base = "http://127.0.0.1:" + this.server.getAddress().getPort();
		this.documents.put("/.well-known/oauth-protected-resource/mcp", "{\"resource\":\"" + this.base
				+ "/mcp\",\"authorization_servers\":[\"" + this.base + "/as\"],\"scopes_supported\":[\"mcp:read\"]}");
	}

	@AfterEach
	void stop() {
		this.server.stop(0);
	}

	private ServerAuthorization registeredReplica() {
		return ServerAuthorization.registered("remote", URI.create("http://127.0.0.1:1/mcp"), this.registrations,
				"people", this.clients, HttpClient.newHttpClient(), Duration.ofSeconds(2), new ReentrantLock(),
				new Surroundings(this.store, this.time, WATCH, this.requested::add));
	}

	private ServerAuthorization discoveredReplica() {
		return ServerAuthorization.discovered("remote", URI.create(this.base + "/mcp"),
				new DiscoverySettings(false, URI.create("http://127.0.0.1:8080/authorized"), null, null, null, "app",
						List.of(), null),
				McpJsonDefaults.getMapper(), HttpClient.newHttpClient(), Duration.ofSeconds(5), new ReentrantLock(),
				new Surroundings(this.store, this.time, WATCH, this.requested::add));
	}

	private void authorizationServer(String authorizationEndpoint) {
		this.documents.put("/.well-known/oauth-authorization-server/as",
				"{\"issuer\":\"" + this.base + "/as\",\"authorization_endpoint\":\"" + this.base + authorizationEndpoint
						+ "\",\"token_endpoint\":\"" + this.base + "/token\",\"registration_endpoint\":\"" + this.base
						+ "/register\",\"code_challenge_methods_supported\":[\"S256\"]}");
	}

	@Test
	void aReplicaThatDiscoversLaterKeepsTheFleetsRequestWhenTheEndpointHasAQuery() {
		// Azure AD B2C names its policy in the authorization endpoint's query
		authorizationServer("/as/authorize?p=b2c_1_signin");
		ServerAuthorization first = discoveredReplica();
		assertThatExceptionOfType(AuthorizationRequiredException.class)
			.isThrownBy(() -> first.refused(401, NONE, null));
		McpAuthorizationRequest asked = first.pending().orElseThrow();
		ServerAuthorization second = discoveredReplica();
		assertThatExceptionOfType(AuthorizationRequiredException.class)
			.isThrownBy(() -> second.refused(401, NONE, null));
		assertThat(this.requested).containsExactly(asked);
		assertThat(second.pending()).contains(asked);
	}

	@Test
	void stepUpsOfTwoReplicasForDifferentScopesAskThePersonForBoth() {
		ServerAuthorization a = registeredReplica();
		ServerAuthorization b = registeredReplica();
		save("in-hand");
		assertThat(a.refused(403, challenge("mcp:admin"), "Bearer in-hand")).isFalse();
		assertThat(b.refused(403, challenge("mcp:write"), "Bearer in-hand")).isFalse();
		assertThat(this.store.pending("remote").orElseThrow().scopes()).contains("mcp:read", "mcp:admin", "mcp:write");
		// the same step-up again, on either replica: the request kept is the one awaited
		assertThat(a.refused(403, challenge("mcp:admin"), "Bearer in-hand")).isFalse();
		assertThat(b.refused(403, challenge("mcp:write"), "Bearer in-hand")).isFalse();
		assertThat(this.requested).hasSize(2);
	}

	@Test
	void aStepUpLeavesNoWatchBehindWhileTheServerServesWithTheTokenInHand() {
		ServerAuthorization serving = registeredReplica();
		serving.whenAuthorized(() -> {
		});
		save("in-hand");
		assertThat(serving.refused(403, challenge("mcp:admin"), "Bearer in-hand")).isFalse();
		this.time.advance(Duration.ofHours(8));
		assertThat(serving.authorization()).isEqualTo("Bearer in-hand");
		assertThat(this.time.scheduledTasks()).isZero();
	}

	@Test
	void aTokenWithTheScopesGivenThroughAReplicaIsSentAgainInsteadOfAskingAgain() {
		ServerAuthorization a = registeredReplica();
		save("in-hand");
		assertThat(a.refused(403, challenge("mcp:admin"), "Bearer in-hand")).isFalse();
		save("with-admin", "mcp:read", "mcp:admin"); // the person gave them through
														// another replica
		assertThat(a.refused(403, challenge("mcp:admin"), "Bearer in-hand")).isTrue();
		assertThat(a.authorization()).isEqualTo("Bearer with-admin");
		assertThat(this.requested).hasSize(1);
	}

	@Test
	void aWaitingReplicaIsWokenByANewTokenNotByARequestReplacedAfterItExpired() {
		ServerAuthorization waiting = registeredReplica();
		AtomicInteger woken = new AtomicInteger();
		waiting.whenAuthorized(woken::incrementAndGet);
		assertThatExceptionOfType(AuthorizationRequiredException.class).isThrownBy(waiting::authorization);
		this.time.advance(ServerAuthorization.REQUEST_LIFETIME.plus(WATCH));
		McpAuthorizationRequest replaced = registeredReplica().pending().orElseThrow();
		this.time.advance(WATCH.multipliedBy(3));
		assertThat(woken).as("a replaced request is no authorization").hasValue(0);
		// the person completed it through a replica, whose server then asked for more
		// scopes at once: a request is kept, and the token serves all the same
		assertThat(this.store.complete("remote", state(replaced))).isTrue();
		save("from-the-person");
		registeredReplica().refused(403, challenge("mcp:admin"), "Bearer from-the-person");
		assertThat(this.store.pending("remote")).isPresent();
		this.time.advance(WATCH);
		assertThat(woken).hasValue(1);
		assertThat(this.time.scheduledTasks()).isZero();
	}

	@Test
	void aTokenReplacedWithoutTheScopesAskedForIsSteppedUpRatherThanSentAgain() {
		ServerAuthorization a = registeredReplica();
		save("renewed-by-a-replica"); // mcp:read only
		assertThat(a.refused(403, challenge("mcp:admin"), "Bearer in-hand")).isFalse();
		assertThat(this.requested).singleElement()
			.satisfies((request) -> assertThat(request.scopes()).contains("mcp:admin"));
	}

	@Test
	void aClientTheApplicationWasGivenIsNotRegisteredAgainWhenRefused() {
		authorizationServer("/as/authorize");
		this.time.advance(Duration.between(this.time.clock().instant(), Instant.now()));
		ServerAuthorization replica = ServerAuthorization.discovered("remote", URI.create(this.base + "/mcp"),
				new DiscoverySettings(false, URI.create("http://127.0.0.1:8080/authorized"), "given", "SECRET", null,
						"app", List.of(), this.base + "/as"),
				McpJsonDefaults.getMapper(), HttpClient.newHttpClient(), Duration.ofSeconds(5), new ReentrantLock(),
				new Surroundings(this.store, this.time, WATCH, this.requested::add));
		assertThatExceptionOfType(AuthorizationRequiredException.class)
			.isThrownBy(() -> replica.refused(401, NONE, null));
		replica.complete(this.store.pending("remote").orElseThrow().state(), "code", null);
		this.time.advance(Duration.ofHours(2));
		this.tokenError = "invalid_client"; // a wrong secret: no new registration helps
		assertThatExceptionOfType(AuthorizationRequiredException.class).isThrownBy(replica::authorization);
		assertThat(this.registered).hasValue(0);
	}

	@Test
	void aServerThatWaitsIsWatchedUntilTheApplicationStopsAndAgainOnceItStarts() {
		ServerAuthorization waiting = registeredReplica();
		waiting.whenAuthorized(() -> {
		});
		assertThatExceptionOfType(AuthorizationRequiredException.class).isThrownBy(waiting::authorization);
		this.time.advance(Duration.ofDays(1));
		assertThat(this.time.scheduledTasks()).as("watched while it waits").isOne();
		waiting.stop();
		assertThat(this.time.scheduledTasks()).as("no timer once stopped").isZero();
		this.time.advance(Duration.ofMinutes(1));
		assertThat(this.time.scheduledTasks()).isZero();
		waiting.start();
		assertThat(this.time.scheduledTasks()).isOne();
	}

	@Test
	void aReplicaThatHasNotDiscoveredYetCompletesTheFleetsRequest() {
		authorizationServer("/as/authorize");
		ServerAuthorization first = discoveredReplica();
		assertThatExceptionOfType(AuthorizationRequiredException.class)
			.isThrownBy(() -> first.refused(401, NONE, null));
		String state = this.store.pending("remote").orElseThrow().state();
		ServerAuthorization fresh = discoveredReplica();
		assertThat(fresh.awaits(state)).isTrue();
		fresh.complete(state, "code", null);
		assertThat(fresh.authorization()).startsWith("Bearer tok-");
		assertThat(this.registered).as("the client the first registered").hasValue(1);
	}

	@Test
	void aReplicaThatHasNotDiscoveredYetShowsNoExpiredRequest() {
		authorizationServer("/as/authorize");
		ServerAuthorization first = discoveredReplica();
		assertThatExceptionOfType(AuthorizationRequiredException.class)
			.isThrownBy(() -> first.refused(401, NONE, null));
		this.time.advance(ServerAuthorization.REQUEST_LIFETIME);
		assertThat(discoveredReplica().pending()).isEmpty();
	}

	@Test
	void aClientCredentialsStepUpSurvivesARenewalByAnotherReplica() {
		ClientRegistration service = ClientRegistration.withRegistrationId("svc")
			.clientId("svc")
			.clientSecret("SECRET")
			.authorizationGrantType(AuthorizationGrantType.CLIENT_CREDENTIALS)
			.tokenUri(this.base + "/token")
			.scope("mcp:read")
			.build();
		InMemoryClientRegistrationRepository repository = new InMemoryClientRegistrationRepository(service);
		OAuth2AuthorizedClientService tokens = this.store.authorizedClients(repository);
		Supplier<ServerAuthorization> replica = () -> ServerAuthorization.registered("remote",
				URI.create("http://127.0.0.1:1/mcp"), repository, "svc", tokens, HttpClient.newHttpClient(),
				Duration.ofSeconds(5), new ReentrantLock(),
				new Surroundings(this.store, this.time, WATCH, this.requested::add));
		// Spring Security dates a token response by the real clock
		this.time.advance(Duration.between(this.time.clock().instant(), Instant.now()));
		ServerAuthorization a = replica.get();
		ServerAuthorization b = replica.get();
		assertThat(a.authorization()).isEqualTo("Bearer tok-mcp:read");
		assertThat(a.refused(403, challenge("mcp:admin"), "Bearer tok-mcp:read")).isTrue();
		assertThat(a.authorization()).isEqualTo("Bearer tok-mcp:read+mcp:admin");
		this.time.advance(Duration.ofMinutes(61));
		this.expiresIn = 3600 + 3700;
		assertThat(b.authorization()).as("renewed by another replica").isEqualTo("Bearer tok-mcp:read+mcp:admin");
		assertThat(a.authorization()).isEqualTo("Bearer tok-mcp:read+mcp:admin");
	}

	@Test
	void aKeptClientThatTheAuthorizationServerNoLongerKnowsIsForgottenAndRegisteredAgain() {
		authorizationServer("/as/authorize");
		this.time.advance(Duration.between(this.time.clock().instant(), Instant.now()));
		ServerAuthorization replica = discoveredReplica();
		assertThatExceptionOfType(AuthorizationRequiredException.class)
			.isThrownBy(() -> replica.refused(401, NONE, null));
		replica.complete(this.store.pending("remote").orElseThrow().state(), "code", null);
		assertThat(this.store.dynamicClient("remote", this.base + "/as")).isPresent();
		this.time.advance(Duration.ofHours(2));
		this.tokenError = "invalid_client"; // its registrations lost
		assertThatExceptionOfType(UncheckedIOException.class).isThrownBy(replica::authorization)
			.withMessageContaining("no longer knows its client");
		assertThat(this.store.dynamicClient("remote", this.base + "/as")).isEmpty();
		this.tokenError = null;
		assertThat(replica.authorization()).as("found again at the next 401").isNull();
		assertThatExceptionOfType(AuthorizationRequiredException.class)
			.isThrownBy(() -> replica.refused(401, NONE, null));
		assertThat(this.registered).hasValue(2);
		assertThat(this.store.dynamicClient("remote", this.base + "/as")).get()
			.extracting(DynamicClient::clientId)
			.isEqualTo("dynamic-2");
	}

	@Test
	void replicasAskingAtOnceAgreeOnOneRequest() throws Exception {
		ExecutorService pool = Executors.newFixedThreadPool(8);
		try {
			for (int round = 0; round < 50; round++) {
				Instant now = this.time.clock().instant();
				String server = "s" + round;
				CountDownLatch go = new CountDownLatch(1);
				List<Future<String>> states = new ArrayList<>();
				for (int i = 0; i < 8; i++) {
					String state = "st-" + i;
					states.add(pool.submit(() -> {
						go.await();
						return this.store
							.awaitIfAbsent(new PendingAuthorization(server, "people", state, "v",
									URI.create("http://127.0.0.1:1/a?state=" + state),
									URI.create("http://127.0.0.1:1/r"), List.of("a"), now.plusSeconds(60)), now)
							.state();
					}));
				}
				go.countDown();
				Set<String> seen = new HashSet<>();
				for (Future<String> state : states) {
					seen.add(state.get());
				}
				assertThat(seen).hasSize(1);
			}
		}
		finally {
			pool.shutdownNow();
		}
	}

	@Test
	void replicasThatNeedAPersonAtOnceAskWithOneRequest() {
		ServerAuthorization first = registeredReplica();
		ServerAuthorization second = registeredReplica();
		assertThatExceptionOfType(AuthorizationRequiredException.class).isThrownBy(first::authorization);
		assertThatExceptionOfType(AuthorizationRequiredException.class).isThrownBy(second::authorization);
		assertThat(this.requested).hasSize(1);
		McpAuthorizationRequest asked = this.requested.get(0);
		assertThat(first.pending()).contains(asked);
		assertThat(second.pending()).contains(asked);
		String state = state(asked);
		assertThat(first.awaits(state)).isTrue();
		assertThat(second.awaits(state)).isTrue();
	}

	@Test
	void aReplicaWhoseServerWaitsConnectsOnceAnotherCompletedTheRequest() {
		ServerAuthorization waiting = registeredReplica();
		AtomicInteger woken = new AtomicInteger();
		waiting.whenAuthorized(woken::incrementAndGet);
		assertThatExceptionOfType(AuthorizationRequiredException.class).isThrownBy(waiting::authorization);
		McpAuthorizationRequest asked = waiting.pending().orElseThrow();
		this.time.advance(WATCH.multipliedBy(3));
		assertThat(woken).hasValue(0);
		completeElsewhere(asked);
		this.time.advance(WATCH);
		assertThat(woken).hasValue(1);
		assertThat(waiting.pending()).isEmpty();
		assertThat(waiting.authorization()).isEqualTo("Bearer completed-elsewhere");
		// quiescent once woken: no timer left
		assertThat(this.time.scheduledTasks()).isZero();
	}

	@Test
	void aReplicaStopsWatchingOnceNoSupervisorWaits() {
		ServerAuthorization waiting = registeredReplica();
		Runnable forget = waiting.whenAuthorized(() -> {
		});
		assertThatExceptionOfType(AuthorizationRequiredException.class).isThrownBy(waiting::authorization);
		assertThat(this.time.scheduledTasks()).isOne();
		forget.run(); // the server removed, or the application stopping
		this.time.advance(WATCH);
		assertThat(this.time.scheduledTasks()).isZero();
	}

	@Test
	void theStoreKeepsOneRequestPerServerUntilItExpires() {
		Instant now = this.time.clock().instant();
		PendingAuthorization first = pending("s-1", now.plusSeconds(60));
		assertThat(this.store.awaitIfAbsent(first, now)).isEqualTo(first);
		assertThat(this.store.awaitIfAbsent(pending("s-2", now.plusSeconds(60)), now)).isEqualTo(first);
		PendingAuthorization third = pending("s-3", now.plusSeconds(120));
		assertThat(this.store.awaitIfAbsent(third, now.plusSeconds(60))).as("the first expired").isEqualTo(third);
		assertThat(this.store.complete("remote", "s-1")).isFalse();
		assertThat(this.store.complete("remote", "s-3")).isTrue();
		assertThat(this.store.complete("remote", "s-3")).as("completed once").isFalse();
		assertThat(this.store.pending("remote")).isEmpty();
	}

	@Test
	void theStateShowsTheStoreAndTheLastRenewalOfTheFleet() {
		ServerAuthorization replica = registeredReplica();
		assertThat(replica.state().store()).isEqualTo("jdbc");
		assertThat(replica.state().renewedAt()).isNull();
		save("renewed");
		assertThat(replica.state().renewedAt()).isEqualTo(this.time.clock().instant());
		assertThat(replica.state().refreshable()).isTrue();
	}

	private PendingAuthorization pending(String state, Instant expiresAt) {
		return new PendingAuthorization("remote", "people", state, "verifier-" + state,
				URI.create("http://127.0.0.1:1/authorize?state=" + state),
				URI.create("http://127.0.0.1:8080/authorized"), List.of("mcp:read"), expiresAt);
	}

	// What a replica's completion leaves: the request gone, a new token.
	private void completeElsewhere(McpAuthorizationRequest request) {
		save("completed-elsewhere");
		assertThat(this.store.complete("remote", state(request))).isTrue();
	}

	private static HttpHeaders challenge(String scope) {
		return HttpHeaders.of(
				Map.of("WWW-Authenticate", List.of("Bearer error=\"insufficient_scope\", scope=\"" + scope + "\"")),
				(name, value) -> true);
	}

	private void save(String token) {
		save(token, "mcp:read");
	}

	private void save(String token, String... scopes) {
		Instant now = this.time.clock().instant();
		this.clients.saveAuthorizedClient(
				new OAuth2AuthorizedClient(this.registration, "mcp-server:remote",
						new OAuth2AccessToken(OAuth2AccessToken.TokenType.BEARER, token, now, now.plusSeconds(36000),
								Set.of(scopes)),
						new OAuth2RefreshToken("refresh-" + token, now)),
				UsernamePasswordAuthenticationToken.unauthenticated("mcp-server:remote", null));
	}

	private static String state(McpAuthorizationRequest request) {
		for (String parameter : request.authorizationUri().getRawQuery().split("&")) {
			if (parameter.startsWith("state=")) {
				return URLDecoder.decode(parameter.substring(6), StandardCharsets.UTF_8);
			}
		}
		throw new IllegalStateException("no state in " + request.authorizationUri());
	}

}
