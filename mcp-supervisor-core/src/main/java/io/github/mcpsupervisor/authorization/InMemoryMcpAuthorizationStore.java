package io.github.mcpsupervisor.authorization;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.time.Clock;
import java.time.Instant;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

import org.springframework.security.oauth2.client.InMemoryOAuth2AuthorizedClientService;
import org.springframework.security.oauth2.client.OAuth2AuthorizedClientService;
import org.springframework.security.oauth2.client.registration.ClientRegistrationRepository;

/**
 * An {@link McpAuthorizationStore} in this JVM's memory: its authorizations last as long
 * as the application, and serve no other replica.
 * <p>
 * It keeps at most 10,000 requests of users (the servers' own are one per server): beyond
 * that, a new one first drops those that expired, then the oldest kept (a user whose
 * request was dropped is asked again).
 *
 * @since 0.1.0
 */
public class InMemoryMcpAuthorizationStore implements McpAuthorizationStore {

	// users come from the application, which may have many
	static final int MAX_USER_REQUESTS = 10_000;

	private final Map<String, PendingAuthorization> pending = new ConcurrentHashMap<>();

	// the users' requests in the order they were kept, the oldest first; guarded by
	// itself
	private final Map<UserKey, PendingAuthorization> userPending = new LinkedHashMap<>();

	private final Map<String, DynamicClient> clients = new ConcurrentHashMap<>();

	private final Clock clock;

	/**
	 * Creates a store on the system's clock.
	 */
	public InMemoryMcpAuthorizationStore() {
		this(Clock.systemUTC());
	}

	/**
	 * Creates a store.
	 * @param clock the time that tells the expired requests of users apart, when too many
	 * are kept
	 */
	public InMemoryMcpAuthorizationStore(Clock clock) {
		this.clock = clock;
	}

	@Override
	public String kind() {
		return "memory";
	}

	@Override
	public boolean isShared() {
		return false;
	}

	@Override
	public Optional<PendingAuthorization> pending(String server) {
		return Optional.ofNullable(this.pending.get(server));
	}

	@Override
	public Optional<PendingAuthorization> pending(String server, String user) {
		synchronized (this.userPending) {
			return Optional.ofNullable(this.userPending.get(new UserKey(server, user)));
		}
	}

	@Override
	public Optional<PendingAuthorization> pendingWithState(String server, String state) {
		PendingAuthorization own = this.pending.get(server);
		if (own != null && isState(own, state)) {
			return Optional.of(own);
		}
		synchronized (this.userPending) {
			for (PendingAuthorization kept : this.userPending.values()) {
				if (kept.server().equals(server) && isState(kept, state)) {
					return Optional.of(kept);
				}
			}
		}
		return Optional.empty();
	}

	@Override
	public PendingAuthorization awaitIfAbsent(PendingAuthorization request, Instant now) {
		String user = request.user();
		if (user == null) {
			return this.pending.compute(request.server(),
					(server, kept) -> ((kept != null) && !kept.isExpired(now)) ? kept : request);
		}
		synchronized (this.userPending) {
			PendingAuthorization kept = this.userPending.get(new UserKey(request.server(), user));
			if (kept != null && !kept.isExpired(now)) {
				return kept;
			}
			keep(request, user, now);
			return request;
		}
	}

	@Override
	public void await(PendingAuthorization request) {
		String user = request.user();
		if (user == null) {
			this.pending.put(request.server(), request);
			return;
		}
		synchronized (this.userPending) {
			keep(request, user, this.clock.instant());
		}
	}

	// Under the lock of the users' requests: the request kept as the newest.
	private void keep(PendingAuthorization request, String user, Instant now) {
		UserKey key = new UserKey(request.server(), user);
		if (this.userPending.remove(key) == null && this.userPending.size() >= MAX_USER_REQUESTS) {
			this.userPending.values().removeIf((kept) -> kept.isExpired(now));
			Iterator<PendingAuthorization> oldest = this.userPending.values().iterator();
			while (this.userPending.size() >= MAX_USER_REQUESTS && oldest.hasNext()) {
				oldest.next();
				oldest.remove();
			}
		}
		this.userPending.put(key, request);
	}

	@Override
	public boolean complete(String server, String state) {
		PendingAuthorization own = this.pending.get(server);
		if (own != null && isState(own, state)) {
			return this.pending.remove(server, own);
		}
		synchronized (this.userPending) {
			Iterator<PendingAuthorization> kept = this.userPending.values().iterator();
			while (kept.hasNext()) {
				PendingAuthorization request = kept.next();
				if (request.server().equals(server) && isState(request, state)) {
					kept.remove();
					return true;
				}
			}
		}
		return false;
	}

	@Override
	public Optional<DynamicClient> dynamicClient(String server, String issuer) {
		return Optional.ofNullable(this.clients.get(key(server, issuer)));
	}

	@Override
	public DynamicClient keepIfAbsent(DynamicClient client) {
		return this.clients.computeIfAbsent(key(client.server(), client.issuer()), (key) -> client);
	}

	@Override
	public void forget(String server, String issuer) {
		this.clients.remove(key(server, issuer));
	}

	@Override
	public OAuth2AuthorizedClientService authorizedClients(ClientRegistrationRepository registrations) {
		return new InMemoryOAuth2AuthorizedClientService(registrations);
	}

	private static String key(String server, String issuer) {
		return server + " " + issuer;
	}

	// compared in constant time: the state is what an attacker would guess
	private static boolean isState(PendingAuthorization request, String state) {
		return MessageDigest.isEqual(request.state().getBytes(StandardCharsets.UTF_8),
				state.getBytes(StandardCharsets.UTF_8));
	}

	/**
	 * The key of a user's request.
	 *
	 * @param server the server's name
	 * @param user the user's principal name
	 */
	private record UserKey(String server, String user) {

	}

}
