package io.github.mcpsupervisor.transport.internal.http.authorization;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpHeaders;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.Lock;
import java.util.function.Consumer;

import io.github.mcpsupervisor.authorization.McpAuthorizationException;
import io.github.mcpsupervisor.authorization.McpAuthorizationRequest;
import io.github.mcpsupervisor.authorization.McpAuthorizationStore;
import io.github.mcpsupervisor.authorization.McpAuthorizationStore.PendingAuthorization;
import io.github.mcpsupervisor.authorization.McpServerAuthorizations.McpAuthorizationState;
import io.github.mcpsupervisor.internal.CauseChain;
import io.github.mcpsupervisor.supervisor.McpConnector.McpConnectException;
import io.github.mcpsupervisor.supervisor.SupervisorScheduler;
import io.github.mcpsupervisor.supervisor.SupervisorScheduler.Cancellable;
import io.github.mcpsupervisor.transport.internal.http.AuthorizationConfigurationException;
import io.github.mcpsupervisor.transport.internal.http.AuthorizationRequiredException;
import io.modelcontextprotocol.json.McpJsonMapper;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

import org.springframework.security.authentication.UsernamePasswordAuthenticationToken;
import org.springframework.security.core.Authentication;
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
import org.springframework.web.client.HttpClientErrorException;
import org.springframework.web.client.HttpServerErrorException;
import org.springframework.web.client.ResourceAccessException;

/**
 * The OAuth 2.1 authorization of one streamable-http server, on a Spring Security client
 * registration: its tokens come from an
 * {@link AuthorizedClientServiceOAuth2AuthorizedClientManager} and live in the
 * application's {@link OAuth2AuthorizedClientService}, under a principal of the server's
 * own ({@code mcp-server:<name>}), so that what the supervisor does on its own threads
 * (probes, listings, reconnects) carries a token too.
 *
 * <ul>
 * <li>Client credentials: a token is obtained when none is valid, and again when the
 * server refuses one ({@code 401}).</li>
 * <li>Authorization code: a person authorizes once ({@link #pending()}, completed by
 * {@link #complete}); the refresh token keeps the server authorized after that. A refused
 * refresh token, or none, makes a new request for the person.</li>
 * </ul>
 * A {@code 401} refreshes (or re-obtains) the token once and has the request sent again;
 * a {@code 403 insufficient_scope} asks for the union of the scopes, at most
 * {@value #MAX_STEP_UPS} times in the server's life, and never when it names no new
 * scope. Every token request is bound to the server ({@code resource}) and serialised
 * with the other requests of the same registration (a refresh token may be used once).
 * <p>
 * The requests that wait for a person, and the tokens, are kept in an
 * {@link McpAuthorizationStore}: when replicas share it, any of them completes a request,
 * and the others, watching the store while their server waits, connect within a
 * {@linkplain Surroundings#watchInterval() watch interval}.
 */
public final class ServerAuthorization implements TokenAuthorization {

	/** The most step-ups of the scopes a server may ask for. */
	public static final int MAX_STEP_UPS = 3;

	/** How long a person has to answer an authorization request. */
	static final Duration REQUEST_LIFETIME = CodeFlow.REQUEST_LIFETIME;

	/**
	 * How long before its expiry a token is renewed at most: the clock skew of Spring
	 * Security's providers, within which the manager renews it once asked.
	 */
	private static final Duration RENEWAL_MARGIN = Duration.ofSeconds(60);

	private static final Log logger = LogFactory.getLog(ServerAuthorization.class);

	private final String server;

	private final URI url;

	private final @Nullable ClientDiscovery discovery;

	// known at once, or once discovered; under the lock when it changes
	private volatile @Nullable ClientRegistration registration;

	private final String principal;

	// the server's canonical URL, or the resource its metadata publishes once discovered
	private volatile String resource;

	private final OAuth2AuthorizedClientService clients;

	private final AuthorizedClientServiceOAuth2AuthorizedClientManager manager;

	private final TokenEndpoint tokens;

	private final CodeFlow flow;

	private final Lock lock;

	private final Clock clock;

	private final TokenTimes times;

	private final Surroundings surroundings;

	private final McpAuthorizationStore store;

	private final List<Runnable> authorized = new CopyOnWriteArrayList<>();

	// under the lock
	private @Nullable List<String> steppedUpScopes;

	private int stepUps;

	// the request this JVM's supervisors of the server wait on, and the token they were
	// refused with (null for none), to know an authorization completed elsewhere
	private final AtomicReference<@Nullable String> awaitedState = new AtomicReference<>();

	private volatile @Nullable String refusedToken;

	private final AtomicBoolean watching = new AtomicBoolean();

	// the application stopped: no watch until it starts again
	private volatile boolean stopped;

	private volatile @Nullable Cancellable nextWatch;

