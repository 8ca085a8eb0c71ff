package io.github.mcpsupervisor.e2e.authorization;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;

import javax.sql.DataSource;

import io.github.mcpsupervisor.authorization.McpAuthorizationRequest;
import io.github.mcpsupervisor.authorization.McpAuthorizationRequiredEvent;
import io.github.mcpsupervisor.authorization.McpServerAuthorizations;
import io.github.mcpsupervisor.authorization.McpServerAuthorizations.McpAuthorizationState;
import io.github.mcpsupervisor.autoconfigure.McpSupervisorAutoConfiguration;
import io.github.mcpsupervisor.autoconfigure.authorization.McpAuthorizationAutoConfiguration;
import io.github.mcpsupervisor.demo.oauth.DemoAuthorizationServer;
import io.github.mcpsupervisor.demo.oauth.ProtectedDemoMcpServer;
import io.github.mcpsupervisor.e2e.database.PostgreSqlServer;
import io.github.mcpsupervisor.supervisor.McpServerState;
import io.github.mcpsupervisor.supervisor.McpServerSupervisor;
import io.github.mcpsupervisor.supervisor.McpSupervisors;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.MeterBinder;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.modelcontextprotocol.spec.McpSchema.CallToolRequest;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import io.modelcontextprotocol.spec.McpSchema.TextContent;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.security.oauth2.client.autoconfigure.OAuth2ClientAutoConfiguration;
import org.springframework.boot.test.context.assertj.AssertableApplicationContext;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.ApplicationListener;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.SimpleDriverDataSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Replicas of an application on one database, as the documentation configures them: the
 * application's {@code DataSource} and nothing else. Three replicas ask one person once,
 * through any of them, renew each token chain once against an authorization server that
 * rotates refresh tokens and revokes a chain whose replaced token comes back, and restart
 * without asking anyone.
 */
class ReplicasIT {

	private static final Log logger = LogFactory.getLog(ReplicasIT.class);

	private static final Duration PATIENCE = Duration.ofSeconds(30);

	@RegisterExtension
	static final OAuthServers servers = new OAuthServers();

	@RegisterExtension
	static final PostgreSqlServer postgresql = new PostgreSqlServer();

	@ParameterizedTest
	@ValueSource(strings = { "h2", "postgresql" })
	void threeReplicasAskOnePersonOnceThroughAnyOfThemAndRenewEachTokenChainOnce(String database) {
		Database dataSource = database(database);
		List<Replica> replicas = List.of(new Replica(), new Replica(), new Replica());
		ApplicationContextRunner registered = registered(servers.protectedServer().url(ProtectedDemoMcpServer.LEGACY));
		replicas.get(0).runner(registered, dataSource).run((a) -> {
			replicas.get(1).runner(registered, dataSource).run((b) -> {
				replicas.get(2).runner(registered, dataSource).run((c) -> {
					List<AssertableApplicationContext> contexts = List.of(a, b, c);
					List<McpServerSupervisor> supervisors = contexts.stream().map(ReplicasIT::supervisor).toList();
					await().atMost(PATIENCE)
						.until(() -> supervisors.stream()
							.allMatch((supervisor) -> supervisor.state() == McpServerState.NEEDS_AUTHORIZATION));
					McpAuthorizationRequest request = onlyRequest(replicas);
					contexts
						.forEach((context) -> assertThat(authorizations(context).pending()).containsExactly(request));
					int codesBefore = servers.authorization().tokensIssued("authorization_code");
					// the person's browser comes back through a replica that did not ask
					McpServerAuthorizations elsewhere = authorizations(contexts.get(otherThanAsker(replicas)));
					long completed = System.nanoTime();
					assertThat(elsewhere.complete(servers.authorization().authorize(request.authorizationUri())))
						.isEqualTo("remote");
					await().atMost(PATIENCE)
						.until(() -> supervisors.stream()
							.allMatch((supervisor) -> supervisor.state() == McpServerState.UP));
					logger.info("Every replica UP " + Duration.ofNanos(System.nanoTime() - completed).toMillis()
							+ " ms after the completion through one");
					assertThat(servers.authorization().tokensIssued("authorization_code")).isEqualTo(codesBefore + 1);
					List<MeterRegistry> meters = contexts.stream().map(ReplicasIT::meters).toList();
					callsOnEveryReplicaRenewTheRefusedTokenOnce(supervisors);
					// what operators see: one renewal per round for the fleet, the others
					// found it made; where the authorization is kept, and when renewed
					assertThat(renewals(meters, "renewed")).isEqualTo(3);
					assertThat(renewals(meters, "already-renewed")).isPositive();
					contexts.forEach((context) -> {
						McpAuthorizationState state = authorizations(context).server("remote").orElseThrow().state();
						assertThat(state.store()).isEqualTo("jdbc");
						assertThat(state.renewedAt()).isAfter(Instant.now().minus(PATIENCE));
						assertThat(state.refreshable()).isTrue();
					});
				});
				// a replica restarts while the others serve: it asks no one
				replicas.get(2).runner(registered, dataSource).run((restarted) -> {
					await().atMost(PATIENCE).until(supervisor(restarted)::state, McpServerState.UP::equals);
					assertThat(text(call(supervisor(restarted), "restarted"))).isEqualTo("echo: restarted");
				});
			});
		});
		// every replica restarted: the first one up asks no one either
		int codesBefore = servers.authorization().tokensIssued("authorization_code");
		Replica last = new Replica();
		last.runner(registered, dataSource).run((context) -> {
			await().atMost(PATIENCE).until(supervisor(context)::state, McpServerState.UP::equals);
			assertThat(text(call(supervisor(context), "after a rolling restart")))
				.isEqualTo("echo: after a rolling restart");
		});
		assertThat(servers.authorization().tokensIssued("authorization_code")).isEqualTo(codesBefore);
		assertThat(replicas).allSatisfy((replica) -> assertThat(replica.asked).hasSizeLessThanOrEqualTo(1));
		assertThat(replicas.stream().mapToInt((replica) -> replica.asked.size()).sum() + last.asked.size())
			.as("one person asked once for the whole fleet")
			.isOne();
		assertThat(servers.authorization().refreshTokenReuses()).as("a replaced refresh token sent again").isZero();
	}

