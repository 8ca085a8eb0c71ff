package io.github.mcpsupervisor.autoconfigure.authorization;

import java.net.http.HttpClient;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.locks.Lock;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Consumer;
import java.util.function.Supplier;

import io.github.mcpsupervisor.authorization.McpAuthorizationRequest;
import io.github.mcpsupervisor.authorization.McpAuthorizationRequiredEvent;
import io.github.mcpsupervisor.authorization.McpAuthorizationStore;
import io.github.mcpsupervisor.authorization.McpServerAuthorizations;
import io.github.mcpsupervisor.authorization.McpUserAuthorizationRequiredEvent;
import io.github.mcpsupervisor.authorization.McpUserResolver;
import io.github.mcpsupervisor.autoconfigure.McpSupervisorAutoConfiguration;
import io.github.mcpsupervisor.autoconfigure.properties.McpSupervisorProperties;
import io.github.mcpsupervisor.autoconfigure.properties.McpSupervisorProperties.OAuth;
import io.github.mcpsupervisor.autoconfigure.properties.McpSupervisorProperties.OAuth.GrantType;
import io.github.mcpsupervisor.autoconfigure.properties.McpSupervisorProperties.OAuth.WithoutUser;
import io.github.mcpsupervisor.autoconfigure.properties.internal.McpServerSettings;
import io.github.mcpsupervisor.autoconfigure.properties.internal.McpServerSettingsResolver;
import io.github.mcpsupervisor.supervisor.SupervisorScheduler;
import io.github.mcpsupervisor.transport.internal.http.HttpAuthorization;
import io.github.mcpsupervisor.transport.internal.http.HttpAuthorizations;
import io.github.mcpsupervisor.transport.internal.http.HttpClientSettings;
import io.github.mcpsupervisor.transport.internal.http.SharedHttpClients;
import io.github.mcpsupervisor.transport.internal.http.authorization.DiscoverySettings;
import io.github.mcpsupervisor.transport.internal.http.authorization.ServerAuthorization;
import io.github.mcpsupervisor.transport.internal.http.authorization.ServerAuthorization.Surroundings;
import io.github.mcpsupervisor.transport.internal.http.authorization.TokenAuthorization;
import io.github.mcpsupervisor.transport.internal.http.authorization.UserAuthorization;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.binder.MeterBinder;
import io.modelcontextprotocol.json.McpJsonDefaults;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnSingleCandidate;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.ApplicationEventPublisher;
import org.springframework.context.SmartLifecycle;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;
import org.springframework.integration.support.locks.LockRegistry;
import org.springframework.security.oauth2.client.InMemoryOAuth2AuthorizedClientService;
import org.springframework.security.oauth2.client.OAuth2AuthorizedClientService;
import org.springframework.security.oauth2.client.registration.ClientRegistration;
import org.springframework.security.oauth2.client.registration.ClientRegistrationRepository;
import org.springframework.security.oauth2.core.AuthorizationGrantType;

/**
 * Auto-configuration of the OAuth 2.1 authorization of streamable-http servers, when
 * Spring Security's OAuth2 client is on the class path: each server with
 * {@code mcp.servers.<name>.oauth.registration} gets its tokens from that client
 * registration, kept in the application's {@link OAuth2AuthorizedClientService}, and each
 * server that names its authorization server finds it. The requests that wait for a
 * person, the clients registered dynamically and the tokens are kept in an
 * {@link McpAuthorizationStore}: the application's database when it has one, which its
 * replicas then share.
 *
 * @since 0.1.0
 */
@AutoConfiguration(before = McpSupervisorAutoConfiguration.class,
		afterName = { "org.springframework.boot.security.oauth2.client.autoconfigure.OAuth2ClientAutoConfiguration",
				"org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration",
				"org.springframework.boot.jdbc.autoconfigure.JdbcTemplateAutoConfiguration" })
@ConditionalOnClass(OAuth2AuthorizedClientService.class)
@ConditionalOnBooleanProperty(name = "mcp.enabled", matchIfMissing = true)
@EnableConfigurationProperties(McpSupervisorProperties.class)
@Import(McpAuthorizationStoreConfiguration.class)
public final class McpAuthorizationAutoConfiguration {

	private static final Log logger = LogFactory.getLog(McpAuthorizationAutoConfiguration.class);

	/** The key of a registration's renewal lock in the application's lock registry. */
	static final String RENEWAL_LOCK_PREFIX = "mcp-oauth-renewal:";