	// the last token read or obtained: a request sends it while it is valid beyond its
	// margin without reading the store (a database the replicas share)
	private volatile @Nullable OAuth2AccessToken cachedToken;

	// changed whenever the cache is cleared or replaced: a read of the store that began
	// before does not overwrite it
	private final AtomicLong cacheGeneration = new AtomicLong();

	// whether the discovered registration's client was registered dynamically, the only
	// kind an invalid_client makes the supervisor register again
	private volatile boolean dynamicClient;

	private final AtomicLong renewals = new AtomicLong();

	private final AtomicLong alreadyRenewed = new AtomicLong();

	private ServerAuthorization(String server, URI url, @Nullable ClientRegistration registration,
			@Nullable ClientDiscovery discovery, @Nullable OAuth2AuthorizedClientService clients, HttpClient httpClient,
			Duration timeout, Lock lock, Surroundings surroundings) {
		this.server = server;
		this.url = url;
		this.registration = registration;
		this.discovery = discovery;
		this.principal = "mcp-server:" + server;
		this.resource = ResourceIndicator.of(url);
		this.lock = lock;
		this.surroundings = surroundings;
		this.store = surroundings.store();
		this.clock = surroundings.scheduler().clock();
		this.times = new TokenTimes(this.clock);
		Clock clock = this.clock;
		this.tokens = new TokenEndpoint(httpClient, timeout, () -> this.resource, this::steppedUpScopes);
		this.flow = new CodeFlow(server, this.tokens, clock);
		// the one registration of this server, known at once or once discovered
		ClientRegistrationRepository own = (id) -> {
			ClientRegistration current = this.registration;
			return (current != null && current.getRegistrationId().equals(id)) ? current : null;
		};
		// a discovered registration is the application's to know only: its tokens are
		// kept in the store, under the server's registration id
		this.clients = (clients != null) ? clients : this.store.authorizedClients(own);
		this.manager = new AuthorizedClientServiceOAuth2AuthorizedClientManager(own, this.clients);
		this.manager.setAuthorizedClientProvider(OAuth2AuthorizedClientProviderBuilder.builder()
			.authorizationCode()
			.refreshToken((refresh) -> refresh.accessTokenResponseClient(this.tokens.refreshToken()).clock(clock))
			.clientCredentials((credentials) -> credentials.accessTokenResponseClient(this.tokens.clientCredentials())
				.clock(clock))
			.build());
	}

	/**
	 * Creates the authorization of a server by a registration of the application's.
	 * @param server the server's name
	 * @param url the server's URL, whose canonical form is the resource of its tokens
	 * @param registrations the application's client registrations
	 * @param registrationId the id of the server's registration
	 * @param clients where the tokens are kept
	 * @param httpClient the client of the token requests
	 * @param timeout the timeout of each token request's answer
	 * @param lock serialises the token requests of the registration
	 * @param surroundings where requests are kept, the time, and who is told of them
	 * @return the authorization
	 */
	public static ServerAuthorization registered(String server, URI url, ClientRegistrationRepository registrations,
			String registrationId, OAuth2AuthorizedClientService clients, HttpClient httpClient, Duration timeout,
			Lock lock, Surroundings surroundings) {
		ClientRegistration registration = requireRegistration(server, registrations, registrationId);
		AuthorizationGrantType grant = registration.getAuthorizationGrantType();
		if (!AuthorizationGrantType.CLIENT_CREDENTIALS.equals(grant)
				&& !AuthorizationGrantType.AUTHORIZATION_CODE.equals(grant)) {
			throw new IllegalStateException("MCP server '" + server + "': client registration '" + registrationId
					+ "' has authorization-grant-type " + grant.getValue()
					+ "; an MCP server takes client_credentials or authorization_code");
		}
		if (AuthorizationGrantType.AUTHORIZATION_CODE.equals(grant)) {
			requireAbsoluteRedirect(server, registration);
		}
		return new ServerAuthorization(server, url, registration, null, clients, httpClient, timeout, lock,
				surroundings);
	}

	/**
	 * Creates the authorization of a server by the authorization server it names: found
	 * at its first {@code 401}, as the MCP authorization specification has a client find
	 * it, and found again when the server no longer takes the tokens of the one found.
	 * @param server the server's name
	 * @param url the server's URL, whose canonical form is the resource of its tokens
	 * @param settings what the application tells of its client there
	 * @param jsonMapper reads the metadata
	 * @param httpClient the client of the discovery and token requests
	 * @param timeout the timeout of each request's answer
	 * @param lock serialises the token requests of the server's registration
	 * @param surroundings where clients, requests and tokens are kept, the time, and who
	 * is told of requests
	 * @return the authorization
	 */
	public static ServerAuthorization discovered(String server, URI url, DiscoverySettings settings,
			McpJsonMapper jsonMapper, HttpClient httpClient, Duration timeout, Lock lock, Surroundings surroundings) {
		ClientDiscovery discovery = new ClientDiscovery(new BoundedExchange(httpClient, jsonMapper, timeout), settings,
				server, surroundings.store());
		return new ServerAuthorization(server, url, null, discovery, null, httpClient, timeout, lock, surroundings);
	}

