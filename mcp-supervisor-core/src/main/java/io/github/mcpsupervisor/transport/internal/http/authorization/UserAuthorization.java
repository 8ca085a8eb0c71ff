package io.github.mcpsupervisor.transport.internal.http.authorization;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpHeaders;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.Lock;
import java.util.function.Function;
import java.util.function.Supplier;

import io.github.mcpsupervisor.authorization.McpAuthorizationException;
import io.github.mcpsupervisor.authorization.McpAuthorizationRequest;
import io.github.mcpsupervisor.authorization.McpAuthorizationStore;
import io.github.mcpsupervisor.authorization.McpAuthorizationStore.PendingAuthorization;
import io.github.mcpsupervisor.authorization.McpServerAuthorizations.McpAuthorizationState;
import io.github.mcpsupervisor.authorization.McpServerAuthorizations.McpServerAuthorization;
import io.github.mcpsupervisor.authorization.McpUserAuthorizationException;
import io.github.mcpsupervisor.internal.Caller;
import io.github.mcpsupervisor.internal.CauseChain;
import io.github.mcpsupervisor.supervisor.McpConnector.McpConnectException;
import io.github.mcpsupervisor.transport.internal.http.HttpAuthorization;
import io.github.mcpsupervisor.transport.internal.http.authorization.ServerAuthorization.Surroundings;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

import org.springframework.security.authentication.UsernamePasswordAuthenticationToken;
import org.springframework.security.oauth2.client.AuthorizedClientServiceOAuth2AuthorizedClientManager;
import org.springframework.security.oauth2.client.ClientAuthorizationRequiredException;
import org.springframework.security.oauth2.client.OAuth2AuthorizeRequest;
import org.springframework.security.oauth2.client.OAuth2AuthorizedClient;
import org.springframework.security.oauth2.client.OAuth2AuthorizedClientProviderBuilder;
import org.springframework.security.oauth2.client.OAuth2AuthorizedClientService;
import org.springframework.security.oauth2.client.registration.ClientRegistration;
import org.springframework.security.oauth2.client.registration.ClientRegistrationRepository;
import org.springframework.security.oauth2.core.AuthorizationGrantType;
import org.springframework.security.oauth2.core.OAuth2AccessToken;
import org.springframework.security.oauth2.core.OAuth2AuthorizationException;
import org.springframework.security.oauth2.core.endpoint.OAuth2AccessTokenResponse;
import org.springframework.web.client.HttpServerErrorException;
import org.springframework.web.client.ResourceAccessException;

/**
 * The OAuth 2.1 authorization of a streamable-http server that acts for each user: each
 * request the application makes for a user carries that user's own token, from an
 * authorization code registration of the application's, kept in the application's
 * {@link OAuth2AuthorizedClientService} under the user's principal name (shared by
 * replicas through the database).
 * <ul>
 * <li>The requests the supervisor makes on its own (connect, listings, probes,
 * subscriptions) carry the application's identity, a client credentials registration, or
 * no token. So does a request made for no user, where the server's configuration allows
 * it; otherwise that request fails.</li>
 * <li>A user without a token, whose refresh token is refused, or whose token lacks a
 * scope the server asks for, must connect their account: a request bound to that user is
 * kept ({@link #connect(String)}, {@link #pending(String)}), completed only by that user,
 * and that user's request fails with an {@link McpUserAuthorizationException}. The server
 * never waits for a person, and serves the other users.</li>
 * <li>Each user's token chain is renewed under a lock of its own, which replicas
 * share.</li>
 * </ul>
 */
public final class UserAuthorization implements TokenAuthorization {

	/** The most users whose token is kept in memory between requests. */
	static final int CACHED_USERS = 10_000;

	/** What the key of a user's token chain has after its registration's id. */
	public static final String USER_CHAIN = ":user:";

	/** The longest user name, as the stores keep it. */
	static final int MAX_USER_LENGTH = 200;

	private static final Log logger = LogFactory.getLog(UserAuthorization.class);

