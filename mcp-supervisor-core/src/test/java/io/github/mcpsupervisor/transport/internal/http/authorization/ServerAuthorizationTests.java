package io.github.mcpsupervisor.transport.internal.http.authorization;

import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpHeaders;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Lock;
import java.util.concurrent.locks.ReentrantLock;

import com.sun.net.httpserver.HttpServer;
import io.github.mcpsupervisor.authorization.InMemoryMcpAuthorizationStore;
import io.github.mcpsupervisor.authorization.McpAuthorizationException;
import io.github.mcpsupervisor.authorization.McpAuthorizationRequest;
import io.github.mcpsupervisor.authorization.McpAuthorizationStore;
import io.github.mcpsupervisor.supervisor.McpConnector.McpConnectException.Kind;
import io.github.mcpsupervisor.supervisor.VirtualScheduler;
import io.github.mcpsupervisor.transport.internal.http.AuthorizationConfigurationException;
import io.github.mcpsupervisor.transport.internal.http.AuthorizationRequiredException;
import io.github.mcpsupervisor.transport.internal.http.authorization.ServerAuthorization.Surroundings;
import io.modelcontextprotocol.json.McpJsonDefaults;
import org.junit.jupiter.api.Test;

import org.springframework.security.authentication.UsernamePasswordAuthenticationToken;
import org.springframework.security.oauth2.client.InMemoryOAuth2AuthorizedClientService;
import org.springframework.security.oauth2.client.OAuth2AuthorizedClient;
import org.springframework.security.oauth2.client.registration.ClientRegistration;
import org.springframework.security.oauth2.client.registration.InMemoryClientRegistrationRepository;
import org.springframework.security.oauth2.core.AuthorizationGrantType;
import org.springframework.security.oauth2.core.OAuth2AccessToken;
import org.springframework.web.util.UriComponentsBuilder;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.catchThrowable;

/**
 * Tests for {@link ServerAuthorization} where no authorization server is needed: what a
 * person is asked, and when. Nothing listens at the URLs.
 */
class ServerAuthorizationTests {

	private final List<McpAuthorizationRequest> requested = new CopyOnWriteArrayList<>();

	private final VirtualScheduler time = new VirtualScheduler();

	private final Clock clock = this.time.clock();

	private Lock lock = new ReentrantLock();

	private McpAuthorizationStore store = new InMemoryMcpAuthorizationStore();

	private InMemoryOAuth2AuthorizedClientService clients;

	private ClientRegistration registration;

	private ServerAuthorization authorization(AuthorizationGrantType grant, String... scopes) {
		return authorization("http://127.0.0.1:1/token", grant, scopes);
	}

	private ServerAuthorization authorization(String tokenUri, AuthorizationGrantType grant, String... scopes) {
		ClientRegistration.Builder builder = ClientRegistration.withRegistrationId("people")
			.clientId("app")
			.clientSecret("SECRET-12")
			.authorizationGrantType(grant)
			.tokenUri(tokenUri);
		if (scopes.length > 0) {
			// as a registration that names none: no scope() (Spring Security 7.0 keeps
			// its scopes null then, 7.1 empty)
			builder.scope(scopes);
		}
		if (grant.equals(AuthorizationGrantType.AUTHORIZATION_CODE)) {
			builder.authorizationUri("http://127.0.0.1:1/authorize").redirectUri("http://127.0.0.1:8080/authorized");
		}
		this.registration = builder.build();
		InMemoryClientRegistrationRepository registrations = new InMemoryClientRegistrationRepository(
				this.registration);
		this.clients = new InMemoryOAuth2AuthorizedClientService(registrations);
		return ServerAuthorization.registered("remote", URI.create("http://127.0.0.1:1/mcp"), registrations, "people",
				this.clients, HttpClient.newHttpClient(), Duration.ofSeconds(2), this.lock, surroundings());
	}

	private Surroundings surroundings() {
		return new Surroundings(this.store, this.time, Duration.ofSeconds(2), this.requested::add);
	}