	/**
	 * Returns the id of the client registration of a server whose authorization server is
	 * discovered.
	 * @param server the server's name
	 * @return the registration's id, the key of its tokens and lock
	 */
	public static String discoveredRegistrationId(String server) {
		return "mcp-server-" + server;
	}

	@Override
	public boolean obtainsTokens() {
		return true;
	}

	@Override
	public boolean actsForUsers() {
		return false;
	}

	@Override
	public Runnable whenAuthorized(Runnable action) {
		// a registration of its own: the same action given twice is forgotten once each
		Runnable registration = action::run;
		this.authorized.add(registration);
		return () -> this.authorized.remove(registration);
	}

	/**
	 * Returns how many registrations wait for the server to be authorized: one per
	 * supervisor of the server that is not retired.
	 * @return the number of registrations
	 */
	public int registrations() {
		return this.authorized.size();
	}

	@Override
	public @Nullable String authorization() {
		// a valid token is read without the lock, which replicas may share: only a
		// renewal (or a first token) takes it
		OAuth2AccessToken cached = this.cachedToken;
		if (cached != null && this.times.isValid(cached)) {
			return bearer(cached);
		}
		long generation = this.cacheGeneration.get();
		OAuth2AccessToken valid = validStoredToken();
		if (valid != null) {
			if (this.cacheGeneration.compareAndSet(generation, generation + 1)) {
				this.cachedToken = valid;
			}
			return bearer(valid);
		}
		this.lock.lock();
		try {
			if (this.registration == null) {
				return null; // the server's first 401 names its authorization server
			}
			OAuth2AccessToken renewed = validStoredToken();
			if (renewed != null) {
				// renewed while this request waited for the lock, here or on a replica
				cache(renewed);
				this.alreadyRenewed.incrementAndGet();
				return bearer(renewed);
			}
			return bearer(token());
		}
		finally {
			this.lock.unlock();
		}
	}

	// The stored token while it is valid beyond the margin within which Spring
	// Security's providers renew it; null when a renewal may be due.
	private @Nullable OAuth2AccessToken validStoredToken() {
		OAuth2AuthorizedClient client = storedClient();
		if (client == null) {
			return null;
		}
		OAuth2AccessToken token = client.getAccessToken();
		return this.times.isValid(token) ? token : null;
	}

	// The authorized client the store keeps for the server, once its registration is
	// known.
	private @Nullable OAuth2AuthorizedClient storedClient() {
		ClientRegistration registration = this.registration;
		return (registration != null)
				? this.clients.loadAuthorizedClient(registration.getRegistrationId(), this.principal) : null;
	}

	// Under the lock, or after it: the token just read or obtained, or none.
	private void cache(@Nullable OAuth2AccessToken token) {
		this.cacheGeneration.incrementAndGet();
		this.cachedToken = token;
	}

	/**
	 * Returns how long before its expiry a token is renewed: a minute, or a quarter of
	 * its lifetime if that is shorter, so that a token that lives seconds is renewed once
	 * per lifetime and not before every request.
	 * @param token the token
	 * @return its renewal margin
	 */
	static Duration renewalMargin(OAuth2AccessToken token) {
		Instant issuedAt = token.getIssuedAt();
		Instant expiresAt = token.getExpiresAt();
		if (issuedAt == null || expiresAt == null || !expiresAt.isAfter(issuedAt)) {
			return RENEWAL_MARGIN;
		}
		Duration quarter = Duration.between(issuedAt, expiresAt).dividedBy(4);
		return (quarter.compareTo(RENEWAL_MARGIN) < 0) ? quarter : RENEWAL_MARGIN;
	}

	// Under the lock: a valid token, refreshed or obtained as needed.
	private OAuth2AccessToken token() {
		String before = storedTokenValue();
		cache(null);
		OAuth2AccessToken token = authorizedToken();
		if (!token.getTokenValue().equals(before)) {
			this.renewals.incrementAndGet();
		}
		cache(token);
		return token;
	}

	private @Nullable String storedTokenValue() {
		OAuth2AuthorizedClient client = storedClient();
		return (client != null) ? client.getAccessToken().getTokenValue() : null;
	}

