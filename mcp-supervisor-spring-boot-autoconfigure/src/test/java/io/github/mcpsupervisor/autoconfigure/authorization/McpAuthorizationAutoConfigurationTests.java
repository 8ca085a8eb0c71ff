package io.github.mcpsupervisor.autoconfigure.authorization;

import java.time.Duration;
import java.util.Collections;
import java.util.ConcurrentModificationException;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.Lock;
import java.util.concurrent.locks.ReentrantLock;

import javax.sql.DataSource;

import io.github.mcpsupervisor.actuate.McpEndpoint;
import io.github.mcpsupervisor.actuate.McpEndpoint.McpServerDetails;
import io.github.mcpsupervisor.authorization.InMemoryMcpAuthorizationStore;
import io.github.mcpsupervisor.authorization.JdbcMcpAuthorizationStore;
import io.github.mcpsupervisor.authorization.McpAuthorizationException;
import io.github.mcpsupervisor.authorization.McpAuthorizationRequest;
import io.github.mcpsupervisor.authorization.McpAuthorizationRequiredEvent;
import io.github.mcpsupervisor.authorization.McpAuthorizationStore;
import io.github.mcpsupervisor.authorization.McpServerAuthorizations;
import io.github.mcpsupervisor.authorization.McpUserResolver;
import io.github.mcpsupervisor.autoconfigure.McpServerRegistry;
import io.github.mcpsupervisor.autoconfigure.McpSupervisorAutoConfiguration;
import io.github.mcpsupervisor.autoconfigure.authorization.McpAuthorizationAutoConfiguration.OAuthHttpAuthorizations;
import io.github.mcpsupervisor.autoconfigure.endpoint.McpEndpointAutoConfiguration;
import io.github.mcpsupervisor.autoconfigure.health.McpHealthContributorAutoConfiguration;
import io.github.mcpsupervisor.autoconfigure.properties.McpSupervisorProperties;
import io.github.mcpsupervisor.autoconfigure.properties.internal.McpServerSettings;
import io.github.mcpsupervisor.autoconfigure.properties.internal.McpServerSettingsResolver;
import io.github.mcpsupervisor.supervisor.McpServerState;
import io.github.mcpsupervisor.supervisor.McpSupervisors;
import io.github.mcpsupervisor.tool.McpSupervisorToolCallbackProvider;
import io.github.mcpsupervisor.transport.internal.http.authorization.ServerAuthorization;
import io.github.mcpsupervisor.transport.internal.http.authorization.UserAuthorization;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.beans.factory.NoUniqueBeanDefinitionException;
import org.springframework.boot.actuate.autoconfigure.endpoint.EndpointAutoConfiguration;
import org.springframework.boot.actuate.autoconfigure.endpoint.web.WebEndpointAutoConfiguration;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.health.actuate.endpoint.HealthEndpoint;
import org.springframework.boot.health.actuate.endpoint.IndicatedHealthDescriptor;
import org.springframework.boot.health.autoconfigure.actuate.endpoint.HealthEndpointAutoConfiguration;
import org.springframework.boot.health.autoconfigure.contributor.HealthContributorAutoConfiguration;
import org.springframework.boot.health.autoconfigure.registry.HealthContributorRegistryAutoConfiguration;
import org.springframework.boot.health.contributor.Status;
import org.springframework.boot.security.oauth2.client.autoconfigure.OAuth2ClientAutoConfiguration;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.ApplicationListener;
import org.springframework.integration.jdbc.lock.JdbcLockRegistry;
import org.springframework.integration.support.locks.DistributedLock;
import org.springframework.integration.support.locks.LockRegistry;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.SimpleDriverDataSource;
import org.springframework.security.oauth2.client.OAuth2AuthorizedClientService;
import org.springframework.web.util.UriComponentsBuilder;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

/**
 * Auto-configuration of the OAuth authorization of servers, and what a server that waits
 * for a person shows. Nothing listens at the server's URL: without a token no request is
 * sent.
 */
