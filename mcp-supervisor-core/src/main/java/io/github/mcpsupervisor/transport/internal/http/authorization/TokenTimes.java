package io.github.mcpsupervisor.transport.internal.http.authorization;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;

import org.springframework.security.oauth2.client.OAuth2AuthorizedClient;
import org.springframework.security.oauth2.core.OAuth2AccessToken;

/**
 * An access token's times against the clock: whether it is valid beyond its renewal
 * margin, expired, or just issued, and the client with it made due for renewal.
 */
final class TokenTimes {

	private final Clock clock;

	TokenTimes(Clock clock) {
		this.clock = clock;
	}

	/**
	 * Returns whether a token is valid beyond the margin within which it is renewed.
	 * @param token the token
	 * @return whether it may be sent without a renewal
	 */
	boolean isValid(OAuth2AccessToken token) {
		Instant expiresAt = token.getExpiresAt();
		return expiresAt != null
				&& expiresAt.minus(ServerAuthorization.renewalMargin(token)).isAfter(this.clock.instant());
	}

	/**
	 * Returns whether a token has expired; one that tells no expiry has not.
	 * @param token the token
	 * @return whether it expired
	 */
	boolean isExpired(OAuth2AccessToken token) {
		Instant expiresAt = token.getExpiresAt();
		return expiresAt != null && !expiresAt.isAfter(this.clock.instant());
	}

	/**
	 * Returns whether a token was issued less than its renewal margin ago (or is dated
	 * ahead).
	 * @param token the token
	 * @return whether it was just issued
	 */
	boolean isJustIssued(OAuth2AccessToken token) {
		Instant issuedAt = token.getIssuedAt();
		return issuedAt != null
				&& issuedAt.plus(ServerAuthorization.renewalMargin(token)).isAfter(this.clock.instant());
	}

	/**
	 * Returns the same client with a token that Spring Security's manager renews at its
	 * next use.
	 * @param client the client
	 * @return the client, its token expired an hour ago
	 */
	OAuth2AuthorizedClient expired(OAuth2AuthorizedClient client) {
		Instant past = this.clock.instant().minus(Duration.ofHours(1));
		OAuth2AccessToken token = client.getAccessToken();
		return new OAuth2AuthorizedClient(
				client.getClientRegistration(), client.getPrincipalName(), new OAuth2AccessToken(token.getTokenType(),
						token.getTokenValue(), past.minusSeconds(1), past, token.getScopes()),
				client.getRefreshToken());
	}

}