	private final String server;

	private final ClientRegistration registration;

	private final String resource;

	private final OAuth2AuthorizedClientService clients;

	private final AuthorizedClientServiceOAuth2AuthorizedClientManager manager;

	private final TokenEndpoint tokens;

	private final CodeFlow flow;

	private final Function<String, Lock> locks;

	private final Clock clock;

	private final TokenTimes times;

	private final McpAuthorizationStore store;

	private final Surroundings surroundings;

	private final Identity application;

	// each user's last token read or obtained, sent while it is valid beyond its margin
	// without reading the store
	// without reading the store, for a watch interval at most: a disconnect through a
	// replica is seen by the others within it
	private final Map<String, Cached> cached = new LinkedHashMap<>(16, 0.75f, true) {

		@Override
		protected boolean removeEldestEntry(Map.Entry<String, Cached> eldest) {
			return size() > CACHED_USERS;
		}

	};

	// how many times a user's token was forgotten: a read that began before is not cached
	private final AtomicLong forgets = new AtomicLong();

	private final AtomicLong renewals = new AtomicLong();

	private final AtomicBoolean storeFailing = new AtomicBoolean();

	private final AtomicLong alreadyRenewed = new AtomicLong();

	private UserAuthorization(String server, URI url, ClientRegistration registration,
			OAuth2AuthorizedClientService clients, HttpClient httpClient, Duration timeout,
			Function<String, Lock> locks, Identity application, Surroundings surroundings) {
		this.server = server;
		this.registration = registration;
		this.resource = ResourceIndicator.of(url);
		this.clients = clients;
		this.locks = locks;
		this.application = application;
		this.surroundings = surroundings;
		this.store = surroundings.store();
		this.clock = surroundings.scheduler().clock();
		this.times = new TokenTimes(this.clock);
		Clock clock = this.clock;
		this.tokens = new TokenEndpoint(httpClient, timeout, () -> this.resource, () -> null);
		this.flow = new CodeFlow(server, this.tokens, clock);
		ClientRegistrationRepository own = (id) -> registration.getRegistrationId().equals(id) ? registration : null;
		this.manager = new AuthorizedClientServiceOAuth2AuthorizedClientManager(own, clients);
		this.manager.setAuthorizedClientProvider(OAuth2AuthorizedClientProviderBuilder.builder()
			.authorizationCode()
			.refreshToken((refresh) -> refresh.accessTokenResponseClient(this.tokens.refreshToken()).clock(clock))
			.build());
	}

	/**
	 * Creates the authorization of a server that acts for each user, by an authorization
	 * code registration of the application's.
	 * @param server the server's name
	 * @param url the server's URL, whose canonical form is the resource of its tokens
	 * @param registrations the application's client registrations
	 * @param registrationId the id of the registration each user authorizes
	 * @param clients where the users' tokens are kept, under their principal names
	 * @param httpClient the client of the token requests
	 * @param timeout the timeout of each token request's answer
	 * @param locks the lock of each token chain, by its key
	 * @param application how the supervisor's own requests are authorized, and those made
	 * for no user
	 * @param surroundings where requests are kept, the time, and who is told of them
	 * @return the authorization
	 */
	public static UserAuthorization registered(String server, URI url, ClientRegistrationRepository registrations,
			String registrationId, OAuth2AuthorizedClientService clients, HttpClient httpClient, Duration timeout,
			Function<String, Lock> locks, Identity application, Surroundings surroundings) {
		ClientRegistration registration = ServerAuthorization.requireRegistration(server, registrations,
				registrationId);
		if (!AuthorizationGrantType.AUTHORIZATION_CODE.equals(registration.getAuthorizationGrantType())) {
			throw new IllegalStateException("MCP server '" + server + "' acts for each user (mcp.servers." + server
					+ ".oauth.acts-for=user): client registration '" + registrationId
					+ "' has authorization-grant-type " + registration.getAuthorizationGrantType().getValue()
					+ ", and each user authorizes with authorization_code; the application's own identity is"
					+ " mcp.servers." + server + ".oauth.application-registration");
		}
		ServerAuthorization.requireAbsoluteRedirect(server, registration);
		return new UserAuthorization(server, url, registration, clients, httpClient, timeout, locks, application,
				surroundings);
	}