@ExtendWith(OutputCaptureExtension.class)
class McpAuthorizationAutoConfigurationTests {

	private static final int REPLACES = 40;

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withConfiguration(
				AutoConfigurations.of(OAuth2ClientAutoConfiguration.class, McpAuthorizationAutoConfiguration.class,
						McpSupervisorAutoConfiguration.class, McpHealthContributorAutoConfiguration.class,
						McpEndpointAutoConfiguration.class, HealthContributorAutoConfiguration.class,
						HealthContributorRegistryAutoConfiguration.class, HealthEndpointAutoConfiguration.class,
						EndpointAutoConfiguration.class, WebEndpointAutoConfiguration.class))
		.withPropertyValues("mcp.servers.remote.transport=streamable-http",
				"mcp.servers.remote.url=http://127.0.0.1:1/Tools/", "mcp.servers.remote.oauth.registration=people",
				"mcp.servers.remote.required=true", "management.endpoints.web.exposure.include=health,mcp",
				"spring.security.oauth2.client.registration.people.client-id=mcp-app",
				"spring.security.oauth2.client.registration.people.client-secret=SECRET-5",
				"spring.security.oauth2.client.registration.people.authorization-grant-type=authorization_code",
				"spring.security.oauth2.client.registration.people.redirect-uri=http://127.0.0.1:8080/authorized",
				"spring.security.oauth2.client.registration.people.scope=mcp:read",
				"spring.security.oauth2.client.registration.people.provider=people",
				"spring.security.oauth2.client.provider.people.authorization-uri=http://127.0.0.1:2/authorize",
				"spring.security.oauth2.client.provider.people.token-uri=http://127.0.0.1:2/token");

	@Test
	void runWithALockRegistryShouldSerialiseTheRenewalsOfARegistrationWithItsLock() {
		Lock fleetLock = new ReentrantLock();
		List<Object> keys = new CopyOnWriteArrayList<>();
		LockRegistry<Lock> registry = (key) -> {
			keys.add(key);
			return fleetLock;
		};
		this.contextRunner.withBean(LockRegistry.class, () -> registry).run((context) -> {
			assertThat(context).hasNotFailed();
			Lock lock = context.getBean(McpAuthorizationAutoConfiguration.RenewalLocks.class)
				.obtain("people", Duration.ofSeconds(70));
			lock.lock();
			assertThat(fleetLock.tryLock()).as("held by the renewal").isTrue();
			fleetLock.unlock();
			lock.unlock();
			assertThat(keys).contains("mcp-oauth-renewal:people");
		});
	}

	@Test
	void aDistributedLockIsHeldForAsLongAsARenewalMayTakeAndItsExpiryIsNotThrown(CapturedOutput output) {
		List<Duration> held = new CopyOnWriteArrayList<>();
		DistributedLock expiring = new DistributedLock() {

			@Override
			public void lock(Duration ttl) {
				held.add(ttl);
			}

			@Override
			public boolean tryLock(Duration waitTime, Duration ttl) {
				return true;
			}

			@Override
			public void lock() {
				held.add(Duration.ZERO);
			}

			@Override
			public void lockInterruptibly() {
			}

			@Override
			public boolean tryLock() {
				return true;
			}

			@Override
			public boolean tryLock(long time, TimeUnit unit) {
				return true;
			}

			@Override
			public void unlock() {
				throw new ConcurrentModificationException("Lock was released in the store due to expiration");
			}

			@Override
			public Condition newCondition() {
				throw new UnsupportedOperationException();
			}

		};
		this.contextRunner.withBean(LockRegistry.class, () -> (LockRegistry<DistributedLock>) (key) -> expiring)
			.withPropertyValues("mcp.servers.remote.request-timeout=30s", "mcp.servers.remote.http.connect-timeout=5s")
			.run((context) -> {
				McpServerSettings server = McpServerSettingsResolver
					.resolve(context.getBean(McpSupervisorProperties.class))
					.get(0);
				Duration holdAtMost = McpAuthorizationAutoConfiguration.holdAtMost(server);
				assertThat(holdAtMost).isEqualTo(Duration.ofSeconds(80));
				Lock lock = context.getBean(McpAuthorizationAutoConfiguration.RenewalLocks.class)
					.obtain("people", holdAtMost);
				lock.lock();
				// the server's own attempt takes it too, for as long
				assertThat(held).isNotEmpty().allMatch(Duration.ofSeconds(80)::equals);
				lock.unlock();
				assertThat(output).contains("The renewal lock of client registration 'people' expired after 80000 ms");
			});
	}

