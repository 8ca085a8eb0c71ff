package io.github.mcpsupervisor.transport.internal.http.authorization;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

import org.jspecify.annotations.Nullable;

/**
 * The scopes a client asks for, as the MCP authorization specification selects them:
 * those of the server's challenge (authoritative), else every scope its protected
 * resource metadata supports, else none (the parameter is left out); on a step-up after
 * {@code insufficient_scope}, the union of the scopes asked for before and those of the
 * challenge (revision 2026-07-28), so that a new token loses none it had. The refresh
 * scope {@code offline_access} is added only where the authorization server names it.
 */
final class ScopeSelection {

	/** The scope that asks for a refresh token (OpenID Connect, RFC 6749 usage). */
	static final String OFFLINE_ACCESS = "offline_access";

	private ScopeSelection() {
	}

	/**
	 * Returns the scopes of a first authorization.
	 * @param challenge the server's challenge, if any
	 * @param resourceScopes the scopes the server's protected resource metadata supports
	 * @param authorizationServerScopes the scopes its authorization server names
	 * @param refresh whether a refresh token is wanted
	 * @return the scopes, in order and without repeats; empty to leave the parameter out
	 */
	static List<String> initial(@Nullable BearerChallenge challenge, List<String> resourceScopes,
			List<String> authorizationServerScopes, boolean refresh) {
		List<String> chosen = (challenge != null && !challenge.scopes().isEmpty()) ? challenge.scopes()
				: resourceScopes;
		return withRefresh(chosen, authorizationServerScopes, refresh);
	}

	/**
	 * Returns the scopes of a step-up after an {@code insufficient_scope} challenge.
	 * @param previous the scopes asked for before
	 * @param challenge the challenge
	 * @param authorizationServerScopes the scopes the authorization server names
	 * @param refresh whether a refresh token is wanted
	 * @return the union, the previous scopes first
	 */
	static List<String> stepUp(List<String> previous, BearerChallenge challenge, List<String> authorizationServerScopes,
			boolean refresh) {
		Set<String> union = new LinkedHashSet<>(previous);
		union.addAll(challenge.scopes());
		return withRefresh(new ArrayList<>(union), authorizationServerScopes, refresh);
	}

	private static List<String> withRefresh(List<String> scopes, List<String> authorizationServerScopes,
			boolean refresh) {
		Set<String> result = new LinkedHashSet<>(scopes);
		if (!refresh || !authorizationServerScopes.contains(OFFLINE_ACCESS)) {
			result.remove(OFFLINE_ACCESS);
		}
		else if (!result.isEmpty()) {
			result.add(OFFLINE_ACCESS);
		}
		return List.copyOf(result);
	}

}