	/**
	 * Returns the key of the lock of a user's token chain.
	 * @param registrationId the registration's id
	 * @param user the user's principal name
	 * @return the key: the user's name encoded (it has no {@code :}), so that no two
	 * users' keys are alike, and never shown
	 */
	public static String lockKey(String registrationId, String user) {
		return registrationId + USER_CHAIN
				+ Base64.getUrlEncoder().withoutPadding().encodeToString(user.getBytes(StandardCharsets.UTF_8));
	}

	// whether the application's own requests obtain tokens: a refusal of one is then
	// what that identity says; without one, the server refuses requests without a token
	@Override
	public boolean obtainsTokens() {
		return this.application.authorization().obtainsTokens();
	}

	@Override
	public McpConnectException.Kind refusedAfterRenewal(int status) {
		return this.application.authorization().refusedAfterRenewal(status);
	}

	@Override
	public Runnable whenAuthorized(Runnable authorized) {
		return this.application.authorization().whenAuthorized(authorized);
	}

	@Override
	public boolean actsForUsers() {
		return true;
	}

	@Override
	public @Nullable String authorization() {
		return this.application.authorization().authorization();
	}

	@Override
	public @Nullable String authorization(@Nullable Caller caller) {
		if (caller == null) {
			return this.application.authorization().authorization(); // the supervisor's
																		// own request
		}
		String user = caller.user();
		if (user == null) {
			if (!this.application.servesWithoutUser()) {
				throw noUser();
			}
			return this.application.authorization().authorization();
		}
		if (user.length() > MAX_USER_LENGTH) {
			throw new McpUserAuthorizationException(this.server, "MCP server '" + this.server
					+ "' acts for each user, and this user's name is longer than " + MAX_USER_LENGTH + " characters",
					null, false);
		}
		return usersOwn(() -> "Bearer " + token(user).getTokenValue());
	}

	// A user's request whose store cannot be read or written now fails alone, without
	// the database's message, which may name the user; operators are told once.
	private <T> T usersOwn(Supplier<T> action) {
		try {
			T result = action.get();
			this.storeFailing.set(false);
			return result;
		}
		catch (McpUserAuthorizationException ex) {
			throw ex;
		}
		catch (RuntimeException ex) {
			if (this.storeFailing.compareAndSet(false, true)) {
				logger.warn("MCP server '" + this.server + "': the users' authorizations cannot be read or kept now;"
						+ " their requests fail until they can (the cause at DEBUG)");
			}
			logger.debug("MCP server '" + this.server + "': a user's authorization cannot be read or kept", ex);
			throw new McpUserAuthorizationException(this.server, "the authorization of your account for MCP server '"
					+ this.server + "' cannot be read now; try again later", null, false);
		}
	}

	private McpUserAuthorizationException noUser() {
		return new McpUserAuthorizationException(this.server, "MCP server '" + this.server
				+ "' acts for each user, and this request was made for no user: make it within a user's request, name"
				+ " the user in the tool context, or set mcp.servers." + this.server
				+ ".oauth.without-user=application", null, false);
	}

	// A valid token of the user's, refreshed as needed.
	private OAuth2AccessToken token(String user) {
		OAuth2AccessToken cached = cached(user);
		if (cached != null && this.times.isValid(cached)) {
			return cached;
		}
		String id = this.registration.getRegistrationId();
		long forgotten = this.forgets.get();
		OAuth2AuthorizedClient before = this.clients.loadAuthorizedClient(id, user);
		if (before != null && this.times.isValid(before.getAccessToken())) {
			cache(user, before.getAccessToken(), forgotten);
			return before.getAccessToken();
		}
		Lock lock = this.locks.apply(lockKey(id, user));
		lock.lock();
		try {
			long read = this.forgets.get();
			OAuth2AuthorizedClient stored = this.clients.loadAuthorizedClient(id, user);
			if (stored != null && this.times.isValid(stored.getAccessToken())) {
				if (before != null) {
					// renewed while this request waited for the lock, here or on a
					// replica
					this.alreadyRenewed.incrementAndGet();
				}
				cache(user, stored.getAccessToken(), read);
				return stored.getAccessToken();
			}
			if (stored == null) {
				throw needsUser(user, "needs you to connect your account", registeredScopes());
			}
			return renew(user);
		}
		finally {
			lock.unlock();
		}
	}

