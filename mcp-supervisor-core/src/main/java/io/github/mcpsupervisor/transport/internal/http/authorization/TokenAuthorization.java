package io.github.mcpsupervisor.transport.internal.http.authorization;

import io.github.mcpsupervisor.authorization.McpServerAuthorizations.McpServerAuthorization;
import io.github.mcpsupervisor.transport.internal.http.HttpAuthorization;

/**
 * The OAuth authorization of one streamable-http server: the tokens its requests carry,
 * what a person does for them, and what this JVM counts of their renewals.
 */
public interface TokenAuthorization extends HttpAuthorization, McpServerAuthorization {

	@Override
	boolean actsForUsers();

	/**
	 * Returns how many tokens this JVM obtained for the server: its renewals, and its
	 * first tokens.
	 * @return the number of tokens obtained
	 */
	long renewals();

	/**
	 * Returns how many times a request of this JVM found the token it came to renew
	 * renewed already, by another request or a replica: the renewals a lock saved.
	 * @return the number of renewals found done
	 */
	long alreadyRenewed();

	/**
	 * Starts what the authorization runs while the application runs, such as the watch of
	 * a shared store.
	 */
	default void start() {
	}

	/**
	 * Stops what {@link #start()} started: no timer is left.
	 */
	default void stop() {
	}

}
