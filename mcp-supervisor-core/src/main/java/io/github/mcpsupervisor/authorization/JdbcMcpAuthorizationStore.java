package io.github.mcpsupervisor.authorization;

import java.net.URI;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;

import org.jspecify.annotations.Nullable;

import org.springframework.dao.DuplicateKeyException;
import org.springframework.jdbc.core.JdbcOperations;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.security.oauth2.client.JdbcOAuth2AuthorizedClientService;
import org.springframework.security.oauth2.client.OAuth2AuthorizedClientService;
import org.springframework.security.oauth2.client.registration.ClientRegistrationRepository;

/**
 * An {@link McpAuthorizationStore} in a database that the application's replicas share:
 * its own tables {@code mcp_authorization_request} (a server's own request),
 * {@code mcp_user_authorization_request} (the requests of a server's users) and
 * {@code mcp_dynamic_client}, and Spring Security's {@code oauth2_authorized_client}
 * through its {@link JdbcOAuth2AuthorizedClientService}. The schemas are
 * {@code io/github/mcpsupervisor/authorization/schema-h2.sql} and
 * {@code schema-postgresql.sql}.
 * <p>
 * Each operation is one statement, or an insert that a unique key settles against another
 * replica's: no transaction is needed. The times are kept as epoch milliseconds, whatever
 * the time zone of each replica.
 *
 * @since 0.1.0
 */
public class JdbcMcpAuthorizationStore implements McpAuthorizationStore {

	private final JdbcOperations jdbcOperations;

	private final JdbcClient jdbc;

	private final Clock clock;

	/**
	 * Creates a store on a database.
	 * @param jdbcOperations the database's operations
	 * @param clock the time of the clients' registrations
	 */
	public JdbcMcpAuthorizationStore(JdbcOperations jdbcOperations, Clock clock) {
		this.jdbcOperations = jdbcOperations;
		this.jdbc = JdbcClient.create(jdbcOperations);
		this.clock = clock;
	}

	/**
	 * Checks that the store's tables exist, as a start does before a server needs them.
	 * @throws org.springframework.dao.DataAccessException if one cannot be read
	 */
	public void checkTables() {
		for (String table : List.of("mcp_authorization_request", "mcp_user_authorization_request", "mcp_dynamic_client",
				"oauth2_authorized_client")) {
			this.jdbc.sql("SELECT COUNT(*) FROM " + table + " WHERE 1 = 0").query(Integer.class).single();
		}
	}

	@Override
	public String kind() {
		return "jdbc";
	}

	@Override
	public boolean isShared() {
		return true;
	}

	@Override
	public Optional<PendingAuthorization> pending(String server) {
		return this.jdbc
			.sql("SELECT server, registration_id, state, code_verifier, authorization_uri, redirect_uri, scopes,"
					+ " expires_at FROM mcp_authorization_request WHERE server = ?")
			.param(server)
			.query(JdbcMcpAuthorizationStore::pending)
			.optional();
	}

	@Override
	public Optional<PendingAuthorization> pending(String server, String user) {
		return this.jdbc
			.sql("SELECT server, principal_name, registration_id, state, code_verifier, authorization_uri,"
					+ " redirect_uri, scopes, expires_at FROM mcp_user_authorization_request"
					+ " WHERE server = ? AND principal_name = ?")
			.params(server, user)
			.query(JdbcMcpAuthorizationStore::userPending)
			.optional();
	}

	@Override
	public Optional<PendingAuthorization> pendingWithState(String server, String state) {
		Optional<PendingAuthorization> own = this.jdbc
			.sql("SELECT server, registration_id, state, code_verifier, authorization_uri, redirect_uri, scopes,"
					+ " expires_at FROM mcp_authorization_request WHERE server = ? AND state = ?")
			.params(server, state)
			.query(JdbcMcpAuthorizationStore::pending)
			.optional();
		if (own.isPresent()) {
			return own;
		}
		// a state is random: two users' requests do not share it
		return this.jdbc
			.sql("SELECT server, principal_name, registration_id, state, code_verifier, authorization_uri,"
					+ " redirect_uri, scopes, expires_at FROM mcp_user_authorization_request"
					+ " WHERE server = ? AND state = ?")
			.params(server, state)
			.query(JdbcMcpAuthorizationStore::userPending)
			.list()
			.stream()
			.findFirst();
	}

	@Override
	public PendingAuthorization awaitIfAbsent(PendingAuthorization request, Instant now) {
		String user = request.user();
		if (user != null) {
			return awaitIfAbsent(request, user, now);
		}
		this.jdbc.sql("DELETE FROM mcp_authorization_request WHERE server = ? AND expires_at <= ?")
			.params(request.server(), now.toEpochMilli())
			.update();
		try {
			insert(request);
			return request;
		}
		catch (DuplicateKeyException ex) {
			// another replica asked first: its request is the fleet's
			return pending(request.server()).orElseGet(() -> awaitIfAbsent(request, now));
		}
	}