	// Under the user's lock: the user's token refreshed, or a request for the user.
	private OAuth2AccessToken renew(String user) {
		OAuth2AuthorizedClient client;
		try {
			client = this.manager
				.authorize(OAuth2AuthorizeRequest.withClientRegistrationId(this.registration.getRegistrationId())
					.principal(user)
					.build());
		}
		catch (ClientAuthorizationRequiredException ex) {
			throw needsUser(user, "needs you to connect your account", registeredScopes());
		}
		catch (OAuth2AuthorizationException ex) {
			// Spring Security reports an unreachable or failing token endpoint as an
			// invalid_token_response: an outage, not a refusal
			if (CauseChain.cause(ex, ResourceAccessException.class) != null
					|| CauseChain.cause(ex, HttpServerErrorException.class) != null) {
				throw unreachable();
			}
			// the manager removed the refused refresh token: the user authorizes again
			this.clients.removeAuthorizedClient(this.registration.getRegistrationId(), user);
			throw needsUser(user, "needs you to connect your account again", registeredScopes());
		}
		catch (ResourceAccessException ex) {
			throw unreachable();
		}
		if (client == null || this.times.isExpired(client.getAccessToken())) {
			// a token without a refresh token: only the user helps
			this.clients.removeAuthorizedClient(this.registration.getRegistrationId(), user);
			throw needsUser(user, "needs you to connect your account again", registeredScopes());
		}
		this.renewals.incrementAndGet();
		cache(user, client.getAccessToken(), this.forgets.get());
		return client.getAccessToken();
	}

	private McpUserAuthorizationException unreachable() {
		return new McpUserAuthorizationException(this.server, "the authorization server of MCP server '" + this.server
				+ "' cannot be reached now to renew your access; try again later", null, false);
	}

	// A request for the user, kept unless one awaited from the user still holds; the
	// application is told of a new one.
	private McpUserAuthorizationException needsUser(String user, String what, List<String> scopes) {
		PendingAuthorization awaited = awaitedFrom(user, scopes, true);
		return new McpUserAuthorizationException(this.server, "MCP server '" + this.server + "' " + what,
				awaited.request(), this.application.linkToModel());
	}

	private PendingAuthorization awaitedFrom(String user, List<String> scopes, boolean tell) {
		PendingAuthorization asked = this.flow.newRequest(this.registration, this.resource, scopes, user);
		PendingAuthorization awaited = this.store.awaitIfAbsent(asked, this.clock.instant());
		if (awaited == asked && tell) {
			logger.info("MCP server '" + this.server + "' needs a user to connect their account (client registration '"
					+ this.registration.getRegistrationId() + "'); the application is told");
			this.surroundings.requested().accept(asked.request());
		}
		return awaited;
	}

	private List<String> registeredScopes() {
		// null for a registration that names none on Spring Security 7.0 (Boot 4.0)
		Set<String> registered = this.registration.getScopes();
		return (registered != null) ? new ArrayList<>(registered) : List.of();
	}

	@Override
	public boolean refused(int status, HttpHeaders headers, @Nullable String sent) {
		return this.application.refused(status, headers, sent);
	}

	@Override
	public boolean refused(int status, HttpHeaders headers, @Nullable String sent, @Nullable Caller caller) {
		String user = (caller != null) ? caller.user() : null;
		if (user == null) {
			// with the application's identity, if any
			return this.application.refused(status, headers, sent);
		}
		return usersOwn(() -> refusedUser(status, headers, sent, user));
	}

