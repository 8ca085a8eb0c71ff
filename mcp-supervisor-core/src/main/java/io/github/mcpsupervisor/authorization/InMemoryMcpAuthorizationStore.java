package io.github.mcpsupervisor.authorization;

import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

import org.springframework.security.oauth2.client.InMemoryOAuth2AuthorizedClientService;
import org.springframework.security.oauth2.client.OAuth2AuthorizedClientService;
import org.springframework.security.oauth2.client.registration.ClientRegistrationRepository;

/**
 * An {@link McpAuthorizationStore} in this JVM's memory: its authorizations last as long
 * as the application, and serve no other replica.
 *
 * @since 0.1.0
 */
public class InMemoryMcpAuthorizationStore implements McpAuthorizationStore {

	private final Map<String, PendingAuthorization> pending = new ConcurrentHashMap<>();

	private final Map<String, DynamicClient> clients = new ConcurrentHashMap<>();

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
	public PendingAuthorization awaitIfAbsent(PendingAuthorization request, Instant now) {
		return this.pending.compute(request.server(),
				(server, kept) -> ((kept != null) && !kept.isExpired(now)) ? kept : request);
	}

	@Override
	public void await(PendingAuthorization request) {
		this.pending.put(request.server(), request);
	}

	@Override
	public boolean complete(String server, String state) {
		PendingAuthorization kept = this.pending.get(server);
		return (kept != null) && kept.state().equals(state) && this.pending.remove(server, kept);
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

}
