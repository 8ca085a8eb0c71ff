package io.github.mcpsupervisor.benchmark;

import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;

import io.github.mcpsupervisor.authorization.McpAuthorizationRequest;
import io.github.mcpsupervisor.authorization.McpAuthorizationRequiredEvent;
import io.github.mcpsupervisor.authorization.McpServerAuthorizations;
import io.github.mcpsupervisor.authorization.McpServerAuthorizations.McpAuthorizationState;
import io.github.mcpsupervisor.autoconfigure.McpSupervisorAutoConfiguration;
import io.github.mcpsupervisor.autoconfigure.authorization.McpAuthorizationAutoConfiguration;
import io.github.mcpsupervisor.demo.oauth.DemoAuthorizationServer;
import io.github.mcpsupervisor.supervisor.McpServerState;
import io.github.mcpsupervisor.supervisor.McpServerStateChange;
import io.github.mcpsupervisor.supervisor.McpServerSupervisor;
import io.github.mcpsupervisor.supervisor.McpSupervisors;
import io.github.mcpsupervisor.supervisor.SupervisorListener;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.MeterBinder;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;

import org.springframework.boot.Banner;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.ImportAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration;
import org.springframework.boot.jdbc.autoconfigure.JdbcTemplateAutoConfiguration;
import org.springframework.boot.security.oauth2.client.autoconfigure.OAuth2ClientAutoConfiguration;
import org.springframework.context.ApplicationListener;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Configuration;

/**
 * One replica of an application that calls an OAuth-protected MCP server as a person
 * authorized it: a Spring Boot context of its own, with the starter's auto-configurations
 * and Boot's for a {@code DataSource} (a Hikari pool of its own on the shared database)
 * and Spring Security's OAuth2 client, configured as the documentation configures
 * replicas on one database. It records the requests for a person it published and its
 * server's state changes.
 */
final class Replica implements AutoCloseable {

	/** The protected server's name in every replica. */
	static final String SERVER = "remote";

	private static final String RENEWALS_METER = "mcp.authorization.renewals";

	private final ConfigurableApplicationContext context;

	private final Asked asked = new Asked();

	private final StateChanges changes = new StateChanges();

	private final MeterRegistry meters = new SimpleMeterRegistry();

	/**
	 * Starts a replica.
	 * @param name its name, the name of its connection pool
	 * @param database the database the replicas share
	 * @param authorizationServer the authorization server of the {@code person} client
	 * @param url the protected MCP server's URL
	 */
	Replica(String name, ReplicaDatabase database, DemoAuthorizationServer authorizationServer, String url) {
		this.context = new SpringApplicationBuilder(ReplicaApplication.class).web(WebApplicationType.NONE)
			.bannerMode(Banner.Mode.OFF)
			.logStartupInfo(false)
			.listeners(this.asked)
			.initializers((context) -> context.getBeanFactory().registerSingleton("stateChanges", this.changes))
			.properties(properties(name, database, authorizationServer, url))
			.run();
		this.context.getBean("mcpAuthorizationRenewalMeters", MeterBinder.class).bindTo(this.meters);
	}