	@Test
	void aValidTokenIsSentWithoutTheLockThatOnlyRenewalsTake() {
		// replicas may share the lock: a request must not wait for it, nor for the others
		List<String> locked = new CopyOnWriteArrayList<>();
		this.lock = new ReentrantLock() {

			@Override
			public void lock() {
				locked.add("lock");
				super.lock();
			}

		};
		ServerAuthorization authorization = authorization(AuthorizationGrantType.CLIENT_CREDENTIALS, "mcp:read");
		Instant now = this.clock.instant();
		this.clients
			.saveAuthorizedClient(
					new OAuth2AuthorizedClient(this.registration, "mcp-server:remote",
							new OAuth2AccessToken(OAuth2AccessToken.TokenType.BEARER, "t-4711", now,
									now.plusSeconds(300))),
					new UsernamePasswordAuthenticationToken("mcp-server:remote", null));
		assertThat(authorization.authorization()).isEqualTo("Bearer t-4711");
		assertThat(locked).isEmpty();
		this.time.advance(Duration.ofSeconds(241));
		// within the renewal margin: the renewal takes the lock (and fails here, no
		// authorization server listening)
		assertThat(catchThrowable(authorization::authorization)).isNotNull();
		assertThat(locked).hasSize(1);
	}

	@Test
	void aTokenThatLivesSecondsIsRenewedOncePerLifetimeNotBeforeEveryRequest() {
		List<String> locked = new CopyOnWriteArrayList<>();
		this.lock = new ReentrantLock() {

			@Override
			public void lock() {
				locked.add("lock");
				super.lock();
			}

		};
		ServerAuthorization authorization = authorization(AuthorizationGrantType.CLIENT_CREDENTIALS, "mcp:read");
		Instant now = this.clock.instant();
		this.clients.saveAuthorizedClient(
				new OAuth2AuthorizedClient(this.registration, "mcp-server:remote",
						new OAuth2AccessToken(OAuth2AccessToken.TokenType.BEARER, "t-8s", now, now.plusSeconds(8))),
				new UsernamePasswordAuthenticationToken("mcp-server:remote", null));
		assertThat(authorization.authorization()).isEqualTo("Bearer t-8s");
		this.time.advance(Duration.ofSeconds(5));
		// 3 s left, beyond a quarter of its life: still sent as it is
		assertThat(authorization.authorization()).isEqualTo("Bearer t-8s");
		assertThat(locked).isEmpty();
		this.time.advance(Duration.ofMillis(1500));
		// 1.5 s left: renewed (and failing here, no authorization server listening)
		assertThat(catchThrowable(authorization::authorization)).isNotNull();
		assertThat(locked).hasSize(1);
	}

	@Test
	void anExpiredRequestIsReplacedWhileTheServerStillWaits() {
		ServerAuthorization authorization = authorization(AuthorizationGrantType.AUTHORIZATION_CODE, "mcp:read");
		assertThatExceptionOfType(AuthorizationRequiredException.class).isThrownBy(authorization::authorization);
		McpAuthorizationRequest first = authorization.pending().orElseThrow();
		this.time.advance(ServerAuthorization.REQUEST_LIFETIME.plusSeconds(1));
		McpAuthorizationRequest second = authorization.pending().orElseThrow();
		assertThat(second.authorizationUri()).isNotEqualTo(first.authorizationUri());
		assertThat(second.expiresAt()).isAfter(this.clock.instant());
		assertThat(this.requested).containsExactly(first, second);
		assertThatExceptionOfType(McpAuthorizationException.class)
			.isThrownBy(() -> authorization.complete(state(first), "code", null))
			.withMessage("MCP server 'remote' awaits no authorization with this state");
	}

	@Test
	void aStepUpAsksThePersonForTheUnionAndKeepsTheTokenInHandUntilThen() {
		ServerAuthorization authorization = authorization(AuthorizationGrantType.AUTHORIZATION_CODE, "mcp:read",
				"offline_access");
		HttpHeaders challenge = HttpHeaders.of(
				Map.of("WWW-Authenticate", List.of("Bearer error=\"insufficient_scope\", scope=\"mcp:admin\"")),
				(name, value) -> true);
		assertThat(authorization.refused(403, challenge, "Bearer old")).isFalse();
		assertThat(authorization.pending().orElseThrow().scopes()).containsExactly("mcp:read", "offline_access",
				"mcp:admin");
		// not given yet: the next refusal waits for the same request (made here or by a
		// replica) instead of giving up on "no new scope", or asking again
		McpAuthorizationRequest asked = authorization.pending().orElseThrow();
		assertThat(authorization.refused(403, challenge, "Bearer old")).isFalse();
		assertThat(authorization.refused(403, challenge, "Bearer old")).isFalse();
		assertThat(authorization.refused(403, challenge, "Bearer old")).isFalse();
		assertThat(this.requested).containsExactly(asked);
		assertThat(authorization.pending()).contains(asked);
	}

