package io.github.mcpsupervisor.authorization;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

import org.jspecify.annotations.Nullable;

/**
 * The OAuth authorizations of the application's servers, for its web layer: which ones
 * wait for a person, and the completion of their authorization code flow. The
 * application's redirect endpoint (the {@code redirect-uri} of the client registration)
 * hands the query parameters of the authorization server's redirect to
 * {@link #complete(Map)}:
 *
 * <pre class="code">
 * &#064;GetMapping("/authorized/mcp")
 * String authorized(&#064;RequestParam Map&lt;String, String&gt; parameters) {
 *     String server = this.authorizations.complete(parameters);
 *     return "MCP server " + server + " is authorized";
 * }
 * </pre>
 *
 * @since 0.1.0
 */
public class McpServerAuthorizations {

	private final Map<String, McpServerAuthorization> servers;

	private final McpUserResolver users;

	/**
	 * Creates the authorizations of the given servers.
	 * @param servers the authorization of each server that has one, by its name
	 */
	public McpServerAuthorizations(Map<String, ? extends McpServerAuthorization> servers) {
		this(servers, McpUserResolver.DEFAULT);
	}

	/**
	 * Creates the authorizations of the given servers, whose users are told by a
	 * resolver.
	 * @param servers the authorization of each server that has one, by its name
	 * @param users tells which user completes a request, within that user's request
	 */
	public McpServerAuthorizations(Map<String, ? extends McpServerAuthorization> servers, McpUserResolver users) {
		this.servers = new TreeMap<>(servers);
		this.users = users;
	}

	/**
	 * Returns the authorization of a server.
	 * @param server the server's name
	 * @return its authorization, empty when it has none
	 */
	public Optional<McpServerAuthorization> server(String server) {
		return Optional.ofNullable(this.servers.get(server));
	}

	/**
	 * Returns the authorizations that people must give now, in the order of the servers'
	 * names.
	 * @return the awaited requests
	 */
	public List<McpAuthorizationRequest> pending() {
		return this.servers.values().stream().flatMap((server) -> server.pending().stream()).toList();
	}

	/**
	 * Returns the authorizations a user must give now, to the servers that act for each
	 * user, in the order of the servers' names.
	 * @param user the user's principal name
	 * @return the requests the user may complete
	 */
	public List<McpAuthorizationRequest> pending(String user) {
		return this.servers.values().stream().flatMap((server) -> server.pending(user).stream()).toList();
	}

	/**
	 * Returns the authorization that connects a user's account to a server that acts for
	 * each user: the one awaited from the user, or a new one (for a "connect" link shown
	 * before the user's first request).
	 * @param server the server's name
	 * @param user the user's principal name
	 * @return the request, which only that user can complete
	 * @throws IllegalArgumentException if the server does not act for each user
	 */
	public McpAuthorizationRequest connect(String server, String user) {
		return actingForUsers(server).connect(user);
	}

	/**
	 * Disconnects a user's account from a server that acts for each user: the user's
	 * tokens are revoked at the authorization server (where it has a revocation endpoint,
	 * RFC 7009) and forgotten, with any request awaited from the user. The user's next
	 * request needs the account connected again.
	 * @param server the server's name
	 * @param user the user's principal name
	 * @return whether the user had connected the account
	 * @throws IllegalArgumentException if the server does not act for each user
	 */
	public boolean disconnect(String server, String user) {
		return actingForUsers(server).disconnect(user);
	}

	private McpServerAuthorization actingForUsers(String server) {
		McpServerAuthorization authorization = this.servers.get(server);
		if (authorization == null || !authorization.actsForUsers()) {
			throw new IllegalArgumentException("MCP server '" + server + "' does not act for each user"
					+ " (mcp.servers." + server + ".oauth.acts-for=user)");
		}
		return authorization;
	}

	/**
	 * Completes the authorization that an authorization server's redirect answers. A
	 * request of a user's is completed only within that user's own request: the user is
	 * the one the application's {@link McpUserResolver} tells on the calling thread (by
	 * default, Spring Security's authenticated user).
	 * @param parameters the redirect's query parameters ({@code state}, {@code code},
	 * {@code iss}, or {@code error})
	 * @return the name of the server now authorized
	 * @throws McpAuthorizationException if the answer matches no awaited request, is an
	 * error, belongs to another user, or cannot be used
	 */
	public String complete(Map<String, String> parameters) {
		return complete(parameters, this.users.resolve(null));
	}

