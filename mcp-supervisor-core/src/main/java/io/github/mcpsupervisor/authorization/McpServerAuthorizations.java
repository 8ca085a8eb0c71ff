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

	/**
	 * Creates the authorizations of the given servers.
	 * @param servers the authorization of each server that has one, by its name
	 */
	public McpServerAuthorizations(Map<String, ? extends McpServerAuthorization> servers) {
		this.servers = new TreeMap<>(servers);
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
	 * Completes the authorization that an authorization server's redirect answers.
	 * @param parameters the redirect's query parameters ({@code state}, {@code code},
	 * {@code iss}, or {@code error})
	 * @return the name of the server now authorized
	 * @throws McpAuthorizationException if the answer matches no awaited request, is an
	 * error, or cannot be used
	 */
	public String complete(Map<String, String> parameters) {
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
		awaiting.getValue().complete(state, code, parameters.get("iss"));
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