	private OAuth2AccessToken authorizedToken() {
		OAuth2AuthorizedClient client;
		try {
			client = this.manager
				.authorize(OAuth2AuthorizeRequest.withClientRegistrationId(registration().getRegistrationId())
					.principal(this.principal)
					.build());
		}
		catch (ClientAuthorizationRequiredException ex) {
			throw needsPerson("no token yet");
		}
		catch (OAuth2AuthorizationException ex) {
			// Spring Security reports an unreachable or failing token endpoint as an
			// invalid_token_response: an outage, not a refusal
			ResourceAccessException unreachable = CauseChain.cause(ex, ResourceAccessException.class);
			if (unreachable != null) {
				throw unreachable(unreachable);
			}
			HttpServerErrorException failing = CauseChain.cause(ex, HttpServerErrorException.class);
			if (failing != null) {
				// the answer's body is the server's page: not repeated
				String message = "the authorization server of MCP server '" + this.server + "' answers HTTP "
						+ failing.getStatusCode().value();
				throw new UncheckedIOException(message, new IOException(message));
			}
			throw refusal(ex);
		}
		catch (ResourceAccessException ex) {
			throw unreachable(ex);
		}
		if (client == null || this.times.isExpired(client.getAccessToken())) {
			// an authorization code's token without a refresh token: only a person helps
			this.clients.removeAuthorizedClient(registration().getRegistrationId(), this.principal);
			throw needsPerson("the token expired and there is no refresh token");
		}
		return client.getAccessToken();
	}

	private UncheckedIOException unreachable(ResourceAccessException ex) {
		return new UncheckedIOException("the authorization server of MCP server '" + this.server
				+ "' cannot be reached: " + CauseChain.rootMessage(ex), new IOException(ex));
	}

	private RuntimeException refusal(OAuth2AuthorizationException ex) {
		String code = ex.getError().getErrorCode();
		if (this.dynamicClient && isClientRefused(ex)) {
			// a client the authorization server no longer knows (deleted, expired, its
			// registrations lost): forgotten, with its tokens, so that the next attempt
			// registers anew
			forgetClient(registration());
			this.registration = null;
			String message = "the authorization server of MCP server '" + this.server
					+ "' no longer knows its client (invalid_client): it is registered again";
			return new UncheckedIOException(message, new IOException(message, ex));
		}
		if (isAuthorizationCode()) {
			// the manager removed a refused refresh token: a person authorizes again
			return needsPerson("the authorization server refused the refresh token (" + code + ")");
		}
		return new AuthorizationConfigurationException("the authorization server refuses client registration '"
				+ registration().getRegistrationId() + "': " + code + "; fix it, then reset the server", ex);
	}

	private AuthorizationRequiredException needsPerson(String why) {
		return needsPerson(why, committedScopes());
	}

	// Under the lock: a request for the scopes, made unless one is awaited already, by
	// this JVM or a replica.
	private AuthorizationRequiredException needsPerson(String why, List<String> scopes) {
		// kept to the millisecond, as a database keeps it: the event's request is the
		// one every replica reads
		PendingAuthorization asked = newRequest(scopes);
		PendingAuthorization awaited = this.store.awaitIfAbsent(asked, this.clock.instant());
		if (awaited == asked) {
			asked(why, asked);
		}
		awaitPerson(awaited);
		return new AuthorizationRequiredException("a person must authorize client registration '"
				+ registration().getRegistrationId() + "' (" + why + ")");
	}

	private void asked(String why, PendingAuthorization request) {
		logger.warn("MCP server '" + this.server + "' needs a person to authorize client registration '"
				+ registration().getRegistrationId() + "' (" + why + "); the authorization URL is in the mcp"
				+ " endpoint and the McpAuthorizationRequiredEvent");
		this.surroundings.requested().accept(request.request());
	}

	// This JVM's supervisors of the server wait for a request: a replica may complete it.
	private void awaitPerson(PendingAuthorization awaited) {
		this.refusedToken = storedTokenValue();
		this.awaitedState.set(awaited.state());
		startWatching();
	}

	private void startWatching() {
		if (this.store.isShared() && !this.stopped && this.watching.compareAndSet(false, true)) {
			watchLater();
		}
	}

	private void watchLater() {
		if (this.stopped) {
			this.watching.set(false);
			return;
		}
		try {
			this.nextWatch = this.surroundings.scheduler().schedule(this.surroundings.watchInterval(), this::watch);
		}
		catch (RejectedExecutionException ex) {
			this.watching.set(false); // the application stops
		}
	}

	/**
	 * Stops watching the store, as the application stops: no timer is left.
	 */
	@Override
	public void stop() {
		this.stopped = true;
		Cancellable next = this.nextWatch;
		if (next != null) {
			next.cancel();
		}
		this.watching.set(false);
	}

	/**
	 * Watches the store again, as the application starts again, if a server of this JVM
	 * waits for a person.
	 */
	@Override
	public void start() {
		this.stopped = false;
		if (this.awaitedState.get() != null && !this.authorized.isEmpty()) {
			startWatching();
		}
	}