	private boolean refusedUser(int status, HttpHeaders headers, @Nullable String sent, String user) {
		BearerChallenge challenge = BearerChallenge.of(headers.allValues("WWW-Authenticate")).orElse(null);
		forget(user);
		Lock lock = this.locks.apply(lockKey(this.registration.getRegistrationId(), user));
		lock.lock();
		try {
			OAuth2AuthorizedClient stored = this.clients.loadAuthorizedClient(this.registration.getRegistrationId(),
					user);
			boolean replaced = stored != null && sent != null
					&& !sent.equals("Bearer " + stored.getAccessToken().getTokenValue())
					&& this.times.isValid(stored.getAccessToken());
			if (status == 403) {
				if (replaced && challenge != null && !challenge.scopes().isEmpty()
						&& stored.getAccessToken().getScopes().containsAll(challenge.scopes())) {
					return true; // the user gave the scopes through another request
				}
				throw insufficientScope(user, stored, challenge);
			}
			if (replaced) {
				this.alreadyRenewed.incrementAndGet();
				return true; // renewed since, here or on a replica
			}
			if (stored == null) {
				throw needsUser(user, "needs you to connect your account", registeredScopes());
			}
			if (this.times.isJustIssued(stored.getAccessToken())) {
				// refused as soon as it was obtained: another renewal would be refused
				// too
				throw needsUser(user, "refuses your token: connect your account again", registeredScopes());
			}
			// the server refuses a token it took a moment ago: renewed once
			this.clients.saveAuthorizedClient(this.times.expired(stored), owner(user));
			renew(user);
			return true;
		}
		finally {
			lock.unlock();
		}
	}

	// Under the user's lock: a request for the scopes the server asks for, or the
	// server's refusal of the user.
	private McpUserAuthorizationException insufficientScope(String user, @Nullable OAuth2AuthorizedClient stored,
			@Nullable BearerChallenge challenge) {
		LinkedHashSet<String> scopes = new LinkedHashSet<>(registeredScopes());
		if (stored != null && stored.getAccessToken().getScopes() != null) {
			scopes.addAll(stored.getAccessToken().getScopes());
		}
		if (challenge == null || !challenge.isInsufficientScope() || scopes.containsAll(challenge.scopes())) {
			return refusedUser(403);
		}
		List<String> before = new ArrayList<>(scopes);
		scopes.addAll(challenge.scopes());
		List<String> union = new ArrayList<>(scopes);
		PendingAuthorization kept = this.store.pending(this.server, user)
			.filter((request) -> !request.isExpired(this.clock.instant()) && request.scopes().containsAll(union))
			.orElse(null);
		PendingAuthorization awaited = kept;
		if (awaited == null) {
			awaited = this.flow.newRequest(this.registration, this.resource, union, user);
			this.store.await(awaited);
			this.surroundings.requested().accept(awaited.request());
		}
		List<String> missing = new ArrayList<>(union);
		missing.removeAll(before);
		return new McpUserAuthorizationException(
				this.server, "MCP server '" + this.server + "' needs more access from your account ("
						+ String.join(" ", missing) + "): connect it again",
				awaited.request(), this.application.linkToModel());
	}

	private McpUserAuthorizationException refusedUser(int status) {
		return new McpUserAuthorizationException(this.server,
				"MCP server '" + this.server + "' refuses this request for your account (HTTP " + status + ")", null,
				false);
	}

	@Override
	public @Nullable RuntimeException refusedFor(int status, Caller caller) {
		String user = caller.user();
		if (user == null) {
			return null;
		}
		forget(user);
		if (status == 403) {
			return refusedUser(403);
		}
		// refused again with a token just renewed: the user authorizes again, the tokens
		// kept meanwhile (a refusal that passes does not cost the user's connection)
		return usersOwn(() -> needsUser(user, "refuses your token: connect your account again", registeredScopes()));
	}