	@Test
	void aRenewedTokenRefusedNeedsAPersonForACodeAndIsAnOutageForAService() {
		ServerAuthorization person = authorization(AuthorizationGrantType.AUTHORIZATION_CODE, "mcp:read");
		assertThat(person.refusedAfterRenewal(403)).as("step-ups spent: no new request").isEqualTo(Kind.CONFIGURATION);
		assertThat(person.pending()).isEmpty();
		assertThat(person.refusedAfterRenewal(401)).isEqualTo(Kind.AUTHORIZATION);
		assertThat(person.pending()).isPresent();
		ServerAuthorization service = authorization(AuthorizationGrantType.CLIENT_CREDENTIALS, "mcp:read");
		assertThat(service.refusedAfterRenewal(401)).isEqualTo(Kind.TRANSIENT);
	}

	@Test
	void aRegistrationThatNamesNoScopeAsksThePersonForNone() {
		ServerAuthorization authorization = authorization(AuthorizationGrantType.AUTHORIZATION_CODE);
		assertThatExceptionOfType(AuthorizationRequiredException.class).isThrownBy(authorization::authorization);
		McpAuthorizationRequest request = authorization.pending().orElseThrow();
		assertThat(request.scopes()).isEmpty();
		assertThat(request.authorizationUri().getQuery()).doesNotContain("scope=");
		// a challenge that names a scope then asks for it alone
		HttpHeaders challenge = HttpHeaders.of(
				Map.of("WWW-Authenticate", List.of("Bearer error=\"insufficient_scope\", scope=\"mcp:admin\"")),
				(name, value) -> true);
		assertThat(authorization.refused(403, challenge, "Bearer old")).isFalse();
		assertThat(authorization.pending().orElseThrow().scopes()).containsExactly("mcp:admin");
	}

	@Test
	void discoveryThatMeetsAnOutageIsTriedAgainLaterAndAsksNoPerson() throws Exception {
		HttpServer metadata = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
		CountDownLatch release = new CountDownLatch(1);
		metadata.createContext("/unavailable", (exchange) -> {
			exchange.sendResponseHeaders(503, -1);
			exchange.close();
		});
		metadata.createContext("/silent", (exchange) -> {
			try {
				release.await(10, TimeUnit.SECONDS);
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
			}
			exchange.close();
		});
		ExecutorService threads = Executors.newCachedThreadPool();
		metadata.setExecutor(threads);
		metadata.start();
		try {
			String base = "http://127.0.0.1:" + metadata.getAddress().getPort();
			for (String path : List.of("/unavailable", "/silent")) {
				ServerAuthorization authorization = ServerAuthorization.discovered("remote", URI.create(base + "/mcp"),
						new DiscoverySettings(true, null, "service", "SECRET-12", null, "app", List.of(), null),
						McpJsonDefaults.getMapper(), HttpClient.newHttpClient(), Duration.ofMillis(300),
						new ReentrantLock(), surroundings());
				HttpHeaders challenge = HttpHeaders.of(
						Map.of("WWW-Authenticate", List.of("Bearer resource_metadata=\"" + base + path + "\"")),
						(name, value) -> true);
				assertThatExceptionOfType(UncheckedIOException.class).as(path)
					.isThrownBy(() -> authorization.refused(401, challenge, null))
					.withMessageContaining("cannot be discovered now");
				assertThat(authorization.pending()).as(path).isEmpty();
			}
			assertThat(this.requested).isEmpty();
		}
		finally {
			release.countDown();
			metadata.stop(0);
			threads.shutdownNow();
		}
	}