	// Looks in the store for the authorization this JVM waits on, completed by a replica.
	private void watch() {
		String state = this.awaitedState.get();
		if (state != null && !this.authorized.isEmpty() && !this.stopped) {
			boolean completed;
			try {
				completed = completedElsewhere();
			}
			catch (RuntimeException ex) {
				logger.debug("MCP server '" + this.server + "': the authorization store cannot be read now", ex);
				completed = false;
			}
			if (!completed) {
				watchLater();
				return;
			}
			if (this.awaitedState.compareAndSet(state, null)) {
				cache(null);
				logger.info("MCP server '" + this.server + "' is authorized, through another replica");
				this.authorized.forEach(Runnable::run);
			}
		}
		this.watching.set(false);
		if (this.awaitedState.get() != null && !this.authorized.isEmpty()) {
			startWatching();
		}
	}

	// Whether the store has a valid token other than the one this JVM was refused: a
	// person authorized through a replica (whatever request is kept since, such as a
	// replica's step-up). A server waits for a person when it has no token it may use,
	// so no renewal makes one; one refused after its renewal may be woken by a replica's
	// renewal, and is refused again once at worst.
	private boolean completedElsewhere() {
		OAuth2AuthorizedClient client = storedClient();
		return client != null && !client.getAccessToken().getTokenValue().equals(this.refusedToken)
				&& !this.times.isExpired(client.getAccessToken());
	}

	// The scopes of a client credentials token request beyond the registration's: those
	// of a step-up, made here or on a replica whose token the store keeps; null for the
	// registration's own.
	private @Nullable List<String> steppedUpScopes() {
		if (this.steppedUpScopes != null) {
			return committedScopes();
		}
		List<String> committed = committedScopes();
		Set<String> registered = registration().getScopes();
		return (committed.isEmpty() || (registered != null && registered.containsAll(committed))) ? null : committed;
	}

	private List<String> committedScopes() {
		LinkedHashSet<String> scopes = new LinkedHashSet<>();
		if (this.steppedUpScopes != null) {
			scopes.addAll(this.steppedUpScopes);
		}
		else {
			// null for a registration that names none on Spring Security 7.0 (Boot 4.0)
			Set<String> registered = registration().getScopes();
			if (registered != null) {
				scopes.addAll(registered);
			}
		}
		// what a step-up gave, here or on a replica, as the stored token says
		OAuth2AuthorizedClient client = this.clients.loadAuthorizedClient(registration().getRegistrationId(),
				this.principal);
		if (client != null && client.getAccessToken().getScopes() != null) {
			scopes.addAll(client.getAccessToken().getScopes());
		}
		return new ArrayList<>(scopes);
	}

	private PendingAuthorization newRequest(List<String> scopes) {
		return this.flow.newRequest(registration(), this.resource, scopes, null);
	}

	/**
	 * Returns the authorization a person must give, if one is awaited.
	 * @return the request, until it expires or is completed
	 */
	@Override
	public Optional<McpAuthorizationRequest> pending() {
		PendingAuthorization current = this.store.pending(this.server).orElse(null);
		if (current != null && current.isExpired(this.clock.instant())) {
			if (this.registration == null) {
				return Optional.empty(); // a replica whose server has not met its own yet
			}
			// still awaited: a new request replaces the expired one
			this.lock.lock();
			try {
				PendingAuthorization expired = this.store.pending(this.server).orElse(null);
				if (expired != null && expired.isExpired(this.clock.instant())) {
					needsPerson("the previous request expired", expired.scopes());
				}
				current = this.store.pending(this.server).orElse(null);
			}
			finally {
				this.lock.unlock();
			}
		}
		return (current != null) ? Optional.of(current.request()) : Optional.empty();
	}

	/**
	 * Returns whether a state is the one of this server's awaited request.
	 * @param state the state of an authorization response
	 * @return whether it is this server's
	 */
	@Override
	public boolean awaits(String state) {
		return this.store.pending(this.server).filter((current) -> isState(current, state)).isPresent();
	}

	private static boolean isState(PendingAuthorization pending, String state) {
		return MessageDigest.isEqual(pending.state().getBytes(StandardCharsets.UTF_8),
				state.getBytes(StandardCharsets.UTF_8));
	}