	/** The counter of each server's token renewals. */
	static final String RENEWALS_METER = "mcp.authorization.renewals";

	@Bean
	@ConditionalOnMissingBean
	McpServerAuthorizations mcpServerAuthorizations(OAuthHttpAuthorizations authorizations,
			ObjectProvider<McpUserResolver> users) {
		return new McpServerAuthorizations(authorizations.servers(),
				users.getIfAvailable(() -> McpUserResolver.DEFAULT));
	}

	@Bean
	OAuthHttpAuthorizations mcpHttpAuthorizations(McpSupervisorProperties properties,
			ObjectProvider<ClientRegistrationRepository> registrations,
			ObjectProvider<OAuth2AuthorizedClientService> clients, SupervisorScheduler scheduler,
			ApplicationEventPublisher publisher, SharedHttpClients httpClients,
			ObjectProvider<RenewalLocks> renewalLocks, ObjectProvider<McpAuthorizationStore> stores,
			ObjectProvider<StoreTables> storeTables) {
		McpAuthorizationStore store = stores
			.getIfAvailable(() -> McpAuthorizationStoreConfiguration.inMemory(properties));
		Map<String, TokenAuthorization> servers = new LinkedHashMap<>();
		// one JVM's lock per token chain, unless the fleet shares one
		RenewalLocks fleetLocks = renewalLocks.getIfAvailable();
		RenewalLocks locks = (fleetLocks != null) ? fleetLocks : new JvmLocks();
		Consumer<McpAuthorizationRequest> requested = (request) -> scheduler.execute(() -> publisher
			.publishEvent((request.user() != null) ? new McpUserAuthorizationRequiredEvent(request.server(), request)
					: new McpAuthorizationRequiredEvent(request.server(), request)));
		Surroundings surroundings = new Surroundings(store, scheduler, properties.authorization().watchInterval(),
				requested);
		List<McpServerSettings> configured = McpServerSettingsResolver.resolve(properties);
		requireOwnUserRegistrations(configured);
		for (McpServerSettings server : configured) {
			OAuth oauth = server.oauth();
			// the server's own HTTP client: its TLS, proxy and timeouts reach its
			// authorization servers too
			HttpClientSettings settings = HttpClientSettings.of(server.http().connectTimeout(),
					server.http().version().version(), server.http().proxy().host(), server.http().proxy().port(),
					server.http().ssl().bundle());
			Supplier<HttpClient> httpClient = () -> httpClients.client(server.name(), settings).httpClient();
			if (oauth.isDiscovered()) {
				servers.put(server.name(), ServerAuthorization.discovered(server.name(), server.url(),
						new DiscoverySettings(oauth.grantType() == GrantType.CLIENT_CREDENTIALS, oauth.redirectUri(),
								oauth.clientId(), oauth.clientSecret(), oauth.clientMetadataDocument(),
								oauth.clientName(), oauth.scopes(), oauth.issuer()),
						McpJsonDefaults.getMapper(), httpClient.get(), server.requestTimeout(),
						locks.obtain(ServerAuthorization.discoveredRegistrationId(server.name()), holdAtMost(server)),
						surroundings));
				continue;
			}
			String registration = oauth.registration();
			if (registration == null) {
				continue;
			}
			ClientRegistrationRepository repository = registrations.getIfAvailable();
			OAuth2AuthorizedClientService service = clients.getIfAvailable();
			if (repository != null && store.isShared()
					&& (service == null || service instanceof InMemoryOAuth2AuthorizedClientService)) {
				// Boot's default keeps tokens in this JVM: the store's are the replicas'
				service = store.authorizedClients(repository);
			}
			if (repository == null || service == null) {
				throw new IllegalStateException("MCP server '" + server.name() + "' has mcp.servers." + server.name()
						+ ".oauth.registration '" + registration + "', but the application has no client"
						+ " registrations: set spring.security.oauth2.client.registration." + registration + ".*");
			}
			if (oauth.isForUsers()) {
				servers.put(server.name(),
						forUsers(server, repository, service, httpClient.get(), locks, surroundings));
				continue;
			}
			servers.put(server.name(),
					ServerAuthorization.registered(server.name(), server.url(), repository, registration, service,
							httpClient.get(), server.requestTimeout(), locks.obtain(registration, holdAtMost(server)),
							surroundings));
		}
		StoreTables tables = storeTables.getIfAvailable();
		if (!servers.isEmpty() && tables != null) {
			tables.check(store, fleetLocks);
		}
		if (fleetLocks == null && store.isShared() && !servers.isEmpty()) {
			logger.warn("The OAuth authorizations of the MCP servers are shared in the database, but their renewals are"
					+ " serialised in this JVM only: replicas may send a rotating refresh token twice, and its"
					+ " authorization server then revokes the chain. Add spring-integration-jdbc, or define a"
					+ " LockRegistry bean");
		}
		return new OAuthHttpAuthorizations(servers);
	}