	@Test
	void runWithoutADataSourceShouldKeepTheAuthorizationsInMemory() {
		this.contextRunner.run((context) -> {
			assertThat(context).hasNotFailed().doesNotHaveBean(McpAuthorizationStore.class);
			assertThat(context.getBean(OAuthHttpAuthorizations.class).servers().get("remote").state().store())
				.isEqualTo("memory");
		});
	}

	@Test
	void runWithADataSourceShouldKeepTheAuthorizationsTokensAndLocksInItsDatabase() {
		DataSource database = h2();
		this.contextRunner.withBean(DataSource.class, () -> database).run((context) -> {
			assertThat(context).hasNotFailed();
			assertThat(context.getBean(McpAuthorizationStore.class)).isInstanceOf(JdbcMcpAuthorizationStore.class);
			// the embedded database's tables created at the start
			JdbcTemplate jdbc = new JdbcTemplate(database);
			assertThat(jdbc.queryForList("SELECT LOWER(TABLE_NAME) FROM INFORMATION_SCHEMA.TABLES", String.class))
				.contains("mcp_authorization_request", "mcp_user_authorization_request", "mcp_dynamic_client",
						"oauth2_authorized_client", "mcp_lock")
				.doesNotContain("int_lock");
			// the renewals serialised by Spring Integration's locks on the same database
			Lock lock = context.getBean(McpAuthorizationAutoConfiguration.RenewalLocks.class)
				.obtain("people", Duration.ofSeconds(70));
			lock.lock();
			try {
				assertThat(jdbc.queryForObject("SELECT COUNT(*) FROM MCP_LOCK WHERE REGION = 'mcp-supervisor'",
						Integer.class))
					.isOne();
			}
			finally {
				lock.unlock();
			}
			// Boot's in-memory service replaced by the store's for the server's tokens
			ServerAuthorization authorization = (ServerAuthorization) context.getBean(OAuthHttpAuthorizations.class)
				.servers()
				.get("remote");
			assertThat(authorization.state().store()).isEqualTo("jdbc");
		});
	}

	@Test
	void runWithADataSourceButNoLockOfTheFleetShouldWarnThatRenewalsAreSerialisedPerJvm(CapturedOutput output) {
		this.contextRunner.withBean(DataSource.class, McpAuthorizationAutoConfigurationTests::h2)
			.withClassLoader(new FilteredClassLoader(JdbcLockRegistry.class))
			.run((context) -> {
				assertThat(context).hasNotFailed()
					.doesNotHaveBean(McpAuthorizationAutoConfiguration.RenewalLocks.class);
				assertThat(output).contains("renewals are serialised in this JVM only");
			});
	}

	@Test
	void runWithADatabaseWithoutTheTablesShouldFailTheStartNamingHowToCreateThem() {
		// as PostgreSQL with the default initialize-schema (embedded databases only)
		this.contextRunner.withBean(DataSource.class, McpAuthorizationAutoConfigurationTests::h2)
			.withPropertyValues("mcp.authorization.jdbc.initialize-schema=never")
			.run((context) -> assertThat(context).hasFailed()
				.getFailure()
				.hasStackTraceContaining(
						"IllegalStateException: The OAuth authorizations of the MCP servers are kept in"
								+ " the application's database")
				.hasStackTraceContaining("tables cannot be read")
				.hasStackTraceContaining("mcp.authorization.jdbc.initialize-schema=always")
				.hasStackTraceContaining("mcp.authorization.store=memory"));
	}

