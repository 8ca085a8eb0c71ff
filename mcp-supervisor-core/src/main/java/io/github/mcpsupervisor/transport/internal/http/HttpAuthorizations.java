package io.github.mcpsupervisor.transport.internal.http;

/**
 * Gives each streamable-http server the authorization of its requests: the same one to
 * both revisions of a server whose revision is negotiated.
 *
 * @since 0.1.0
 */
@FunctionalInterface
public interface HttpAuthorizations {

	/** No server has an authorization of its own. */
	HttpAuthorizations NONE = (server) -> HttpAuthorization.NONE;

	/**
	 * Returns the authorization of a server's requests.
	 * @param server the server's name
	 * @return its authorization, {@link HttpAuthorization#NONE} when it has none
	 */
	HttpAuthorization authorization(String server);

}