	@Override
	public Optional<McpAuthorizationRequest> pending() {
		return Optional.empty(); // the server never waits for a person
	}

	@Override
	public Optional<McpAuthorizationRequest> pending(String user) {
		return this.store.pending(this.server, user)
			.filter((request) -> !request.isExpired(this.clock.instant()))
			.map(PendingAuthorization::request);
	}

	@Override
	public McpAuthorizationRequest connect(String user) {
		if (user.length() > MAX_USER_LENGTH) {
			throw new IllegalArgumentException(
					"a user's name is at most " + MAX_USER_LENGTH + " characters, as the stores keep it");
		}
		return awaitedFrom(user, registeredScopes(), false).request();
	}

	@Override
	public boolean disconnect(String user) {
		String id = this.registration.getRegistrationId();
		OAuth2AuthorizedClient stored;
		Lock lock = this.locks.apply(lockKey(id, user));
		lock.lock();
		try {
			this.store.pending(this.server, user)
				.ifPresent((request) -> this.store.complete(this.server, request.state()));
			stored = this.clients.loadAuthorizedClient(id, user);
			if (stored == null) {
				return false;
			}
			this.clients.removeAuthorizedClient(id, user);
			forget(user);
		}
		finally {
			lock.unlock();
		}
		// forgotten first, revoked then: no renewal waits for the authorization server
		revoke(stored);
		logger.info("MCP server '" + this.server + "': a user disconnected their account");
		return true;
	}

	// At the authorization server's revocation endpoint, if it has one: the refresh
	// token (which revokes its access tokens at most servers), then the access token.
	private void revoke(OAuth2AuthorizedClient client) {
		Object endpoint = this.registration.getProviderDetails().getConfigurationMetadata().get("revocation_endpoint");
		if (endpoint == null) {
			return;
		}
		URI revocation = URI.create(endpoint.toString());
		try {
			if (client.getRefreshToken() != null) {
				this.tokens.revoke(this.registration, revocation, client.getRefreshToken().getTokenValue(),
						"refresh_token");
			}
			this.tokens.revoke(this.registration, revocation, client.getAccessToken().getTokenValue(), "access_token");
		}
		catch (RuntimeException ex) {
			// forgotten here all the same: the token cannot be used from this application
			logger.warn("MCP server '" + this.server + "': the authorization server did not revoke a disconnected"
					+ " user's token: " + CauseChain.rootMessage(ex));
		}
	}

	@Override
	public boolean awaits(String state) {
		return this.store.pendingWithState(this.server, state).filter((request) -> request.user() != null).isPresent();
	}

	@Override
	public void complete(String state, String code, @Nullable String issuer) {
		complete(state, code, issuer, null);
	}

	@Override
	public void complete(String state, String code, @Nullable String issuer, @Nullable String user) {
		PendingAuthorization current = this.store.pendingWithState(this.server, state)
			.filter((request) -> request.user() != null)
			.orElseThrow(() -> new McpAuthorizationException(
					"MCP server '" + this.server + "' awaits no authorization with this state"));
		String owner = current.user();
		if (user == null || !user.equals(owner)) {
			// the code is not exchanged: only the user the request was made for completes
			// it
			throw new McpAuthorizationException("the authorization request of MCP server '" + this.server
					+ "' was made for another user: only that user can complete it");
		}
		if (current.isExpired(this.clock.instant())) {
			this.store.complete(this.server, state);
			awaitedFrom(user, current.scopes(), true);
			throw new McpAuthorizationException(
					"the authorization request of MCP server '" + this.server + "' expired; a new one was made");
		}
		String refusal = this.flow.issuerRefusal(this.registration, issuer);
		if (refusal != null) {
			throw new McpAuthorizationException("MCP server '" + this.server + "': " + refusal);
		}
		OAuth2AccessTokenResponse tokens;
		try {
			tokens = this.flow.exchange(this.registration, current, code);
		}
		catch (OAuth2AuthorizationException ex) {
			throw new McpAuthorizationException("the authorization server refused the code for MCP server '"
					+ this.server + "': " + ex.getError().getErrorCode(), ex);
		}
		catch (ResourceAccessException ex) {
			throw new McpAuthorizationException("the authorization server of MCP server '" + this.server
					+ "' cannot be reached: " + CauseChain.rootMessage(ex), ex);
		}
		Lock lock = this.locks.apply(lockKey(this.registration.getRegistrationId(), user));
		lock.lock();
		try {
			this.clients.saveAuthorizedClient(new OAuth2AuthorizedClient(this.registration, user,
					tokens.getAccessToken(), tokens.getRefreshToken()), owner(user));
			this.store.complete(this.server, state);
			forget(user);
		}
		finally {
			lock.unlock();
		}
		logger.info("MCP server '" + this.server + "': a user connected their account");
	}