	@Test
	void runWithADatabaseWithoutTheLockTableShouldFailTheStartNamingHowToCreateIt() {
		DataSource database = h2();
		// migrations that create the store's tables but not the locks'
		new JdbcTemplate(database).execute("CREATE TABLE mcp_authorization_request (server varchar(64))");
		new JdbcTemplate(database).execute("CREATE TABLE mcp_user_authorization_request (server varchar(64))");
		new JdbcTemplate(database).execute("CREATE TABLE mcp_dynamic_client (server varchar(64))");
		new JdbcTemplate(database)
			.execute("CREATE TABLE oauth2_authorized_client (client_registration_id varchar(100))");
		this.contextRunner.withBean(DataSource.class, () -> database)
			.withPropertyValues("mcp.authorization.jdbc.initialize-schema=never")
			.run((context) -> assertThat(context).hasFailed()
				.getFailure()
				.hasStackTraceContaining("tables cannot be read")
				.hasStackTraceContaining("MCP_LOCK"));
	}

	@Test
	void runWithADatabaseWithoutTheTablesAndNoOAuthServerShouldStartAsBefore() {
		new ApplicationContextRunner()
			.withConfiguration(AutoConfigurations.of(OAuth2ClientAutoConfiguration.class,
					McpAuthorizationAutoConfiguration.class, McpSupervisorAutoConfiguration.class))
			.withBean(DataSource.class, McpAuthorizationAutoConfigurationTests::h2)
			.withPropertyValues("mcp.authorization.jdbc.initialize-schema=never",
					"mcp.servers.remote.transport=streamable-http", "mcp.servers.remote.url=http://127.0.0.1:1/mcp")
			.run((context) -> assertThat(context).hasNotFailed());
	}

	@Test
	void stopShouldEndTheWatchesOfTheStore() {
		this.contextRunner.withBean(DataSource.class, McpAuthorizationAutoConfigurationTests::h2).run((context) -> {
			OAuthHttpAuthorizations authorizations = context.getBean(OAuthHttpAuthorizations.class);
			assertThat(authorizations.isRunning()).isTrue();
			context.stop();
			assertThat(authorizations.isRunning()).isFalse();
		});
	}

	@Test
	void runWithTheMemoryStoreShouldKeepTheAuthorizationsInMemoryDespiteADataSource() {
		this.contextRunner.withBean(DataSource.class, McpAuthorizationAutoConfigurationTests::h2)
			.withPropertyValues("mcp.authorization.store=memory")
			.run((context) -> {
				assertThat(context).hasNotFailed().doesNotHaveBean(McpAuthorizationStore.class);
				assertThat(context.getBean(OAuthHttpAuthorizations.class).servers().get("remote").state().store())
					.isEqualTo("memory");
			});
	}

	@Test
	void runWithTheJdbcStoreAndNoDataSourceShouldFailNamingWhy() {
		this.contextRunner.withPropertyValues("mcp.authorization.store=jdbc")
			.run((context) -> assertThat(context).hasFailed()
				.getFailure()
				.rootCause()
				.hasMessageContaining("mcp.authorization.store is jdbc, but the application has no DataSource"));
	}

	@Test
	void runWithAStoreOfTheApplicationsShouldUseIt() {
		McpAuthorizationStore own = new InMemoryMcpAuthorizationStore();
		this.contextRunner.withBean(DataSource.class, McpAuthorizationAutoConfigurationTests::h2)
			.withBean(McpAuthorizationStore.class, () -> own)
			.run((context) -> {
				assertThat(context).hasNotFailed().getBean(McpAuthorizationStore.class).isSameAs(own);
				assertThat(context.getBean(OAuthHttpAuthorizations.class).servers().get("remote").state().store())
					.isEqualTo("memory");
			});
	}

	private static DataSource h2() {
		return new SimpleDriverDataSource(new org.h2.Driver(),
				"jdbc:h2:mem:" + UUID.randomUUID() + ";DB_CLOSE_DELAY=-1");
	}