	/**
	 * Completes the awaited request with the authorization server's answer: checks its
	 * issuer (RFC 9207), exchanges its code (with the PKCE verifier and the resource) and
	 * keeps the token; the server then connects on its own.
	 * @param state the answer's {@code state}
	 * @param code the answer's {@code code}
	 * @param issuer the answer's {@code iss}, if any
	 * @throws McpAuthorizationException if the answer cannot be used
	 */
	@Override
	public void complete(String state, String code, @Nullable String issuer) {
		this.lock.lock();
		try {
			PendingAuthorization current = this.store.pending(this.server)
				.filter((kept) -> isState(kept, state))
				.orElse(null);
			if (current == null) {
				throw new McpAuthorizationException(
						"MCP server '" + this.server + "' awaits no authorization with this state");
			}
			if (this.registration == null) {
				// a replica whose server has not been refused yet: its authorization
				// server
				// found now, from the server's metadata, as the replica that asked found
				// it
				try {
					discover(null);
				}
				catch (RuntimeException ex) {
					throw new McpAuthorizationException("the authorization of MCP server '" + this.server
							+ "' cannot be discovered now: " + CauseChain.rootMessage(ex), ex);
				}
			}
			if (current.isExpired(this.clock.instant())) {
				needsPerson("the previous request expired", current.scopes());
				throw new McpAuthorizationException(
						"the authorization request of MCP server '" + this.server + "' expired; a new one was made");
			}
			String refusal = this.flow.issuerRefusal(registration(), issuer);
			if (refusal != null) {
				throw new McpAuthorizationException("MCP server '" + this.server + "': " + refusal);
			}
			OAuth2AccessTokenResponse tokens;
			try {
				tokens = this.flow.exchange(registration(), current, code);
			}
			catch (OAuth2AuthorizationException ex) {
				if (this.dynamicClient && isClientRefused(ex)) {
					forgetClient(registration());
					this.registration = null;
				}
				throw new McpAuthorizationException("the authorization server refused the code for MCP server '"
						+ this.server + "': " + ex.getError().getErrorCode(), ex);
			}
			catch (ResourceAccessException ex) {
				throw new McpAuthorizationException("the authorization server of MCP server '" + this.server
						+ "' cannot be reached: " + CauseChain.rootMessage(ex), ex);
			}
			// the scopes of a step-up hold once the person gave them
			this.steppedUpScopes = current.scopes();
			this.clients.saveAuthorizedClient(new OAuth2AuthorizedClient(registration(), this.principal,
					tokens.getAccessToken(), tokens.getRefreshToken()), owner());
			this.store.complete(this.server, state);
			cache(null);
			this.awaitedState.set(null);
		}
		finally {
			this.lock.unlock();
		}
		logger.info("MCP server '" + this.server + "' is authorized");
		this.authorized.forEach(Runnable::run);
	}

	@Override
	public boolean refused(int status, HttpHeaders headers, @Nullable String sent) {
		BearerChallenge challenge = BearerChallenge.of(headers.allValues("WWW-Authenticate")).orElse(null);
		cache(null);
		this.lock.lock();
		try {
			if (this.registration == null) {
				discover(challenge);
				token(); // a person must authorize: throws
				return true;
			}
			OAuth2AuthorizedClient client = this.clients.loadAuthorizedClient(registration().getRegistrationId(),
					this.principal);
			boolean replaced = client != null && sent != null && !sent.equals(bearer(client.getAccessToken()));
			if (status == 403) {
				// replaced with the scopes asked for (a step-up given through a replica)
				replaced = replaced && challenge != null && !challenge.scopes().isEmpty()
						&& client.getAccessToken().getScopes().containsAll(challenge.scopes());
				// a token with the scopes may have replaced the one refused (a step-up
				// given through another replica): sent again first
				return replaced || ((challenge != null && challenge.isInsufficientScope()) && stepUp(challenge));
			}
			if (replaced) {
				this.alreadyRenewed.incrementAndGet();
				return true; // another request has renewed it since
			}
			if (client != null) {
				// the server refuses a token it issued a moment ago: renew it once
				this.clients.saveAuthorizedClient(this.times.expired(client), owner());
			}
			try {
				token();
				return true;
			}
			catch (AuthorizationRequiredException ex) {
				if (this.discovery != null && rediscovered(challenge)) {
					token(); // the new authorization server needs a person: throws
					return true;
				}
				return false;
			}
		}
		finally {
			this.lock.unlock();
		}
	}

	// Under the lock: the server's registration, found from its challenge.
	private void discover(@Nullable BearerChallenge challenge) {
		ClientDiscovery discovery = this.discovery;
		if (discovery == null) {
			throw new IllegalStateException("MCP server '" + this.server + "' has no way to discover its client");
		}
		ClientDiscovery.Discovered found;
		try {
			found = discovery.discover("mcp-server-" + this.server, this.url, challenge);
		}
		catch (AuthorizationDiscoveryException ex) {
			// an outage (a timeout, a 5xx) is retried with the server's backoff and
			// budget; metadata that cannot be used is a configuration error: no
			// person can help, and the server waits for a reset, never for a person
			if (ex.isOutage() || CauseChain.cause(ex, IOException.class) != null) {
				throw new UncheckedIOException("the authorization of MCP server '" + this.server
						+ "' cannot be discovered now: " + ex.getMessage(), new IOException(ex));
			}
			throw new AuthorizationConfigurationException("the authorization of MCP server '" + this.server
					+ "' cannot be used: " + ex.getMessage() + "; fix it, then reset the server", ex);
		}
		this.registration = found.registration();
		this.dynamicClient = found.how().startsWith("dynamic client registration");
		// sent as the metadata publishes it, which may be a prefix of the server's URL
		this.resource = found.resource();
		// a request kept for another authorization server cannot be completed
		URI endpoint = URI.create(found.registration().getProviderDetails().getAuthorizationUri());
		this.store.pending(this.server)
			.filter((kept) -> !sameEndpoint(kept.authorizationUri(), endpoint))
			.ifPresent((stale) -> this.store.complete(this.server, stale.state()));
		logger.info("MCP server '" + this.server + "' is authorized by "
				+ found.registration().getProviderDetails().getIssuerUri() + ", with a client from " + found.how());
	}