	@ParameterizedTest
	@ValueSource(strings = { "h2", "postgresql" })
	void aClientRegisteredDynamicallyServesEveryReplicaAndTheNextStart(String database) {
		Database dataSource = database(database);
		List<Replica> replicas = List.of(new Replica(), new Replica());
		int registeredBefore = servers.authorization().clientsRegistered();
		ApplicationContextRunner discovered = new ApplicationContextRunner().withPropertyValues(
				"mcp.servers.remote.oauth.redirect-uri=" + DemoAuthorizationServer.REDIRECT_URI,
				"mcp.servers.remote.url=" + servers.protectedServer().url(ProtectedDemoMcpServer.MODERN),
				"mcp.servers.remote.protocol=2026-07-28");
		replicas.get(0).runner(discovered, dataSource).run((a) -> {
			replicas.get(1).runner(discovered, dataSource).run((b) -> {
				List<McpServerSupervisor> supervisors = List.of(supervisor(a), supervisor(b));
				await().atMost(PATIENCE)
					.until(() -> supervisors.stream()
						.allMatch((supervisor) -> supervisor.state() == McpServerState.NEEDS_AUTHORIZATION));
				assertThat(servers.authorization().clientsRegistered()).as("one client for both replicas")
					.isEqualTo(registeredBefore + 1);
				McpAuthorizationRequest request = onlyRequest(replicas);
				McpServerAuthorizations elsewhere = authorizations(List.of(a, b).get(otherThanAsker(replicas)));
				elsewhere.complete(servers.authorization().authorize(request.authorizationUri()));
				await().atMost(PATIENCE)
					.until(() -> supervisors.stream()
						.allMatch((supervisor) -> supervisor.state() == McpServerState.UP));
			});
		});
		int codesBefore = servers.authorization().tokensIssued("authorization_code");
		new Replica().runner(discovered, dataSource).run((restarted) -> {
			await().atMost(PATIENCE).until(supervisor(restarted)::state, McpServerState.UP::equals);
			assertThat(text(call(supervisor(restarted), "kept"))).isEqualTo("echo: kept");
		});
		assertThat(servers.authorization().clientsRegistered()).as("no new registration")
			.isEqualTo(registeredBefore + 1);
		assertThat(servers.authorization().tokensIssued("authorization_code")).isEqualTo(codesBefore);
	}

	// Rounds of concurrent calls on every replica, each after the server refused every
	// token it had seen: one refresh per round for the fleet.
	private static void callsOnEveryReplicaRenewTheRefusedTokenOnce(List<McpServerSupervisor> supervisors) {
		int replacedBefore = servers.authorization().refreshTokensReplaced();
		for (int round = 0; round < 3; round++) {
			int refreshedBefore = servers.authorization().tokensIssued("refresh_token");
			servers.protectedServer().refuseTokensSeenSoFar();
			List<CompletableFuture<String>> calls = new ArrayList<>();
			for (int i = 0; i < 9; i++) {
				McpServerSupervisor supervisor = supervisors.get(i % supervisors.size());
				String message = "round " + round + " call " + i;
				calls.add(CompletableFuture.supplyAsync(() -> text(call(supervisor, message))));
			}
			for (int i = 0; i < calls.size(); i++) {
				assertThat(calls.get(i).join()).isEqualTo("echo: round " + round + " call " + i);
			}
			assertThat(servers.authorization().tokensIssued("refresh_token")).as("one refresh for the fleet")
				.isEqualTo(refreshedBefore + 1);
		}
		assertThat(servers.authorization().refreshTokensReplaced()).isEqualTo(replacedBefore + 3);
	}