	@Test
	void runWithoutSpringIntegrationShouldSerialiseTheRenewalsInTheJvm() {
		this.contextRunner.withClassLoader(new FilteredClassLoader(LockRegistry.class))
			.run((context) -> assertThat(context).hasNotFailed()
				.doesNotHaveBean(McpAuthorizationAutoConfiguration.RenewalLocks.class));
	}

	@Test
	void runWithAnAuthorizationCodeServerShouldWaitForAPersonAndShowTheRequest(CapturedOutput output) {
		List<McpAuthorizationRequest> events = new CopyOnWriteArrayList<>();
		this.contextRunner
			.withBean(ApplicationListener.class,
					() -> (ApplicationListener<McpAuthorizationRequiredEvent>) (event) -> events
						.add(event.getRequest()))
			.run((context) -> {
				McpSupervisors supervisors = context.getBean(McpSupervisors.class);
				await().until(() -> supervisors.supervisor("remote").state() == McpServerState.NEEDS_AUTHORIZATION);
				assertThat(supervisors.supervisor("remote").status().lastError()).isEqualTo(
						"needs authorization: a person must authorize client registration 'people' (no token yet)");
				List<McpAuthorizationRequest> pending = context.getBean(McpServerAuthorizations.class).pending();
				assertThat(pending).hasSize(1);
				McpAuthorizationRequest request = pending.get(0);
				assertThat(request.server()).isEqualTo("remote");
				assertThat(request.scopes()).containsExactly("mcp:read");
				Map<String, String> query = UriComponentsBuilder.fromUri(request.authorizationUri())
					.build()
					.getQueryParams()
					.toSingleValueMap();
				assertThat(query).containsEntry("response_type", "code")
					.containsEntry("client_id", "mcp-app")
					.containsEntry("code_challenge_method", "S256")
					.containsEntry("resource", "http://127.0.0.1:1/Tools")
					.containsKeys("state", "code_challenge")
					.doesNotContainKey("code_verifier");
				await().until(() -> events.size() == 1);
				assertThat(events.get(0)).isEqualTo(request);
				HealthEndpoint healthEndpoint = context.getBean(HealthEndpoint.class);
				assertThat(healthEndpoint.healthForPath("mcp").getStatus()).isEqualTo(Status.OUT_OF_SERVICE);
				McpServerDetails details = context.getBean(McpEndpoint.class).server("remote").details();
				assertThat(details.authorization()).isNotNull();
				assertThat(details.authorization().uri()).isEqualTo(request.authorizationUri());
				IndicatedHealthDescriptor health = (IndicatedHealthDescriptor) healthEndpoint.healthForPath("mcp",
						"remote");
				assertThat(health.getStatus()).isEqualTo(Status.OUT_OF_SERVICE);
				assertThat(health.getDetails()).containsEntry("state", McpServerState.NEEDS_AUTHORIZATION)
					.as("the URL binds whoever opens it: not in health")
					.doesNotContainKey("authorization");
				assertThat(output).doesNotContain(query.get("state")).doesNotContain("SECRET-5");
			});
	}

	@Test
	void runWhenAnOAuthServerIsReplacedShouldKeepOneRegistrationWithItsAuthorization() {
		this.contextRunner.run((context) -> {
			McpServerRegistry registry = context.getBean(McpServerRegistry.class);
			ServerAuthorization authorization = (ServerAuthorization) context.getBean(OAuthHttpAuthorizations.class)
				.servers()
				.get("remote");
			Map<String, String> remote = Map.of("transport", "streamable-http", "url", "http://127.0.0.1:1/Tools/",
					"oauth.registration", "people", "required", "true");
			for (int i = 0; i < REPLACES; i++) {
				registry.replace("remote", remote);
			}
			await().untilAsserted(() -> assertThat(authorization.registrations())
				.as("registrations with the authorization after %d replaces", REPLACES)
				.isOne());
			assertThat(context.getBean(McpSupervisors.class).supervisor("remote").state())
				.isEqualTo(McpServerState.NEEDS_AUTHORIZATION);
		});
	}