	// Under the lock: whether the server now names another authorization server.
	private boolean rediscovered(@Nullable BearerChallenge challenge) {
		ClientRegistration previous = registration();
		String issuer;
		try {
			issuer = Objects.requireNonNull(this.discovery).issuer(this.url, challenge);
		}
		catch (AuthorizationDiscoveryException ex) {
			return false; // the metadata now unusable: the request awaited stays
		}
		if (issuer.equals(previous.getProviderDetails().getIssuerUri())) {
			return false; // the same authorization server: its client and request stay
		}
		discover(challenge);
		this.clients.removeAuthorizedClient(previous.getRegistrationId(), this.principal);
		return true;
	}

	// Under the lock.
	private boolean stepUp(BearerChallenge challenge) {
		List<String> previous = committedScopes();
		// a refresh token asked for is asked for again
		List<String> union = ScopeSelection.stepUp(previous, challenge, authorizationServerScopes(previous),
				isAuthorizationCode());
		if (union.size() == previous.size() && previous.containsAll(union)) {
			logger.warn("MCP server '" + this.server + "' refuses the token for its scope, and names no scope it"
					+ " lacks: not asking again");
			return false;
		}
		// the token in hand still serves the other calls until the person authorizes; a
		// request for these scopes kept already (by a replica) is the one awaited
		PendingAuthorization kept = isAuthorizationCode() ? this.store.pending(this.server)
			.filter((request) -> !request.isExpired(this.clock.instant()))
			.orElse(null) : null;
		if (kept != null && kept.scopes().containsAll(union)) {
			return false;
		}
		if (kept != null) {
			// another replica's step-up asks for scopes of its own: the person gives both
			LinkedHashSet<String> both = new LinkedHashSet<>(kept.scopes());
			both.addAll(union);
			union = new ArrayList<>(both);
		}
		if (this.stepUps >= MAX_STEP_UPS) {
			logger.warn("MCP server '" + this.server + "' asked for more scopes " + MAX_STEP_UPS
					+ " times: not asking again until the application restarts");
			return false;
		}
		this.stepUps++;
		if (isAuthorizationCode()) {
			PendingAuthorization asked = newRequest(union);
			this.store.await(asked);
			asked("the server asks for the scopes " + union, asked);
			// the server serves with the token in hand meanwhile: nothing waits to be
			// woken, and the token with the scopes is read from the store once given
			return false;
		}
		this.steppedUpScopes = union;
		this.clients.removeAuthorizedClient(registration().getRegistrationId(), this.principal);
		try {
			token();
			return true;
		}
		catch (AuthorizationRequiredException ex) {
			return false;
		}
	}

	private ClientRegistration registration() {
		ClientRegistration current = this.registration;
		if (current == null) {
			throw new IllegalStateException("MCP server '" + this.server + "' has no client registration yet");
		}
		return current;
	}

	private List<String> authorizationServerScopes(List<String> previous) {
		Object supported = registration().getProviderDetails().getConfigurationMetadata().get("scopes_supported");
		if (supported instanceof List<?> scopes) {
			return scopes.stream().map(String::valueOf).toList();
		}
		return previous.contains(ScopeSelection.OFFLINE_ACCESS) ? List.of(ScopeSelection.OFFLINE_ACCESS) : List.of();
	}

	@Override
	public McpConnectException.Kind refusedAfterRenewal(int status) {
		if (status == 403) {
			// refused with every scope it asked for, its step-ups spent or of no new
			// scope: no token helps until the client is given more
			return McpConnectException.Kind.CONFIGURATION;
		}
		if (!isAuthorizationCode()) {
			// a fresh token refused: the server may not know its keys yet
			return McpConnectException.Kind.TRANSIENT;
		}
		this.lock.lock();
		try {
			needsPerson("the server refuses the renewed token");
		}
		finally {
			this.lock.unlock();
		}
		return McpConnectException.Kind.AUTHORIZATION;
	}

	private boolean isAuthorizationCode() {
		// null once a client the authorization server forgot is to be registered again
		ClientRegistration current = this.registration;
		return current != null && AuthorizationGrantType.AUTHORIZATION_CODE.equals(current.getAuthorizationGrantType());
	}