	@Test
	void discoveryOfMetadataThatCannotBeUsedIsAConfigurationErrorAndAsksNoPerson() throws Exception {
		HttpServer metadata = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
		metadata.createContext("/", (exchange) -> {
			exchange.sendResponseHeaders(404, -1);
			exchange.close();
		});
		metadata.start();
		try {
			String base = "http://127.0.0.1:" + metadata.getAddress().getPort();
			ServerAuthorization authorization = ServerAuthorization.discovered("remote", URI.create(base + "/mcp"),
					new DiscoverySettings(false, URI.create("http://127.0.0.1:9/authorized"), null, null, null, "app",
							List.of(), null),
					McpJsonDefaults.getMapper(), HttpClient.newHttpClient(), Duration.ofMillis(300),
					new ReentrantLock(), surroundings());
			assertThatExceptionOfType(AuthorizationConfigurationException.class)
				.isThrownBy(() -> authorization.refused(401, HttpHeaders.of(Map.of(), (name, value) -> true), null))
				.withMessageContaining("cannot be used")
				.withMessageContaining("no protected resource metadata");
			assertThat(authorization.pending()).isEmpty();
			assertThat(this.requested).isEmpty();
		}
		finally {
			metadata.stop(0);
		}
	}

	@Test
	void aRegistrationWhoseRedirectIsATemplateIsRefused() {
		ClientRegistration registration = ClientRegistration.withRegistrationId("people")
			.clientId("app")
			.authorizationGrantType(AuthorizationGrantType.AUTHORIZATION_CODE)
			.authorizationUri("http://127.0.0.1:1/authorize")
			.tokenUri("http://127.0.0.1:1/token")
			.redirectUri("{baseUrl}/login/oauth2/code/{registrationId}")
			.build();
		InMemoryClientRegistrationRepository registrations = new InMemoryClientRegistrationRepository(registration);
		assertThatExceptionOfType(IllegalStateException.class)
			.isThrownBy(() -> ServerAuthorization.registered("remote", URI.create("http://127.0.0.1:1/mcp"),
					registrations, "people", new InMemoryOAuth2AuthorizedClientService(registrations),
					HttpClient.newHttpClient(), Duration.ofSeconds(2), new ReentrantLock(), surroundings()))
			.withMessageContaining("a template such as {baseUrl} is expanded only within a request");
	}

	@Test
	void theCodeIsExchangedWithTheVerifierOfTheChallengeThePersonWasSent() throws Exception {
		HttpServer tokenEndpoint = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
		List<String> forms = new CopyOnWriteArrayList<>();
		tokenEndpoint.createContext("/token", (exchange) -> {
			forms.add(new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8));
			byte[] body = "{\"access_token\":\"T\",\"token_type\":\"Bearer\",\"expires_in\":300}"
				.getBytes(StandardCharsets.UTF_8);
			exchange.getResponseHeaders().set("Content-Type", "application/json");
			exchange.sendResponseHeaders(200, body.length);
			exchange.getResponseBody().write(body);
			exchange.close();
		});
		tokenEndpoint.start();
		try {
			ServerAuthorization authorization = authorization(
					"http://127.0.0.1:" + tokenEndpoint.getAddress().getPort() + "/token",
					AuthorizationGrantType.AUTHORIZATION_CODE, "mcp:read");
			assertThatExceptionOfType(AuthorizationRequiredException.class).isThrownBy(authorization::authorization);
			McpAuthorizationRequest request = authorization.pending().orElseThrow();
			Map<String, String> query = UriComponentsBuilder.fromUri(request.authorizationUri())
				.build()
				.getQueryParams()
				.toSingleValueMap();
			assertThat(query).containsEntry("code_challenge_method", "S256").doesNotContainKey("code_verifier");
			authorization.complete(state(request), "the-code", null);
			assertThat(forms).hasSize(1);
			Map<String, String> form = UriComponentsBuilder.newInstance()
				.query(forms.get(0))
				.build()
				.getQueryParams()
				.toSingleValueMap();
			String verifier = form.get("code_verifier");
			// RFC 7636 4.1: 43 to 128 unreserved characters
			assertThat(verifier).matches("[A-Za-z0-9._~-]{43,128}");
			byte[] digest = MessageDigest.getInstance("SHA-256").digest(verifier.getBytes(StandardCharsets.US_ASCII));
			assertThat(query.get("code_challenge"))
				.isEqualTo(Base64.getUrlEncoder().withoutPadding().encodeToString(digest));
			assertThat(form).containsEntry("code", "the-code").containsEntry("grant_type", "authorization_code");
			assertThat(authorization.pending()).isEmpty();
		}
		finally {
			tokenEndpoint.stop(0);
		}
	}

	private static String state(McpAuthorizationRequest request) {
		return UriComponentsBuilder.fromUri(request.authorizationUri()).build().getQueryParams().getFirst("state");
	}

}
