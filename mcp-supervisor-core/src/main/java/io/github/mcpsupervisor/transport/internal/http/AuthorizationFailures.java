package io.github.mcpsupervisor.transport.internal.http;

import io.github.mcpsupervisor.internal.CauseChain;
import io.github.mcpsupervisor.supervisor.McpConnector.McpConnectException;
import io.github.mcpsupervisor.supervisor.McpConnector.McpConnectException.Kind;
import org.jspecify.annotations.Nullable;

/**
 * What an attempt that failed on the server's credentials means, the same for both
 * revisions' transports: a client the authorization server refuses is a configuration
 * error, a token only a person can give an authorization, a refusal of a token just
 * renewed what the authorization says, and a refusal of configured headers a
 * configuration error.
 */
final class AuthorizationFailures {

	private AuthorizationFailures() {
	}

	/**
	 * Returns the failure of an attempt, if it failed on credentials.
	 * @param ex why the attempt failed
	 * @param status the status of a 401 or 403 the server answered, if any
	 * @param authorization the server's authorization
	 * @param maskedUrl the server's URL as it may be shown
	 * @return the failure, or {@code null} when credentials were not the cause
	 */
	static @Nullable McpConnectException of(RuntimeException ex, @Nullable Integer status,
			HttpAuthorization authorization, String maskedUrl) {
		AuthorizationConfigurationException refused = CauseChain.cause(ex, AuthorizationConfigurationException.class);
		if (refused != null) {
			return new McpConnectException(Kind.CONFIGURATION, String.valueOf(refused.getMessage()), null, ex);
		}
		AuthorizationRequiredException required = CauseChain.cause(ex, AuthorizationRequiredException.class);
		if (required != null) {
			return new McpConnectException(Kind.AUTHORIZATION, String.valueOf(required.getMessage()), null, ex);
		}
		if (status == null) {
			return null;
		}
		if (authorization.actsForUsers() && !authorization.obtainsTokens()) {
			return new McpConnectException(Kind.CONFIGURATION, "HTTP " + status + " from " + maskedUrl
					+ " to a request of the application's own, which carries no user's token: give the server an"
					+ " identity of the application's (oauth.application-registration, a client credentials"
					+ " registration)", null, ex);
		}
		if (authorization.obtainsTokens()) {
			return new McpConnectException(authorization.refusedAfterRenewal(status),
					"HTTP " + status + " from " + maskedUrl + " with a new token", null, ex);
		}
		return new McpConnectException(Kind.CONFIGURATION,
				"HTTP " + status + " from " + maskedUrl + ": the server refuses these credentials (check the headers)",
				null, ex);
	}

}