	private Authentication owner() {
		return UsernamePasswordAuthenticationToken.unauthenticated(this.principal, null);
	}

	/**
	 * Returns the registration a server names.
	 * @param server the server's name
	 * @param registrations the application's registrations
	 * @param registrationId the id it names ({@code oauth.registration})
	 * @return the registration
	 * @throws IllegalStateException naming the property, if there is none of that id
	 */
	static ClientRegistration requireRegistration(String server, ClientRegistrationRepository registrations,
			String registrationId) {
		ClientRegistration registration = registrations.findByRegistrationId(registrationId);
		if (registration == null) {
			throw new IllegalStateException("MCP server '" + server + "' has mcp.servers." + server
					+ ".oauth.registration '" + registrationId + "', but there is no client registration of that id"
					+ " (spring.security.oauth2.client.registration." + registrationId + ".*)");
		}
		return registration;
	}

	/**
	 * Checks that the redirect URI of an authorization code registration is absolute: a
	 * request for a person is made outside of any web request.
	 * @param server the server's name
	 * @param registration the registration
	 * @throws IllegalStateException naming the registration, if it is not
	 */
	static void requireAbsoluteRedirect(String server, ClientRegistration registration) {
		if (!isAbsoluteUrl(registration.getRedirectUri())) {
			throw new IllegalStateException("MCP server '" + server + "': client registration '"
					+ registration.getRegistrationId() + "' has redirect-uri '" + registration.getRedirectUri()
					+ "': it must be the absolute URL of the application's redirect endpoint (a template such as"
					+ " {baseUrl} is expanded only within a request, and the supervisor asks outside of one)");
		}
	}

	private static boolean isAbsoluteUrl(@Nullable String url) {
		if (url == null || url.contains("{")) {
			return false;
		}
		try {
			URI uri = URI.create(url);
			return uri.isAbsolute() && uri.getHost() != null;
		}
		catch (IllegalArgumentException ex) {
			return false;
		}
	}

	// A client registered dynamically that the authorization server refused: forgotten
	// in the store unless a replica kept another in its place, its tokens with it.
	private void forgetClient(ClientRegistration refused) {
		String issuer = String.valueOf(refused.getProviderDetails().getIssuerUri());
		this.store.dynamicClient(this.server, issuer)
			.filter((kept) -> kept.clientId().equals(refused.getClientId()))
			.ifPresent((kept) -> this.store.forget(this.server, issuer));
		this.clients.removeAuthorizedClient(refused.getRegistrationId(), this.principal);
		cache(null);
	}

	// invalid_client: in a 400's body, which Spring Security reads, or as a 401, which it
	// reports as an invalid_token_response (RFC 6749 5.2)
	private static boolean isClientRefused(OAuth2AuthorizationException ex) {
		HttpClientErrorException refused = CauseChain.cause(ex, HttpClientErrorException.class);
		return "invalid_client".equals(ex.getError().getErrorCode())
				|| (refused != null && refused.getStatusCode().value() == 401);
	}

	private static boolean sameEndpoint(URI request, URI endpoint) {
		return Objects.equals(request.getScheme(), endpoint.getScheme())
				&& Objects.equals(request.getRawAuthority(), endpoint.getRawAuthority())
				&& Objects.equals(request.getRawPath(), endpoint.getRawPath());
	}

	private static String bearer(OAuth2AccessToken token) {
		return "Bearer " + token.getTokenValue();
	}

	@Override
	public McpAuthorizationState state() {
		OAuth2AuthorizedClient client = storedClient();
		OAuth2AccessToken token = (client != null) ? client.getAccessToken() : null;
		return new McpAuthorizationState(this.store.kind(), (token != null) ? token.getIssuedAt() : null,
				(token != null) ? token.getExpiresAt() : null, client != null && client.getRefreshToken() != null);
	}

	/**
	 * Returns how many tokens this JVM obtained for the server: its renewals, and its
	 * first tokens.
	 * @return the number of tokens obtained
	 */
	@Override
	public long renewals() {
		return this.renewals.get();
	}

	/**
	 * Returns how many times a request of this JVM found the token it came to renew
	 * renewed already, by another request or a replica: the renewals a lock saved.
	 * @return the number of renewals found done
	 */
	@Override
	public long alreadyRenewed() {
		return this.alreadyRenewed.get();
	}

	/**
	 * What an authorization needs around it, the same for every server of an application.
	 *
	 * @param store where requests, clients and tokens are kept
	 * @param scheduler the time, and the timers that watch a shared store
	 * @param watchInterval how often a server waiting for a person looks in a shared
	 * store for an authorization that a replica completed
	 * @param requested told of each request a person must answer, once, by the JVM that
	 * made it
	 */
	public record Surroundings(McpAuthorizationStore store, SupervisorScheduler scheduler, Duration watchInterval,
			Consumer<McpAuthorizationRequest> requested) {

	}

}