	@Test
	void completeWithAnUnknownStateOrAnErrorShouldRefuseIt() {
		this.contextRunner.run((context) -> {
			McpServerAuthorizations authorizations = context.getBean(McpServerAuthorizations.class);
			await().until(() -> !authorizations.pending().isEmpty());
			String state = UriComponentsBuilder.fromUri(authorizations.pending().get(0).authorizationUri())
				.build()
				.getQueryParams()
				.getFirst("state");
			assertThatExceptionOfType(McpAuthorizationException.class)
				.isThrownBy(() -> authorizations.complete(Map.of("state", "forged", "code", "c")))
				.withMessage("no MCP server awaits an authorization with this state");
			assertThatExceptionOfType(McpAuthorizationException.class)
				.isThrownBy(() -> authorizations.complete(Map.of("state", state, "error", "access_denied\r\nx")))
				.withMessage("the authorization of MCP server 'remote' was answered with the error access_denied??x");
			assertThatExceptionOfType(McpAuthorizationException.class)
				.isThrownBy(() -> authorizations.complete(Map.of("state", state, "code", "c", "iss", "http://evil")))
				.withMessage("MCP server 'remote': the response has an iss, and the registration has no issuer-uri"
						+ " to check it against");
			assertThat(authorizations.pending()).as("still awaited").hasSize(1);
		});
	}

	@Test
	void runWithAnUnknownRegistrationShouldFailNamingIt() {
		this.contextRunner.withPropertyValues("mcp.servers.remote.oauth.registration=other")
			.run((context) -> assertThat(context).getFailure()
				.rootCause()
				.hasMessageContaining("mcp.servers.remote.oauth.registration 'other', but there is no client"
						+ " registration of that id (spring.security.oauth2.client.registration.other.*)"));
	}

	@Test
	void runWithoutSpringSecurityShouldFailNamingTheStarter() {
		this.contextRunner.withClassLoader(new FilteredClassLoader(OAuth2AuthorizedClientService.class))
			.run((context) -> assertThat(context).getFailure()
				.rootCause()
				.hasMessageContaining("Spring Security's OAuth2 client is not on the class path: add"
						+ " spring-boot-starter-security-oauth2-client"));
	}

	@Test
	void runWithAServerActingForEachUserShouldAskEachUserAndNeverThePerson() {
		List<Object> events = new CopyOnWriteArrayList<>();
		this.contextRunner.withPropertyValues("mcp.servers.remote.oauth.acts-for=user")
			.withBean(ApplicationListener.class, () -> events::add)
			.withBean(McpUserResolver.class, () -> (toolContext) -> "resolved-user")
			.run((context) -> {
				assertThat(context).hasNotFailed();
				McpServerAuthorizations authorizations = context.getBean(McpServerAuthorizations.class);
				McpAuthorizationRequest ada = authorizations.connect("remote", "ada");
				assertThat(ada.user()).isEqualTo("ada");
				assertThat(authorizations.pending("ada")).containsExactly(ada);
				assertThat(authorizations.pending()).isEmpty();
				String state = UriComponentsBuilder.fromUri(ada.authorizationUri())
					.build()
					.getQueryParams()
					.getFirst("state");
				// completed by the user the application's resolver names: not ada
				assertThatExceptionOfType(McpAuthorizationException.class)
					.isThrownBy(() -> authorizations.complete(Map.of("state", state, "code", "c")))
					.withMessageContaining("was made for another user");
				assertThat(context.getBean(McpSupervisors.class).supervisor("remote").state())
					.isNotEqualTo(McpServerState.NEEDS_AUTHORIZATION);
				assertThat(events).noneMatch(McpAuthorizationRequiredEvent.class::isInstance);
				assertThat(context.getBean(McpSupervisorToolCallbackProvider.class)).isNotNull();
			});
	}