	/**
	 * Completes the authorization that an authorization server's redirect answers, for a
	 * given user.
	 * @param parameters the redirect's query parameters ({@code state}, {@code code},
	 * {@code iss}, or {@code error})
	 * @param user the principal name of the user whose request this is, {@code null} for
	 * none: a request of a user's is refused unless it was made for that same user
	 * @return the name of the server now authorized
	 * @throws McpAuthorizationException if the answer matches no awaited request, is an
	 * error, belongs to another user, or cannot be used
	 */
	public String complete(Map<String, String> parameters, @Nullable String user) {
		String state = parameters.get("state");
		if (state == null || state.isEmpty()) {
			throw new McpAuthorizationException("the authorization response has no state");
		}
		Map.Entry<String, McpServerAuthorization> awaiting = this.servers.entrySet()
			.stream()
			.filter((entry) -> entry.getValue().awaits(state))
			.findFirst()
			.orElseThrow(() -> new McpAuthorizationException("no MCP server awaits an authorization with this state"));
		String error = parameters.get("error");
		if (error != null) {
			// the error's description is the authorization server's text: not repeated
			throw new McpAuthorizationException("the authorization of MCP server '" + awaiting.getKey()
					+ "' was answered with the error " + bounded(error));
		}
		String code = parameters.get("code");
		if (code == null || code.isEmpty()) {
			throw new McpAuthorizationException(
					"the authorization response for MCP server '" + awaiting.getKey() + "' has no code");
		}
		awaiting.getValue().complete(state, code, parameters.get("iss"), user);
		return awaiting.getKey();
	}

	private static String bounded(String error) {
		String code = error.replaceAll("[^A-Za-z0-9_.-]", "?");
		return (code.length() > 64) ? code.substring(0, 64) + "…" : code;
	}

	/**
	 * The OAuth authorization of one server, as far as a person takes part in it.
	 *
	 * @since 0.1.0
	 */
	public interface McpServerAuthorization {

		/**
		 * Returns the authorization a person must give, if one is awaited.
		 * @return the request, until it is completed or expires
		 */
		Optional<McpAuthorizationRequest> pending();

		/**
		 * Returns whether a state is the one of this server's awaited request.
		 * @param state the {@code state} of an authorization response
		 * @return whether the response is this server's
		 */
		boolean awaits(String state);

		/**
		 * Completes the awaited request with the authorization server's answer: checks
		 * its issuer (RFC 9207), exchanges its code with the PKCE verifier and keeps the
		 * tokens; the server then connects on its own.
		 * @param state the answer's {@code state}
		 * @param code the answer's {@code code}
		 * @param issuer the answer's {@code iss}, if any
		 * @throws McpAuthorizationException if the answer cannot be used
		 */
		void complete(String state, String code, @Nullable String issuer);

		/**
		 * Completes the awaited request with the authorization server's answer, within
		 * the request of a user: a request awaited from a user is completed only by that
		 * user. By default, as {@link #complete(String, String, String)}.
		 * @param state the answer's {@code state}
		 * @param code the answer's {@code code}
		 * @param issuer the answer's {@code iss}, if any
		 * @param user the principal name of the user who completes it, {@code null} for
		 * none
		 * @throws McpAuthorizationException if the answer cannot be used, or the request
		 * was made for another user
		 */
		default void complete(String state, String code, @Nullable String issuer, @Nullable String user) {
			complete(state, code, issuer);
		}

		/**
		 * Returns whether the server acts for each user: each user connects their own
		 * account.
		 * @return whether it acts for each user
		 */
		default boolean actsForUsers() {
			return false;
		}

		/**
		 * Returns the authorization a user must give, if one is awaited.
		 * @param user the user's principal name
		 * @return the request, until it is completed or expires; empty for a server that
		 * does not act for each user
		 */
		default Optional<McpAuthorizationRequest> pending(String user) {
			return Optional.empty();
		}

		/**
		 * Returns the authorization that connects a user's account: the one awaited, or a
		 * new one.
		 * @param user the user's principal name
		 * @return the request
		 * @throws UnsupportedOperationException for a server that does not act for each
		 * user
		 */
		default McpAuthorizationRequest connect(String user) {
			throw new UnsupportedOperationException("the server does not act for each user");
		}

		/**
		 * Disconnects a user's account: revokes and forgets the user's tokens.
		 * @param user the user's principal name
		 * @return whether the user had connected the account
		 * @throws UnsupportedOperationException for a server that does not act for each
		 * user
		 */
		default boolean disconnect(String user) {
			throw new UnsupportedOperationException("the server does not act for each user");
		}

		/**
		 * Returns what operators see of the authorization: where it is kept, and its
		 * current token's times (never the token).
		 * @return its state
		 */
		McpAuthorizationState state();

	}

	/**
	 * What operators see of a server's authorization.
	 *
	 * @param store where it is kept: {@code memory} for this JVM only, {@code jdbc} in
	 * the database that the application's replicas share
	 * @param renewedAt when its current access token was issued: its last renewal, by
	 * whichever replica made it
	 * @param expiresAt when the current access token expires
	 * @param refreshable whether a refresh token renews it without a person
	 * @since 0.1.0
	 */
	public record McpAuthorizationState(String store, @Nullable Instant renewedAt, @Nullable Instant expiresAt,
			boolean refreshable) {

	}

}
