package io.github.mcpsupervisor.authorization;

import java.net.URI;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

import org.jspecify.annotations.Nullable;

import org.springframework.security.oauth2.client.OAuth2AuthorizedClientService;
import org.springframework.security.oauth2.client.registration.ClientRegistrationRepository;

/**
 * Where the OAuth authorizations of the application's servers are kept: the requests that
 * wait for a person, the clients registered dynamically with an authorization server, and
 * the tokens. Replicas of an application that share one store ({@link #isShared()}, such
 * as {@link JdbcMcpAuthorizationStore} on their database) share its authorizations: a
 * person authorizes a server once, through any replica, and a replica that starts later
 * needs no one while the refresh token lives.
 * <p>
 * The values are keyed by the server's name, which the replicas of one application share.
 * A server that acts for each user of the application awaits, besides its own request,
 * one request per user, keyed by the server's name and the user's principal name: any
 * replica completes either. Implementations are thread-safe.
 *
 * @since 0.1.0
 */
public interface McpAuthorizationStore {

	/**
	 * Returns how the store keeps the authorizations, for operators ({@code memory},
	 * {@code jdbc}).
	 * @return the store's kind
	 */
	String kind();

	/**
	 * Returns whether other JVMs see what is kept here: a replica whose server waits for
	 * a person then watches the store for an authorization completed elsewhere.
	 * @return whether the store is shared
	 */
	boolean isShared();

	/**
	 * Returns the server's own request, expired or not (not one of its users').
	 * @param server the server's name
	 * @return the request, if one is kept
	 */
	Optional<PendingAuthorization> pending(String server);

	/**
	 * Returns the request a server awaits from one of its users, expired or not.
	 * @param server the server's name
	 * @param user the user's principal name
	 * @return the request, if one is kept
	 */
	Optional<PendingAuthorization> pending(String server, String user);

	/**
	 * Returns the request of a server, its own or one of its users', whose state is the
	 * given one, expired or not: the request an authorization response answers.
	 * @param server the server's name
	 * @param state the state of an authorization response
	 * @return the request, if one is kept
	 */
	Optional<PendingAuthorization> pendingWithState(String server, String state);

	/**
	 * Keeps a request for a person unless the server awaits another that has not expired
	 * (from the same user, for a user's request: {@link PendingAuthorization#user()});
	 * either way, returns the one the server awaits, so that replicas asking at once ask
	 * with one request. A user's request never replaces the server's own nor another
	 * user's.
	 * @param request the new request
	 * @param now the time
	 * @return the request the server awaits: the given one, or the one kept before
	 */
	PendingAuthorization awaitIfAbsent(PendingAuthorization request, Instant now);

	/**
	 * Keeps a request for a person in place of any other the server awaits (from the same
	 * user, for a user's request): the scopes of a step-up.
	 * @param request the new request
	 */
	void await(PendingAuthorization request);

	/**
	 * Forgets a server's request, its own or one of its users', once completed.
	 * @param server the server's name
	 * @param state the completed request's state
	 * @return whether the request was kept (false when another completed it first)
	 */
	boolean complete(String server, String state);

	/**
	 * Returns the client registered dynamically for a server with an authorization
	 * server.
	 * @param server the server's name
	 * @param issuer the authorization server's issuer
	 * @return the client, if one is kept
	 */
	Optional<DynamicClient> dynamicClient(String server, String issuer);

	/**
	 * Keeps a client registered dynamically unless one is kept for the server and issuer
	 * already; either way, returns the one kept.
	 * @param client the client just registered
	 * @return the client kept: the given one, or the one another replica registered first
	 */
	DynamicClient keepIfAbsent(DynamicClient client);

	/**
	 * Forgets the client registered for a server with an authorization server (one that
	 * no longer fits the application's configuration).
	 * @param server the server's name
	 * @param issuer the authorization server's issuer
	 */
	void forget(String server, String issuer);

	/**
	 * Returns where the tokens of the registrations of a repository are kept.
	 * @param registrations the registrations the tokens are for
	 * @return the tokens' service
	 */
	OAuth2AuthorizedClientService authorizedClients(ClientRegistrationRepository registrations);

	/**
	 * A request that a person must answer: the authorization code flow's state and PKCE
	 * verifier, which complete it on any replica.
	 *
	 * @param server the server's name
	 * @param registration the id of the client registration it is for
	 * @param state the request's state
	 * @param codeVerifier the PKCE code verifier of its challenge (a secret)
	 * @param authorizationUri the URL a person opens
	 * @param redirectUri where the authorization server sends the person back
	 * @param scopes the scopes asked for
	 * @param expiresAt when it stops being accepted
	 * @param user the principal name of the user the request is for, for a server that
	 * acts for each user; null for the server's own request
	 * @since 0.1.0
	 */
	record PendingAuthorization(String server, String registration, String state, String codeVerifier,
			URI authorizationUri, URI redirectUri, List<String> scopes, Instant expiresAt, @Nullable String user) {

		public PendingAuthorization {
			scopes = List.copyOf(scopes);
		}

		/**
		 * Creates the server's own request.
		 * @param server the server's name
		 * @param registration the id of the client registration it is for
		 * @param state the request's state
		 * @param codeVerifier the PKCE code verifier of its challenge (a secret)
		 * @param authorizationUri the URL a person opens
		 * @param redirectUri where the authorization server sends the person back
		 * @param scopes the scopes asked for
		 * @param expiresAt when it stops being accepted
		 */
		public PendingAuthorization(String server, String registration, String state, String codeVerifier,
				URI authorizationUri, URI redirectUri, List<String> scopes, Instant expiresAt) {
			this(server, registration, state, codeVerifier, authorizationUri, redirectUri, scopes, expiresAt, null);
		}

		/**
		 * Returns whether the request is no longer accepted.
		 * @param now the time
		 * @return whether it expired
		 */
		public boolean isExpired(Instant now) {
			return !this.expiresAt.isAfter(now);
		}

		/**
		 * Returns the request as a person sees it.
		 * @return the request
		 */
		public McpAuthorizationRequest request() {
			return new McpAuthorizationRequest(this.server, this.registration, this.authorizationUri, this.scopes,
					this.expiresAt, this.user);
		}

		// neither the verifier, a secret, nor the user, a person's name, is written out
		@Override
		public String toString() {
			return "PendingAuthorization[server=" + this.server + ", registration=" + this.registration + ", scopes="
					+ this.scopes + ", expiresAt=" + this.expiresAt + "]";
		}

	}

	/**
	 * A client that an authorization server registered for a server (RFC 7591).
	 *
	 * @param server the server's name
	 * @param issuer the authorization server's issuer
	 * @param redirectUri the redirect URI it was registered with
	 * @param clientId its client id
	 * @param clientSecret its secret, if the authorization server gave one
	 * @param authenticationMethod how it authenticates at the token endpoint
	 * ({@code none}, {@code client_secret_basic}, {@code client_secret_post})
	 * @since 0.1.0
	 */
	record DynamicClient(String server, String issuer, URI redirectUri, String clientId, @Nullable String clientSecret,
			String authenticationMethod) {

		@Override
		public String toString() {
			return "DynamicClient[server=" + this.server + ", issuer=" + this.issuer + ", clientId=" + this.clientId
					+ ", clientSecret=" + ((this.clientSecret != null) ? "******" : null) + "]";
		}

	}

}