	private static MeterRegistry meters(AssertableApplicationContext context) {
		MeterRegistry registry = new SimpleMeterRegistry();
		context.getBean("mcpAuthorizationRenewalMeters", MeterBinder.class).bindTo(registry);
		return registry;
	}

	private static double renewals(List<MeterRegistry> replicas, String result) {
		return replicas.stream()
			.mapToDouble((registry) -> registry.get("mcp.authorization.renewals")
				.tags("server", "remote", "result", result)
				.functionCounter()
				.count())
			.sum();
	}

	private static McpAuthorizationRequest onlyRequest(List<Replica> replicas) {
		List<McpAuthorizationRequest> asked = replicas.stream().flatMap((replica) -> replica.asked.stream()).toList();
		assertThat(asked).as("one request for the fleet, made by one replica").hasSize(1);
		return asked.get(0);
	}

	private static int otherThanAsker(List<Replica> replicas) {
		for (int i = 0; i < replicas.size(); i++) {
			if (!replicas.get(i).asked.isEmpty()) {
				return (i + 1) % replicas.size();
			}
		}
		throw new IllegalStateException("no replica asked");
	}

	private static ApplicationContextRunner registered(String url) {
		String client = "spring.security.oauth2.client.registration.person.";
		return new ApplicationContextRunner().withPropertyValues(client + "provider=test", client + "client-id=person",
				client + "client-secret=" + DemoAuthorizationServer.PERSON_SECRET,
				client + "client-authentication-method=client_secret_basic",
				client + "authorization-grant-type=authorization_code", client + "scope=mcp:read",
				client + "redirect-uri=" + DemoAuthorizationServer.REDIRECT_URI,
				"spring.security.oauth2.client.provider.test.issuer-uri=" + servers.authorization().issuer(),
				"mcp.servers.remote.oauth.registration=person", "mcp.servers.remote.url=" + url,
				"mcp.servers.remote.protocol=2025-11-25");
	}

	// An embedded database whose tables are created at the start, as by default, or a
	// database server whose tables the application creates (initialize-schema=always)
	private static Database database(String kind) {
		if (kind.equals("h2")) {
			return new Database(new SimpleDriverDataSource(new org.h2.Driver(),
					"jdbc:h2:mem:replicas-" + UUID.randomUUID() + ";DB_CLOSE_DELAY=-1"));
		}
		DataSource dataSource = postgresql.dataSource();
		new JdbcTemplate(dataSource).execute("DROP TABLE IF EXISTS mcp_authorization_request,"
				+ " mcp_user_authorization_request, mcp_dynamic_client, oauth2_authorized_client, int_lock");
		return new Database(dataSource, "mcp.authorization.jdbc.initialize-schema=always");
	}

	private static McpServerSupervisor supervisor(AssertableApplicationContext context) {
		assertThat(context).hasNotFailed();
		return context.getBean(McpSupervisors.class).supervisor("remote");
	}

	private static McpServerAuthorizations authorizations(AssertableApplicationContext context) {
		return context.getBean(McpServerAuthorizations.class);
	}

	private static CallToolResult call(McpServerSupervisor supervisor, String message) {
		return supervisor.callTool(CallToolRequest.builder("echo").arguments(Map.of("message", message)).build());
	}

	private static String text(CallToolResult result) {
		assertThat(result.isError()).as("the result is an error: %s", result).isNotEqualTo(Boolean.TRUE);
		return ((TextContent) result.content().get(0)).text();
	}

	/**
	 * The database the replicas share, and what the application sets for it.
	 *
	 * @param dataSource its data source
	 * @param properties the application's properties for it
	 */
	record Database(DataSource dataSource, String... properties) {

	}

	/**
	 * One replica: the requests it published for a person.
	 */
	static final class Replica implements ApplicationListener<McpAuthorizationRequiredEvent> {

		private final List<McpAuthorizationRequest> asked = new CopyOnWriteArrayList<>();

		@Override
		public void onApplicationEvent(McpAuthorizationRequiredEvent event) {
			this.asked.add(event.getRequest());
		}

		// the application on the database, as the documentation configures it
		ApplicationContextRunner runner(ApplicationContextRunner server, Database database) {
			return server
				.withConfiguration(AutoConfigurations.of(OAuth2ClientAutoConfiguration.class,
						McpAuthorizationAutoConfiguration.class, McpSupervisorAutoConfiguration.class))
				.withBean(DataSource.class, database::dataSource)
				.withPropertyValues(database.properties())
				.withBean(Replica.class, () -> this)
				.withPropertyValues("mcp.servers.remote.transport=streamable-http", "mcp.servers.remote.required=true",
						"mcp.servers.remote.reconnect.initial-delay=100ms",
						"mcp.servers.remote.call.wait-for-recovery=0");
		}

	}

}