	// A user's token is bound to its server (its resource): a registration that one
	// server's users authorize serves no other server, whose tokens it would replace.
	private static void requireOwnUserRegistrations(List<McpServerSettings> servers) {
		Map<String, List<String>> byRegistration = new LinkedHashMap<>();
		servers.forEach((server) -> {
			if (server.oauth().registration() != null) {
				byRegistration.computeIfAbsent(server.oauth().registration(), (id) -> new ArrayList<>())
					.add(server.name());
			}
		});
		for (McpServerSettings server : servers) {
			List<String> sharing = byRegistration.getOrDefault(server.oauth().registration(), List.of());
			if (server.oauth().isForUsers() && sharing.size() > 1) {
				throw new IllegalStateException("MCP servers " + sharing + " share client registration '"
						+ server.oauth().registration() + "', and MCP server '" + server.name()
						+ "' acts for each user: each user's token is bound to its server, so that server needs a"
						+ " registration of its own (define another spring.security.oauth2.client.registration.<id>"
						+ " with the same client)");
			}
		}
	}

	// Each user's token from the registration each user authorizes, the supervisor's own
	// requests with the application's identity, if it has one.
	private static UserAuthorization forUsers(McpServerSettings server, ClientRegistrationRepository repository,
			OAuth2AuthorizedClientService service, HttpClient httpClient, RenewalLocks locks,
			Surroundings surroundings) {
		OAuth oauth = server.oauth();
		String registration = Objects.requireNonNull(oauth.registration());
		Duration holdAtMost = holdAtMost(server);
		HttpAuthorization application = HttpAuthorization.NONE;
		String applicationRegistration = oauth.applicationRegistration();
		if (applicationRegistration != null) {
			ClientRegistration own = repository.findByRegistrationId(applicationRegistration);
			if (own == null) {
				throw new IllegalStateException("MCP server '" + server.name() + "' has mcp.servers." + server.name()
						+ ".oauth.application-registration '" + applicationRegistration + "', but there is no client"
						+ " registration of that id (spring.security.oauth2.client.registration."
						+ applicationRegistration + ".*)");
			}
			if (!AuthorizationGrantType.CLIENT_CREDENTIALS.equals(own.getAuthorizationGrantType())) {
				throw new IllegalStateException("MCP server '" + server.name() + "' has mcp.servers." + server.name()
						+ ".oauth.application-registration '" + applicationRegistration + "', whose"
						+ " authorization-grant-type is " + own.getAuthorizationGrantType().getValue()
						+ ": the application's own identity is a client_credentials registration");
			}
			application = ServerAuthorization.registered(server.name(), server.url(), repository,
					applicationRegistration, service, httpClient, server.requestTimeout(),
					locks.obtain(applicationRegistration, holdAtMost), surroundings);
		}
		return UserAuthorization.registered(server.name(), server.url(), repository, registration, service, httpClient,
				server.requestTimeout(), (chain) -> locks.obtain(chain, holdAtMost),
				new UserAuthorization.Identity(application, oauth.withoutUser() == WithoutUser.APPLICATION,
						oauth.linkToModel()),
				surroundings);
	}

	// A renewal sends one token request (a refusal's, at most two), each bounded by the
	// connect timeout and the request timeout; the lock outlives them with a margin.
	static Duration holdAtMost(McpServerSettings server) {
		return server.http().connectTimeout().plus(server.requestTimeout()).multipliedBy(2).plusSeconds(10);
	}

	/**
	 * The lock of each registration's renewals from the application's
	 * {@code LockRegistry} (Spring Integration's JDBC one shares it with every replica on
	 * the database): one renewal per token chain in the whole fleet, so that a rotating
	 * refresh token is sent once.
	 */
	@Configuration(proxyBeanMethods = false)
	@ConditionalOnClass(LockRegistry.class)
	static class FleetRenewalLocksConfiguration {

