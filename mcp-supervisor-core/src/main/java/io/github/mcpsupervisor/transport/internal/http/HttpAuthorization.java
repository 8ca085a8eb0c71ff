package io.github.mcpsupervisor.transport.internal.http;

import java.net.http.HttpHeaders;

import io.github.mcpsupervisor.internal.Caller;
import io.github.mcpsupervisor.supervisor.McpConnector.McpConnectException;
import org.jspecify.annotations.Nullable;

/**
 * The credentials of one Streamable HTTP server's requests beyond its configured headers:
 * an OAuth access token obtained for it, shared by its generations. The methods may block
 * (a token request to the authorization server) and are called off the HTTP client's
 * threads.
 *
 * @since 0.1.0
 */
public interface HttpAuthorization {

	/** No authorization: the configured headers only. */
	HttpAuthorization NONE = new HttpAuthorization() {

		@Override
		public @Nullable String authorization() {
			return null;
		}

		@Override
		public boolean refused(int status, HttpHeaders headers, @Nullable String sent) {
			return false;
		}

	};

	/**
	 * Returns the value of the {@code Authorization} header of the next request,
	 * obtaining or refreshing the token as needed.
	 * @return the header's value, or {@code null} to send none
	 * @throws AuthorizationRequiredException if no token can be had without a person or a
	 * change of configuration
	 */
	@Nullable String authorization();

	/**
	 * Handles a {@code 401} or {@code 403} answer to a request.
	 * @param status the answer's status
	 * @param headers the answer's headers (its {@code WWW-Authenticate} challenges)
	 * @param sent the {@code Authorization} header the request carried, if any
	 * @return whether the request is worth sending again (a new token exists)
	 */
	boolean refused(int status, HttpHeaders headers, @Nullable String sent);

	/**
	 * Returns the value of the {@code Authorization} header of the next request made for
	 * a caller: by default the one every request carries.
	 * @param caller on whose behalf the application makes the request, {@code null} for a
	 * request the supervisor makes on its own
	 * @return the header's value, or {@code null} to send none
	 * @throws AuthorizationRequiredException if no token can be had without a person or a
	 * change of configuration
	 * @throws io.github.mcpsupervisor.authorization.McpUserAuthorizationException if the
	 * caller's own token cannot be had: the request fails, the server serves the others
	 */
	default @Nullable String authorization(@Nullable Caller caller) {
		return authorization();
	}

	/**
	 * Handles a {@code 401} or {@code 403} answer to a request made for a caller: by
	 * default as any request's.
	 * @param status the answer's status
	 * @param headers the answer's headers (its {@code WWW-Authenticate} challenges)
	 * @param sent the {@code Authorization} header the request carried, if any
	 * @param caller on whose behalf the request was made, {@code null} for a request the
	 * supervisor made on its own
	 * @return whether the request is worth sending again (a new token exists)
	 * @throws io.github.mcpsupervisor.authorization.McpUserAuthorizationException if the
	 * refusal is the caller's own, which no new attempt changes
	 */
	default boolean refused(int status, HttpHeaders headers, @Nullable String sent, @Nullable Caller caller) {
		return refused(status, headers, sent);
	}

	/**
	 * Returns whether each user's requests carry that user's own token: a refusal of one
	 * of them is then that user's, and the server serves the others.
	 * @return whether the authorization acts for each user
	 */
	default boolean actsForUsers() {
		return false;
	}

	/**
	 * Returns the failure of a request made for a user that the server refused after the
	 * user's token was renewed, for an authorization that {@linkplain #actsForUsers()
	 * acts for each user}.
	 * @param status the refusal's status, 401 or 403
	 * @param caller on whose behalf the request was made
	 * @return the user's failure, or {@code null} when the request was made with the
	 * application's identity and its refusal is the server's
	 */
	default @Nullable RuntimeException refusedFor(int status, Caller caller) {
		return null;
	}

	/**
	 * Returns whether this authorization obtains tokens: a refusal then means it needs
	 * one, not that the configured headers are wrong.
	 * @return whether tokens are obtained
	 */
	default boolean obtainsTokens() {
		return false;
	}

	/**
	 * Returns what a server's refusal of a token just renewed (or stepped up) means for
	 * the attempt that met it.
	 * @param status the refusal's status, 401 or 403
	 * @return {@code AUTHORIZATION} when a person must authorize again (a request for
	 * them is made), {@code TRANSIENT} when the refusal may pass, {@code CONFIGURATION}
	 * when no token helps
	 */
	default McpConnectException.Kind refusedAfterRenewal(int status) {
		return McpConnectException.Kind.CONFIGURATION;
	}

	/**
	 * Registers what to run once a token exists again after an
	 * {@link AuthorizationRequiredException}.
	 * @param authorized what to run
	 * @return what forgets the registration again, once what registered it is gone (a
	 * server removed or replaced)
	 */
	default Runnable whenAuthorized(Runnable authorized) {
		return () -> {
		};
	}

}