	// A user's request: read first, as a user who has not answered is asked again and
	// again, so that only replicas asking at once meet on the key (a duplicate that a
	// database server may log).
	private PendingAuthorization awaitIfAbsent(PendingAuthorization request, String user, Instant now) {
		Optional<PendingAuthorization> kept = pending(request.server(), user);
		if (kept.isPresent() && !kept.get().isExpired(now)) {
			return kept.get();
		}
		this.jdbc
			.sql("DELETE FROM mcp_user_authorization_request WHERE server = ? AND principal_name = ?"
					+ " AND expires_at <= ?")
			.params(request.server(), user, now.toEpochMilli())
			.update();
		try {
			insert(request, user);
			return request;
		}
		catch (DuplicateKeyException ex) {
			// another replica asked first: its request is the fleet's
			return pending(request.server(), user).orElseGet(() -> awaitIfAbsent(request, user, now));
		}
	}

	@Override
	public void await(PendingAuthorization request) {
		String user = request.user();
		if (user != null) {
			await(request, user);
			return;
		}
		this.jdbc.sql("DELETE FROM mcp_authorization_request WHERE server = ?").param(request.server()).update();
		try {
			insert(request);
		}
		catch (DuplicateKeyException ex) {
			await(request);
		}
	}

	private void await(PendingAuthorization request, String user) {
		this.jdbc.sql("DELETE FROM mcp_user_authorization_request WHERE server = ? AND principal_name = ?")
			.params(request.server(), user)
			.update();
		try {
			insert(request, user);
		}
		catch (DuplicateKeyException ex) {
			await(request, user);
		}
	}

	private void insert(PendingAuthorization request) {
		this.jdbc
			.sql("INSERT INTO mcp_authorization_request (server, registration_id, state, code_verifier,"
					+ " authorization_uri, redirect_uri, scopes, expires_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)")
			.params(request.server(), request.registration(), request.state(), request.codeVerifier(),
					request.authorizationUri().toString(), request.redirectUri().toString(),
					String.join(" ", request.scopes()), request.expiresAt().toEpochMilli())
			.update();
	}

	private void insert(PendingAuthorization request, String user) {
		this.jdbc
			.sql("INSERT INTO mcp_user_authorization_request (server, principal_name, registration_id, state,"
					+ " code_verifier, authorization_uri, redirect_uri, scopes, expires_at)"
					+ " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)")
			.params(request.server(), user, request.registration(), request.state(), request.codeVerifier(),
					request.authorizationUri().toString(), request.redirectUri().toString(),
					String.join(" ", request.scopes()), request.expiresAt().toEpochMilli())
			.update();
	}

	@Override
	public boolean complete(String server, String state) {
		return this.jdbc.sql("DELETE FROM mcp_authorization_request WHERE server = ? AND state = ?")
			.params(server, state)
			.update() > 0
				|| this.jdbc.sql("DELETE FROM mcp_user_authorization_request WHERE server = ? AND state = ?")
					.params(server, state)
					.update() > 0;
	}

	@Override
	public Optional<DynamicClient> dynamicClient(String server, String issuer) {
		return this.jdbc
			.sql("SELECT server, issuer, redirect_uri, client_id, client_secret, authentication_method"
					+ " FROM mcp_dynamic_client WHERE server = ? AND issuer = ?")
			.params(server, issuer)
			.query(JdbcMcpAuthorizationStore::dynamicClient)
			.optional();
	}

	@Override
	public DynamicClient keepIfAbsent(DynamicClient client) {
		try {
			this.jdbc
				.sql("INSERT INTO mcp_dynamic_client (server, issuer, redirect_uri, client_id, client_secret,"
						+ " authentication_method, registered_at) VALUES (?, ?, ?, ?, ?, ?, ?)")
				.params(client.server(), client.issuer(), client.redirectUri().toString(), client.clientId(),
						client.clientSecret(), client.authenticationMethod(), this.clock.millis())
				.update();
			return client;
		}
		catch (DuplicateKeyException ex) {
			return dynamicClient(client.server(), client.issuer()).orElseGet(() -> keepIfAbsent(client));
		}
	}

	@Override
	public void forget(String server, String issuer) {
		this.jdbc.sql("DELETE FROM mcp_dynamic_client WHERE server = ? AND issuer = ?").params(server, issuer).update();
	}

	@Override
	public OAuth2AuthorizedClientService authorizedClients(ClientRegistrationRepository registrations) {
		return new JdbcOAuth2AuthorizedClientService(this.jdbcOperations, registrations);
	}

	private static PendingAuthorization pending(ResultSet row, int number) throws SQLException {
		return pending(row, (String) null);
	}

	private static PendingAuthorization userPending(ResultSet row, int number) throws SQLException {
		return pending(row, row.getString("principal_name"));
	}

	private static PendingAuthorization pending(ResultSet row, @Nullable String user) throws SQLException {
		String scopes = row.getString("scopes");
		List<String> list = scopes.isEmpty() ? List.of() : Arrays.asList(scopes.split(" "));
		return new PendingAuthorization(row.getString("server"), row.getString("registration_id"),
				row.getString("state"), row.getString("code_verifier"), URI.create(row.getString("authorization_uri")),
				URI.create(row.getString("redirect_uri")), list, Instant.ofEpochMilli(row.getLong("expires_at")), user);
	}

	private static DynamicClient dynamicClient(ResultSet row, int number) throws SQLException {
		return new DynamicClient(row.getString("server"), row.getString("issuer"),
				URI.create(row.getString("redirect_uri")), row.getString("client_id"), row.getString("client_secret"),
				row.getString("authentication_method"));
	}

}