	@Test
	void runWithARegistrationThatOneServersUsersShareWithAnotherServerShouldFailNamingIt() {
		this.contextRunner
			.withPropertyValues("mcp.servers.remote.oauth.acts-for=user", "mcp.servers.docs.transport=streamable-http",
					"mcp.servers.docs.url=http://127.0.0.1:1/docs", "mcp.servers.docs.oauth.registration=people")
			.run((context) -> assertThat(context).getFailure()
				.rootCause()
				.hasMessageContaining("MCP servers [docs, remote] share client registration 'people', and MCP server"
						+ " 'remote' acts for each user"));
	}

	@Test
	void runWithTwoUserResolversShouldFailRatherThanPickNone() {
		this.contextRunner.withPropertyValues("mcp.servers.remote.oauth.acts-for=user")
			.withBean("one", McpUserResolver.class, () -> (toolContext) -> "one")
			.withBean("two", McpUserResolver.class, () -> (toolContext) -> "two")
			.run((context) -> assertThat(context).getFailure()
				.hasRootCauseInstanceOf(NoUniqueBeanDefinitionException.class));
	}

	@Test
	void runWithAnUnknownApplicationIdentityShouldFailNamingItsProperty() {
		this.contextRunner
			.withPropertyValues("mcp.servers.remote.oauth.acts-for=user",
					"mcp.servers.remote.oauth.application-registration=nowhere")
			.run((context) -> assertThat(context).getFailure()
				.rootCause()
				.hasMessageContaining("mcp.servers.remote.oauth.application-registration 'nowhere', but there is no"
						+ " client registration of that id"));
	}

	@Test
	void runWithAnApplicationIdentityThatIsNotClientCredentialsShouldFailNamingIt() {
		this.contextRunner
			.withPropertyValues("mcp.servers.remote.oauth.acts-for=user",
					"mcp.servers.remote.oauth.application-registration=people")
			.run((context) -> assertThat(context).getFailure()
				.rootCause()
				.hasMessageContaining("mcp.servers.remote.oauth.application-registration 'people', whose"
						+ " authorization-grant-type is authorization_code: the application's own identity is a"
						+ " client_credentials registration"));
	}

	@Test
	void runWithAUserSettingOnAServerActingForTheApplicationShouldFailNamingIt() {
		this.contextRunner.withPropertyValues("mcp.servers.remote.oauth.without-user=application")
			.run((context) -> assertThat(context).getFailure()
				.rootCause()
				.hasMessageContaining("oauth.acts-for")
				.hasMessageContaining("is application: application-registration, without-user and link-to-model are"
						+ " for a server that acts for each user (acts-for: user)"));
	}

	@Test
	void runWithAServerActingForEachUserWithoutARegistrationShouldFailNamingIt() {
		this.contextRunner
			.withPropertyValues("mcp.servers.tracker.transport=streamable-http",
					"mcp.servers.tracker.url=http://127.0.0.1:1/mcp",
					"mcp.servers.tracker.oauth.redirect-uri=http://127.0.0.1:8080/authorized",
					"mcp.servers.tracker.oauth.acts-for=user")
			.run((context) -> assertThat(context).getFailure()
				.rootCause()
				.hasMessageContaining("user needs oauth.registration"));
	}

	@Test
	void theRenewalLocksOfThisJvmAreOnePerRegistrationAndStripedForUsers() {
		McpAuthorizationAutoConfiguration.JvmLocks locks = new McpAuthorizationAutoConfiguration.JvmLocks();
		Set<Lock> distinct = Collections.newSetFromMap(new IdentityHashMap<>());
		for (int i = 0; i < 10_000; i++) {
			distinct.add(locks.obtain(UserAuthorization.lockKey("people", "user-" + i), Duration.ofSeconds(70)));
		}
		assertThat(distinct).hasSize(256);
		assertThat(locks.obtain("people", Duration.ZERO)).isNotIn(distinct)
			.isSameAs(locks.obtain("people", Duration.ZERO));
		assertThat(locks.obtain("people:user:ada", Duration.ZERO))
			.isSameAs(locks.obtain("people:user:ada", Duration.ZERO));
	}

}
