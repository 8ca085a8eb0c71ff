package io.github.mcpsupervisor.transport.internal.http.authorization;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.URLDecoder;
import java.net.http.HttpClient;
import java.net.http.HttpHeaders;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
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
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.Lock;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Function;

import com.sun.net.httpserver.HttpServer;
import io.github.mcpsupervisor.authorization.JdbcMcpAuthorizationStore;
import io.github.mcpsupervisor.authorization.McpAuthorizationException;
import io.github.mcpsupervisor.authorization.McpAuthorizationRequest;
import io.github.mcpsupervisor.authorization.McpAuthorizationStore;
import io.github.mcpsupervisor.authorization.McpUserAuthorizationException;
import io.github.mcpsupervisor.internal.Caller;
import io.github.mcpsupervisor.supervisor.VirtualScheduler;
import io.github.mcpsupervisor.transport.internal.http.HttpAuthorization;
import io.github.mcpsupervisor.transport.internal.http.authorization.ServerAuthorization.Surroundings;
import io.github.mcpsupervisor.transport.internal.http.authorization.UserAuthorization.Identity;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import org.springframework.core.io.ClassPathResource;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.DriverManagerDataSource;
import org.springframework.jdbc.datasource.init.ResourceDatabasePopulator;
import org.springframework.security.oauth2.client.OAuth2AuthorizedClient;
import org.springframework.security.oauth2.client.OAuth2AuthorizedClientService;
import org.springframework.security.oauth2.client.registration.ClientRegistration;
import org.springframework.security.oauth2.client.registration.InMemoryClientRegistrationRepository;
import org.springframework.security.oauth2.core.AuthorizationGrantType;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

/**
 * Tests for {@link UserAuthorization}: each user's token on that user's requests, the
 * application's identity on the supervisor's own, requests bound to their user, renewals
 * per user chain shared by replicas (the JDBC store on H2), against an authorization
 * server on loopback that rotates refresh tokens.
 */
class UserAuthorizationTests {

	private static final HttpHeaders NONE = HttpHeaders.of(Map.of(), (name, value) -> true);

	private static final HttpAuthorization APPLICATION = new HttpAuthorization() {

		@Override
		public String authorization() {
			return "Bearer application";
		}

		@Override
		public boolean refused(int status, HttpHeaders headers, @Nullable String sent) {
			return false;
		}

	};

	private final VirtualScheduler time = new VirtualScheduler();

	private final List<McpAuthorizationRequest> requested = new CopyOnWriteArrayList<>();

	// the lock of each token chain, shared by the replicas of a test
	private final Map<String, Lock> locks = new ConcurrentHashMap<>();

	// the authorization server: each user's chain, refresh tokens used once
	private final Map<String, Integer> chains = new ConcurrentHashMap<>();

	private final Set<String> usedRefreshTokens = ConcurrentHashMap.newKeySet();

	private final List<String> grants = new CopyOnWriteArrayList<>();

	private final List<String> revoked = new CopyOnWriteArrayList<>();

	private final AtomicInteger reuses = new AtomicInteger();

	private volatile long expiresIn = 3600;

	private volatile boolean refuseRefresh;

	private volatile @Nullable CountDownLatch holdRefresh;

	private final CountDownLatch refreshArrived = new CountDownLatch(1);

	private McpAuthorizationStore store;

	private DriverManagerDataSource dataSource;

	private boolean stopped;

	private ClientRegistration registration;

	private InMemoryClientRegistrationRepository registrations;

	private OAuth2AuthorizedClientService clients;

	private HttpServer server;

