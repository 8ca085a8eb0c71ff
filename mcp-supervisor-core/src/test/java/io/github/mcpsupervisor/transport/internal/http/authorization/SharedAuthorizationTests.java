package io.github.mcpsupervisor.transport.internal.http.authorization;

import java.net.URI;
import java.net.URLDecoder;
import java.net.http.HttpClient;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.ReentrantLock;

import io.github.mcpsupervisor.authorization.JdbcMcpAuthorizationStore;
import io.github.mcpsupervisor.authorization.McpAuthorizationRequest;
import io.github.mcpsupervisor.authorization.McpAuthorizationStore;
import io.github.mcpsupervisor.authorization.McpAuthorizationStore.PendingAuthorization;
import io.github.mcpsupervisor.supervisor.VirtualScheduler;
import io.github.mcpsupervisor.transport.internal.http.AuthorizationRequiredException;
import io.github.mcpsupervisor.transport.internal.http.authorization.ServerAuthorization.Surroundings;
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
 * Tests for {@link ServerAuthorization} on a store that replicas share: the JDBC store on
 * an H2 database, each replica's authorization of the server on its own clock-driven
 * timers. Nothing listens at the authorization server's URLs: a completion elsewhere is
 * what a replica's completion leaves in the store.
 */
class SharedAuthorizationTests {

	private static final Duration WATCH = Duration.ofSeconds(2);

	private final VirtualScheduler time = new VirtualScheduler();

	private final List<McpAuthorizationRequest> requested = new CopyOnWriteArrayList<>();

	private McpAuthorizationStore store;

	private ClientRegistration registration;

	private InMemoryClientRegistrationRepository registrations;

	private OAuth2AuthorizedClientService clients;

	@BeforeEach
	void database() {
		DriverManagerDataSource dataSource = new DriverManagerDataSource(
				"jdbc:h2:mem:" + UUID.randomUUID() + ";DB_CLOSE_DELAY=-1");
		ResourceDatabasePopulator schema = new ResourceDatabasePopulator(
				new ClassPathResource("io/github/mcpsupervisor/authorization/schema-h2.sql"));
		schema.execute(dataSource);
		schema.execute(dataSource); // as every start applies it: what exists is kept
		JdbcTemplate jdbc = new JdbcTemplate(dataSource);
		this.store = new JdbcMcpAuthorizationStore(jdbc, this.time.clock());
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
	}

	private ServerAuthorization replica() {
		return ServerAuthorization.registered("remote", URI.create("http://127.0.0.1:1/mcp"), this.registrations,
				"people", this.clients, HttpClient.newHttpClient(), Duration.ofSeconds(2), new ReentrantLock(),
				new Surroundings(this.store, this.time, WATCH, this.requested::add));
	}

	@Test
	void replicasThatNeedAPersonAtOnceAskWithOneRequest() {
		ServerAuthorization first = replica();
		ServerAuthorization second = replica();
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
		ServerAuthorization waiting = replica();
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
		ServerAuthorization waiting = replica();
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
		ServerAuthorization replica = replica();
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

	private void save(String token) {
		Instant now = this.time.clock().instant();
		this.clients
			.saveAuthorizedClient(
					new OAuth2AuthorizedClient(this.registration, "mcp-server:remote",
							new OAuth2AccessToken(OAuth2AccessToken.TokenType.BEARER, token, now,
									now.plusSeconds(3600)),
							new OAuth2RefreshToken("refresh-" + token, now)),
					UsernamePasswordAuthenticationToken.unauthenticated("mcp-server:remote", null));
	}

	private static String state(McpAuthorizationRequest request) {
		String query = request.authorizationUri().getRawQuery();
		for (String parameter : query.split("&")) {
			if (parameter.startsWith("state=")) {
				return URLDecoder.decode(parameter.substring(6), StandardCharsets.UTF_8);
			}
		}
		throw new IllegalStateException("no state in " + request.authorizationUri());
	}

}