	// What the application sets: its database, the person's client registration and the
	// server, as ReplicasIT configures a replica.
	private static Map<String, Object> properties(String name, ReplicaDatabase database,
			DemoAuthorizationServer authorizationServer, String url) {
		Map<String, Object> properties = new LinkedHashMap<>();
		properties.put("spring.config.location", "optional:classpath:/nothing/");
		properties.put("spring.main.register-shutdown-hook", "false");
		properties.put("spring.datasource.url", database.url());
		properties.put("spring.datasource.username", ReplicaDatabase.USER);
		properties.put("spring.datasource.password", ReplicaDatabase.PASSWORD);
		properties.put("spring.datasource.hikari.pool-name", name);
		// a database server, not an embedded one: the application creates the tables
		properties.put("mcp.authorization.jdbc.initialize-schema", "always");
		String client = "spring.security.oauth2.client.registration.person.";
		properties.put(client + "provider", "demo");
		properties.put(client + "client-id", DemoAuthorizationServer.PERSON_CLIENT);
		properties.put(client + "client-secret", DemoAuthorizationServer.PERSON_SECRET);
		properties.put(client + "client-authentication-method", "client_secret_basic");
		properties.put(client + "authorization-grant-type", "authorization_code");
		properties.put(client + "scope", "mcp:read");
		properties.put(client + "redirect-uri", DemoAuthorizationServer.REDIRECT_URI);
		properties.put("spring.security.oauth2.client.provider.demo.issuer-uri", authorizationServer.issuer());
		String server = "mcp.servers." + SERVER + ".";
		properties.put(server + "oauth.registration", "person");
		properties.put(server + "url", url);
		properties.put(server + "protocol", "2025-11-25");
		properties.put(server + "transport", "streamable-http");
		properties.put(server + "required", "true");
		properties.put(server + "reconnect.initial-delay", "100ms");
		// a call while the server is not UP fails at once: every such moment is counted
		properties.put(server + "call.wait-for-recovery", "0");
		return properties;
	}

	McpServerSupervisor supervisor() {
		return this.context.getBean(McpSupervisors.class).supervisor(SERVER);
	}

	McpServerAuthorizations authorizations() {
		return this.context.getBean(McpServerAuthorizations.class);
	}

	/**
	 * Returns the lifetime of the current token as the replica keeps it: from when it was
	 * received to its expiry, by the {@code expires_in} of the token response.
	 * @return the token's lifetime
	 */
	Duration tokenLifetime() {
		McpAuthorizationState state = authorizations().server(SERVER).orElseThrow().state();
		Instant renewedAt = state.renewedAt();
		Instant expiresAt = state.expiresAt();
		if (renewedAt == null || expiresAt == null) {
			throw new IllegalStateException("the replica keeps no token that expires");
		}
		return Duration.between(renewedAt, expiresAt);
	}

	/**
	 * Returns the requests for a person this replica published.
	 * @return the requests, in their order
	 */
	List<McpAuthorizationRequest> asked() {
		return List.copyOf(this.asked.requests);
	}

	/**
	 * Returns how many times its server left UP since a time.
	 * @param since a {@link System#nanoTime()}
	 * @return the state changes from UP at or after that time
	 */
	long leftUpSince(long since) {
		return this.changes.leftUp.stream().filter((at) -> at >= since).count();
	}

	/**
	 * Returns the count of its renewal meter for a result.
	 * @param result {@code renewed} or {@code already-renewed}
	 * @return the count
	 */
	double renewals(String result) {
		return this.meters.get(RENEWALS_METER).tags("server", SERVER, "result", result).functionCounter().count();
	}

	@Override
	public void close() {
		this.context.close();
	}

	/**
	 * The application of a replica: the auto-configurations it needs, nothing else.
	 */
	@Configuration(proxyBeanMethods = false)
	@ImportAutoConfiguration({ DataSourceAutoConfiguration.class, JdbcTemplateAutoConfiguration.class,
			OAuth2ClientAutoConfiguration.class, McpAuthorizationAutoConfiguration.class,
			McpSupervisorAutoConfiguration.class })
	static class ReplicaApplication {

	}

	/**
	 * The requests for a person the replica published.
	 */
	static final class Asked implements ApplicationListener<McpAuthorizationRequiredEvent> {

		private final List<McpAuthorizationRequest> requests = new CopyOnWriteArrayList<>();

		@Override
		public void onApplicationEvent(McpAuthorizationRequiredEvent event) {
			this.requests.add(event.getRequest());
		}

	}

	/**
	 * When the replica's server left UP.
	 */
	static final class StateChanges implements SupervisorListener {

		private final List<Long> leftUp = new CopyOnWriteArrayList<>();

		@Override
		public void stateChanged(McpServerStateChange change) {
			if (change.from() == McpServerState.UP) {
				this.leftUp.add(System.nanoTime());
			}
		}

	}

}