	@BeforeEach
	void setUp() throws IOException {
		// the token responses are dated by the system's clock
		this.time.advance(Duration.between(this.time.clock().instant(), Instant.now()));
		DriverManagerDataSource dataSource = new DriverManagerDataSource(
				"jdbc:h2:mem:" + UUID.randomUUID() + ";DB_CLOSE_DELAY=-1");
		new ResourceDatabasePopulator(new ClassPathResource("io/github/mcpsupervisor/authorization/schema-h2.sql"))
			.execute(dataSource);
		this.dataSource = dataSource;
		this.store = new JdbcMcpAuthorizationStore(new JdbcTemplate(dataSource), this.time.clock());
		this.server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
		this.server.createContext("/", (exchange) -> {
			Map<String, String> form = form(
					new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8));
			String path = exchange.getRequestURI().getRawPath();
			int status = 200;
			String body = "{}";
			if (path.equals("/revoke")) {
				this.revoked.add(form.get("token"));
			}
			else if ("authorization_code".equals(form.get("grant_type"))) {
				// the code names the user who authorized
				String user = form.get("code");
				this.grants.add("code:" + user);
				body = tokens(user, this.chains.merge(user, 1, Integer::sum));
			}
			else if ("refresh_token".equals(form.get("grant_type"))) {
				String refreshToken = form.get("refresh_token");
				CountDownLatch hold = this.holdRefresh;
				this.refreshArrived.countDown();
				if (hold != null) {
					hold(hold);
				}
				String user = refreshToken.substring("refresh-".length(), refreshToken.lastIndexOf('-'));
				this.grants.add("refresh:" + user);
				if (this.refuseRefresh || !this.usedRefreshTokens.add(refreshToken)) {
					if (!this.refuseRefresh) {
						this.reuses.incrementAndGet();
					}
					status = 400;
					body = "{\"error\":\"invalid_grant\"}";
				}
				else {
					body = tokens(user, this.chains.merge(user, 1, Integer::sum));
				}
			}
			byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
			exchange.getResponseHeaders().add("Content-Type", "application/json");
			exchange.sendResponseHeaders(status, bytes.length);
			try (OutputStream out = exchange.getResponseBody()) {
				out.write(bytes);
			}
		});
		this.server.start();
		String base = "http://127.0.0.1:" + this.server.getAddress().getPort();
		this.registration = ClientRegistration.withRegistrationId("drive")
			.clientId("app")
			.clientSecret("app-secret")
			.authorizationGrantType(AuthorizationGrantType.AUTHORIZATION_CODE)
			.authorizationUri(base + "/authorize")
			.tokenUri(base + "/token")
			.redirectUri("http://127.0.0.1:8080/authorized")
			.scope("mcp:read", "offline_access")
			.providerConfigurationMetadata(Map.of("revocation_endpoint", base + "/revoke"))
			.build();
		this.registrations = new InMemoryClientRegistrationRepository(this.registration);
		this.clients = this.store.authorizedClients(this.registrations);
	}

	@AfterEach
	void stop() {
		if (!this.stopped) {
			this.server.stop(0);
		}
	}

	// a lifetime from the virtual time: the client dates the response by the system's
	private String tokens(String user, int generation) {
		long ahead = Duration.between(Instant.now(), this.time.clock().instant()).toSeconds();
		return "{\"access_token\":\"tok-" + user + "-" + generation + "\",\"token_type\":\"Bearer\",\"expires_in\":"
				+ (this.expiresIn + ahead) + ",\"scope\":\"mcp:read offline_access\",\"refresh_token\":\"refresh-"
				+ user + "-" + generation + "\"}";
	}

	private UserAuthorization replica() {
		return replica(new Identity(APPLICATION, false, false));
	}

	private UserAuthorization replica(Identity application) {
		Function<String, Lock> chainLocks = (key) -> this.locks.computeIfAbsent(key, (k) -> new ReentrantLock());
		return UserAuthorization.registered("drive", URI.create("http://127.0.0.1:1/mcp"), this.registrations, "drive",
				this.clients, HttpClient.newHttpClient(), Duration.ofSeconds(5), chainLocks, application,
				new Surroundings(this.store, this.time, Duration.ofSeconds(2), this.requested::add));
	}

	// The user connects through the request made for them: the code names them.
	private void connect(UserAuthorization authorization, String user) {
		McpAuthorizationRequest request = authorization.connect(user);
		authorization.complete(state(request), user, null, user);
	}

	@Test
	void eachUsersRequestCarriesThatUsersTokenAndTheSupervisorsOwnTheApplications() {
		UserAuthorization authorization = replica();
		connect(authorization, "ada");
		connect(authorization, "grace");
		assertThat(authorization.authorization(Caller.of("ada"))).isEqualTo("Bearer tok-ada-1");
		assertThat(authorization.authorization(Caller.of("grace"))).isEqualTo("Bearer tok-grace-1");
		assertThat(authorization.authorization(null)).isEqualTo("Bearer application");
		assertThat(authorization.authorization()).isEqualTo("Bearer application");
		assertThat(this.grants).containsExactly("code:ada", "code:grace");
		assertThat(authorization.pending()).isEmpty();
	}

	@Test
	void aUserWithoutATokenIsAskedOnceWithARequestBoundToThem() {
		UserAuthorization authorization = replica();
		assertThatExceptionOfType(McpUserAuthorizationException.class)
			.isThrownBy(() -> authorization.authorization(Caller.of("ada")))
			.withMessage("MCP server 'drive' needs you to connect your account")
			.satisfies((ex) -> assertThat(ex.getRequest()).hasValueSatisfying((request) -> {
				assertThat(request.user()).isEqualTo("ada");
				assertThat(request.scopes()).containsExactly("mcp:read", "offline_access");
			}))
			.satisfies((ex) -> assertThat(ex.forModel()).doesNotContain("http"));
		assertThatExceptionOfType(McpUserAuthorizationException.class)
			.isThrownBy(() -> authorization.authorization(Caller.of("ada")));
		assertThat(this.requested).singleElement().satisfies((request) -> assertThat(request.user()).isEqualTo("ada"));
		assertThat(authorization.pending("ada")).contains(this.requested.get(0));
		assertThat(authorization.pending("grace")).isEmpty();
		assertThat(authorization.pending()).isEmpty();
	}

	@Test
	void theModelGetsTheLinkOnlyWhenTheServerSaysSo() {
		UserAuthorization authorization = replica(new Identity(APPLICATION, false, true));
		assertThatExceptionOfType(McpUserAuthorizationException.class)
			.isThrownBy(() -> authorization.authorization(Caller.of("ada")))
			.satisfies((ex) -> assertThat(ex.forModel()).startsWith(ex.getMessage() + ": http://127.0.0.1:"));
	}

	@Test
	void aRequestForNoUserIsRefusedUnlessTheApplicationsIdentityServesIt() {
		assertThatExceptionOfType(McpUserAuthorizationException.class)
			.isThrownBy(() -> replica().authorization(Caller.NO_USER))
			.withMessageContaining("this request was made for no user")
			.satisfies((ex) -> assertThat(ex.getRequest()).isEmpty());
		assertThat(replica(new Identity(APPLICATION, true, false)).authorization(Caller.NO_USER))
			.isEqualTo("Bearer application");
		assertThat(replica(new Identity(HttpAuthorization.NONE, true, false)).authorization(Caller.NO_USER)).isNull();
	}

	@Test
	void onlyTheUserARequestWasMadeForCompletesIt() {
		UserAuthorization authorization = replica();
		McpAuthorizationRequest request = authorization.connect("ada");
		assertThatExceptionOfType(McpAuthorizationException.class)
			.isThrownBy(() -> authorization.complete(state(request), "grace", null, "grace"))
			.withMessageContaining("was made for another user");
		assertThatExceptionOfType(McpAuthorizationException.class)
			.isThrownBy(() -> authorization.complete(state(request), "ada", null));
		assertThat(this.grants).isEmpty(); // no code exchanged
		assertThat(authorization.pending("ada")).contains(request);
		authorization.complete(state(request), "ada", null, "ada");
		assertThat(authorization.pending("ada")).isEmpty();
		assertThat(authorization.awaits(state(request))).isFalse();
	}

	@Test
	void aServersOwnRequestIsNotAUsers() {
		UserAuthorization authorization = replica();
		McpAuthorizationRequest request = authorization.connect("ada");
		assertThat(authorization.awaits(state(request))).isTrue();
		assertThat(authorization.awaits("another-state")).isFalse();
	}

	@Test
	void renewalsArePerUserChainAndOncePerChainForTheFleet() throws Exception {
		this.expiresIn = 600;
		UserAuthorization first = replica();
		UserAuthorization second = replica();
		connect(first, "ada");
		connect(first, "grace");
		assertThat(second.authorization(Caller.of("ada"))).isEqualTo("Bearer tok-ada-1");
		this.time.advance(Duration.ofSeconds(560)); // within the renewal margin
		// both replicas renew ada's token at once: one refresh, the other uses it
		CountDownLatch hold = new CountDownLatch(1);
		this.holdRefresh = hold;
		ExecutorService threads = Executors.newFixedThreadPool(2);
		try {
			Future<String> a = threads.submit(() -> first.authorization(Caller.of("ada")));
			assertThat(this.refreshArrived.await(10, TimeUnit.SECONDS)).isTrue();
			Future<String> b = threads.submit(() -> second.authorization(Caller.of("ada")));
			ReentrantLock chain = (ReentrantLock) this.locks.get(UserAuthorization.lockKey("drive", "ada"));
			await().until(chain::hasQueuedThreads);
			hold.countDown();
			assertThat(a.get()).isEqualTo("Bearer tok-ada-2");
			assertThat(b.get()).isEqualTo("Bearer tok-ada-2");
		}
		finally {
			hold.countDown();
			threads.shutdownNow();
		}
		assertThat(this.grants).containsExactly("code:ada", "code:grace", "refresh:ada");
		assertThat(first.renewals() + second.renewals()).isOne();
		assertThat(first.alreadyRenewed() + second.alreadyRenewed()).isOne();
		assertThat(this.reuses).hasValue(0);
		assertThat(first.authorization(Caller.of("grace"))).isEqualTo("Bearer tok-grace-2");
		assertThat(this.locks).containsOnlyKeys(UserAuthorization.lockKey("drive", "ada"),
				UserAuthorization.lockKey("drive", "grace"));
	}

	@Test
	void aRefusedRefreshTokenAsksTheUserAgainAndNoOneElse() {
		this.expiresIn = 600;
		UserAuthorization authorization = replica();
		connect(authorization, "ada");
		connect(authorization, "grace");
		this.time.advance(Duration.ofSeconds(560));
		this.refuseRefresh = true;
		assertThatExceptionOfType(McpUserAuthorizationException.class)
			.isThrownBy(() -> authorization.authorization(Caller.of("ada")))
			.withMessage("MCP server 'drive' needs you to connect your account again");
		assertThat(this.clients.<OAuth2AuthorizedClient>loadAuthorizedClient("drive", "ada")).isNull();
		assertThat(this.requested).singleElement().satisfies((request) -> assertThat(request.user()).isEqualTo("ada"));
		assertThat(this.clients.<OAuth2AuthorizedClient>loadAuthorizedClient("drive", "grace")).isNotNull();
	}

	@Test
	void anAuthorizationServerThatCannotBeReachedFailsTheUsersRequestOnly() {
		this.expiresIn = 600;
		UserAuthorization authorization = replica();
		connect(authorization, "ada");
		this.time.advance(Duration.ofSeconds(560));
		this.server.stop(0);
		this.stopped = true;
		assertThatExceptionOfType(McpUserAuthorizationException.class)
			.isThrownBy(() -> authorization.authorization(Caller.of("ada")))
			.withMessageContaining("cannot be reached now");
		assertThat(this.clients.<OAuth2AuthorizedClient>loadAuthorizedClient("drive", "ada")).isNotNull();
		assertThat(this.requested).isEmpty();
	}

	@Test
	void aRefusalOfAUsersTokenRenewsThatUsersTokenOnce() {
		UserAuthorization authorization = replica();
		connect(authorization, "ada");
		connect(authorization, "grace");
		// a token the server took for a while, then refuses (revoked at the resource)
		this.time.advance(Duration.ofMinutes(2));
		assertThat(authorization.refused(401, NONE, "Bearer tok-ada-1", Caller.of("ada"))).isTrue();
		assertThat(authorization.authorization(Caller.of("ada"))).isEqualTo("Bearer tok-ada-2");
		assertThat(authorization.authorization(Caller.of("grace"))).isEqualTo("Bearer tok-grace-1");
		// a refusal of a token renewed since is sent again as it is
		assertThat(authorization.refused(401, NONE, "Bearer tok-ada-1", Caller.of("ada"))).isTrue();
		assertThat(this.grants).containsExactly("code:ada", "code:grace", "refresh:ada");
		// the supervisor's own requests are the application's identity's
		assertThat(authorization.refused(401, NONE, "Bearer application", null)).isFalse();
	}

	@Test
	void aUsersTokenRefusedAgainAfterItsRenewalAsksThatUserAgain() {
		UserAuthorization authorization = replica();
		connect(authorization, "ada");
		RuntimeException failure = authorization.refusedFor(401, Caller.of("ada"));
		assertThat(failure).isInstanceOf(McpUserAuthorizationException.class)
			.hasMessage("MCP server 'drive' refuses your token: connect your account again");
		assertThat(authorization.pending("ada")).isPresent();
		assertThat(authorization.refusedFor(401, Caller.NO_USER)).isNull();
		assertThat(authorization.refusedFor(403, Caller.of("ada")))
			.hasMessage("MCP server 'drive' refuses this request for your account (HTTP 403)");
	}

	@Test
	void aScopeTheServerAsksForAsksThatUserForIt() {
		UserAuthorization authorization = replica();
		connect(authorization, "ada");
		assertThatExceptionOfType(McpUserAuthorizationException.class)
			.isThrownBy(() -> authorization.refused(403, challenge("mcp:admin"), "Bearer tok-ada-1", Caller.of("ada")))
			.withMessage("MCP server 'drive' needs more access from your account (mcp:admin): connect it again")
			.satisfies((ex) -> assertThat(ex.getRequest().orElseThrow().scopes()).containsExactly("mcp:read",
					"offline_access", "mcp:admin"));
		// a challenge that names no scope the token lacks is a refusal
		assertThatExceptionOfType(McpUserAuthorizationException.class)
			.isThrownBy(() -> authorization.refused(403, challenge("mcp:read"), "Bearer tok-ada-1", Caller.of("ada")))
			.withMessageContaining("refuses this request for your account");
		// the token in hand still serves
		assertThat(authorization.authorization(Caller.of("ada"))).isEqualTo("Bearer tok-ada-1");
	}

	@Test
	void disconnectingRevokesAndForgetsTheUsersTokens() {
		UserAuthorization authorization = replica();
		connect(authorization, "ada");
		connect(authorization, "grace");
		assertThat(authorization.disconnect("ada")).isTrue();
		assertThat(this.revoked).containsExactly("refresh-ada-1", "tok-ada-1");
		assertThatExceptionOfType(McpUserAuthorizationException.class)
			.isThrownBy(() -> authorization.authorization(Caller.of("ada")));
		assertThat(authorization.authorization(Caller.of("grace"))).isEqualTo("Bearer tok-grace-1");
		assertThat(authorization.disconnect("nobody")).isFalse();
	}

	@Test
	void aDisconnectThroughOneReplicaIsSeenByTheOthersWithinTheWatchInterval() {
		UserAuthorization first = replica();
		UserAuthorization second = replica();
		connect(first, "ada");
		assertThat(second.authorization(Caller.of("ada"))).isEqualTo("Bearer tok-ada-1");
		assertThat(first.disconnect("ada")).isTrue();
		this.time.advance(Duration.ofSeconds(2));
		assertThatExceptionOfType(McpUserAuthorizationException.class)
			.isThrownBy(() -> second.authorization(Caller.of("ada")))
			.withMessage("MCP server 'drive' needs you to connect your account");
	}

	@Test
	void aTokenRefusedAsSoonAsItWasIssuedIsNotRenewedAndTheUserKeepsTheirConnection() {
		UserAuthorization authorization = replica();
		connect(authorization, "ada");
		assertThatExceptionOfType(McpUserAuthorizationException.class)
			.isThrownBy(() -> authorization.refused(401, NONE, "Bearer tok-ada-1", Caller.of("ada")))
			.withMessage("MCP server 'drive' refuses your token: connect your account again");
		assertThat(this.grants).containsExactly("code:ada");
		assertThat(this.clients.<OAuth2AuthorizedClient>loadAuthorizedClient("drive", "ada")).isNotNull();
		assertThat(authorization.refusedFor(401, Caller.of("ada"))).isInstanceOf(McpUserAuthorizationException.class);
		assertThat(this.clients.<OAuth2AuthorizedClient>loadAuthorizedClient("drive", "ada")).isNotNull();
	}

	@Test
	void aStoreThatCannotBeReadFailsTheUsersRequestWithoutQuotingIt() {
		UserAuthorization authorization = replica();
		new JdbcTemplate(this.dataSource).execute("DROP TABLE oauth2_authorized_client");
		assertThatExceptionOfType(McpUserAuthorizationException.class)
			.isThrownBy(() -> authorization.authorization(Caller.of("ada")))
			.withMessage(
					"the authorization of your account for MCP server 'drive' cannot be read now; try again later");
		assertThatExceptionOfType(McpUserAuthorizationException.class)
			.isThrownBy(() -> authorization.refused(401, NONE, "Bearer tok-ada-1", Caller.of("ada")))
			.withMessageContaining("cannot be read now");
	}

	@Test
	void aUserWhoseNameTheStoresCannotKeepIsToldSo() {
		String user = "u".repeat(201);
		assertThatExceptionOfType(McpUserAuthorizationException.class)
			.isThrownBy(() -> replica().authorization(Caller.of(user)))
			.withMessageContaining("longer than 200 characters")
			.withMessageNotContaining(user);
		assertThat(replica().connect("u".repeat(200)).user()).hasSize(200);
	}

	@Test
	void noTwoUsersShareTheKeyOfTheirTokenChain() {
		assertThat(UserAuthorization.lockKey("a", "b:user:c")).isNotEqualTo(UserAuthorization.lockKey("a:user:b", "c"))
			.doesNotContain("b:user:c");
	}

	@Test
	void aServerActingForEachUserTakesAnAuthorizationCodeRegistrationOnly() {
		InMemoryClientRegistrationRepository services = new InMemoryClientRegistrationRepository(
				ClientRegistration.withRegistrationId("drive")
					.clientId("app")
					.authorizationGrantType(AuthorizationGrantType.CLIENT_CREDENTIALS)
					.tokenUri("http://127.0.0.1:1/token")
					.build());
		assertThatExceptionOfType(IllegalStateException.class)
			.isThrownBy(() -> UserAuthorization.registered("drive", URI.create("http://127.0.0.1:1/mcp"), services,
					"drive", this.clients, HttpClient.newHttpClient(), Duration.ofSeconds(1),
					(key) -> new ReentrantLock(), new Identity(HttpAuthorization.NONE, false, false),
					new Surroundings(this.store, this.time, Duration.ofSeconds(2), this.requested::add)))
			.withMessageContaining("acts for each user")
			.withMessageContaining("client_credentials");
	}

	private static HttpHeaders challenge(String scope) {
		return HttpHeaders.of(
				Map.of("WWW-Authenticate", List.of("Bearer error=\"insufficient_scope\", scope=\"" + scope + "\"")),
				(name, value) -> true);
	}

	private static Map<String, String> form(String body) {
		Map<String, String> form = new HashMap<>();
		for (String pair : body.split("&")) {
			int equals = pair.indexOf('=');
			if (equals > 0) {
				form.put(URLDecoder.decode(pair.substring(0, equals), StandardCharsets.UTF_8),
						URLDecoder.decode(pair.substring(equals + 1), StandardCharsets.UTF_8));
			}
		}
		return form;
	}

	private static void hold(CountDownLatch latch) {
		try {
			latch.await();
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
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