	@Override
	public void start() {
		if (this.application.authorization() instanceof TokenAuthorization own) {
			own.start();
		}
	}

	@Override
	public void stop() {
		if (this.application.authorization() instanceof TokenAuthorization own) {
			own.stop();
		}
	}

	@Override
	public McpAuthorizationState state() {
		return this.application.state(this.store.kind());
	}

	/**
	 * Returns how many tokens this JVM renewed: the users', and its own identity's.
	 * @return the number of renewals
	 */
	@Override
	public long renewals() {
		return this.renewals.get()
				+ ((this.application.authorization() instanceof TokenAuthorization own) ? own.renewals() : 0);
	}

	/**
	 * Returns how many times a request of this JVM found the user's token it came to
	 * renew renewed already, by another request or a replica.
	 * @return the number of renewals found done
	 */
	@Override
	public long alreadyRenewed() {
		return this.alreadyRenewed.get()
				+ ((this.application.authorization() instanceof TokenAuthorization own) ? own.alreadyRenewed() : 0);
	}

	/**
	 * Returns the identity of the application's own requests.
	 * @return the identity
	 */
	public Identity application() {
		return this.application;
	}

	private @Nullable OAuth2AccessToken cached(String user) {
		Cached entry;
		synchronized (this.cached) {
			entry = this.cached.get(user);
		}
		return (entry != null && entry.until().isAfter(this.clock.instant())) ? entry.token() : null;
	}

	// Unless a token was forgotten since it was read: a disconnect, a completion or a
	// refusal, whose read comes after.
	private void cache(String user, OAuth2AccessToken token, long forgotten) {
		Cached entry = new Cached(token, this.clock.instant().plus(this.surroundings.watchInterval()));
		synchronized (this.cached) {
			if (this.forgets.get() == forgotten) {
				this.cached.put(user, entry);
			}
		}
	}

	private void forget(String user) {
		synchronized (this.cached) {
			this.forgets.incrementAndGet();
			this.cached.remove(user);
		}
	}

	private static UsernamePasswordAuthenticationToken owner(String user) {
		return UsernamePasswordAuthenticationToken.unauthenticated(user, null);
	}

	private record Cached(OAuth2AccessToken token, Instant until) {

	}

	/**
	 * The identity of the requests a server that acts for each user is sent without a
	 * user's token: the supervisor's own, and those made for no user where allowed.
	 *
	 * @param authorization the application's authorization (a client credentials
	 * registration), or {@link HttpAuthorization#NONE} for requests without a token
	 * @param servesWithoutUser whether a request the application makes for no user is
	 * sent with this identity, rather than refused
	 * @param linkToModel whether a tool call that needs the user to connect answers the
	 * model with the authorization URL
	 */
	public record Identity(HttpAuthorization authorization, boolean servesWithoutUser, boolean linkToModel) {

		boolean refused(int status, HttpHeaders headers, @Nullable String sent) {
			return this.authorization.refused(status, headers, sent);
		}

		McpAuthorizationState state(String store) {
			if (this.authorization instanceof McpServerAuthorization own) {
				return own.state();
			}
			return new McpAuthorizationState(store, null, null, false);
		}

	}

}