		@Bean
		@ConditionalOnSingleCandidate(LockRegistry.class)
		RenewalLocks mcpRenewalLocks(LockRegistry<?> registry) {
			return (registration, holdAtMost) -> new FleetRenewalLock(
					registry.obtain(RENEWAL_LOCK_PREFIX + registration), registration, holdAtMost);
		}

	}

	/**
	 * The renewals of each server's tokens, as Micrometer counters: those this JVM made,
	 * and those it found made already (by another request or a replica) once it held the
	 * renewal lock.
	 */
	@Configuration(proxyBeanMethods = false)
	@ConditionalOnClass(MeterBinder.class)
	static class RenewalMetersConfiguration {

		@Bean
		MeterBinder mcpAuthorizationRenewalMeters(OAuthHttpAuthorizations authorizations) {
			return (registry) -> authorizations.servers().forEach((server, authorization) -> {
				FunctionCounter.builder(RENEWALS_METER, authorization, TokenAuthorization::renewals)
					.description("Tokens obtained for the server by this JVM")
					.tags("server", server, "result", "renewed")
					.register(registry);
				FunctionCounter.builder(RENEWALS_METER, authorization, TokenAuthorization::alreadyRenewed)
					.description("Renewals found made already, by another request or a replica")
					.tags("server", server, "result", "already-renewed")
					.register(registry);
			});
		}

	}

	/**
	 * Checks at the start that the tables of a store in the application's database exist,
	 * when a server needs them: a start that says what to do, not a failure at the first
	 * token. Its implementation, which needs Spring's JDBC support, is defined only with
	 * it.
	 */
	@FunctionalInterface
	interface StoreTables {

		/**
		 * Checks the tables of the store and of the renewal locks in use.
		 * @param store the store in use
		 * @param locks the renewal locks the fleet shares, if any
		 * @throws IllegalStateException naming how to create them, if some are missing
		 */
		void check(McpAuthorizationStore store, @Nullable RenewalLocks locks);

	}

	/**
	 * The lock that serialises the renewals of one registration's tokens.
	 */
	@FunctionalInterface
	interface RenewalLocks {

		/**
		 * Returns the lock of a registration's renewals.
		 * @param registration the id of the client registration
		 * @param holdAtMost the longest a renewal holds it: a lock the fleet shares
		 * expires after that, whatever its registry's default
		 * @return its lock
		 */
		Lock obtain(String registration, Duration holdAtMost);

		/**
		 * Checks that the tables of the locks exist, when they are the starter's.
		 * @throws org.springframework.dao.DataAccessException if they cannot be read
		 */
		default void checkTables() {
		}

	}

	/**
	 * The locks of this JVM's renewals, when the fleet shares none: one per registration,
	 * and, for the users' chains of a server that acts for each user, one of 256 stripes
	 * (as Spring Integration's {@code DefaultLockRegistry} stripes its locks), so that
	 * users need no lock each.
	 */
	static final class JvmLocks implements RenewalLocks {

		private final Map<String, Lock> registrations = new ConcurrentHashMap<>();

		private final Lock[] stripes = new Lock[256];

		JvmLocks() {
			for (int i = 0; i < this.stripes.length; i++) {
				this.stripes[i] = new ReentrantLock();
			}
		}

		@Override
		public Lock obtain(String registration, Duration holdAtMost) {
			if (registration.contains(UserAuthorization.USER_CHAIN)) {
				return this.stripes[Math.floorMod(registration.hashCode(), this.stripes.length)];
			}
			return this.registrations.computeIfAbsent(registration, (id) -> new ReentrantLock());
		}

	}

	/**
	 * The authorizations by server, as the connectors take them.
	 */
	static final class OAuthHttpAuthorizations implements HttpAuthorizations, SmartLifecycle {

		private final Map<String, TokenAuthorization> servers;

		private volatile boolean running;

		OAuthHttpAuthorizations(Map<String, TokenAuthorization> servers) {
			this.servers = servers;
		}

		// the watches of a shared store end as the application stops: no timer is left
		@Override
		public void start() {
			this.servers.values().forEach(TokenAuthorization::start);
			this.running = true;
		}

		@Override
		public void stop() {
			this.servers.values().forEach(TokenAuthorization::stop);
			this.running = false;
		}

		@Override
		public boolean isRunning() {
			return this.running;
		}

		Map<String, TokenAuthorization> servers() {
			return this.servers;
		}

		@Override
		public HttpAuthorization authorization(String server) {
			HttpAuthorization authorization = this.servers.get(server);
			return (authorization != null) ? authorization : HttpAuthorization.NONE;
		}

	}

}
