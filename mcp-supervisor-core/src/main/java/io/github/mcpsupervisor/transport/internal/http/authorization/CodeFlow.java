package io.github.mcpsupervisor.transport.internal.http.authorization;

import java.net.URI;
import java.time.Clock;
import java.time.Duration;
import java.time.temporal.ChronoUnit;
import java.util.Base64;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;

import io.github.mcpsupervisor.authorization.McpAuthorizationStore.PendingAuthorization;
import org.jspecify.annotations.Nullable;

import org.springframework.security.crypto.keygen.Base64StringKeyGenerator;
import org.springframework.security.crypto.keygen.StringKeyGenerator;
import org.springframework.security.oauth2.client.endpoint.OAuth2AuthorizationCodeGrantRequest;
import org.springframework.security.oauth2.client.registration.ClientRegistration;
import org.springframework.security.oauth2.client.web.OAuth2AuthorizationRequestCustomizers;
import org.springframework.security.oauth2.core.endpoint.OAuth2AccessTokenResponse;
import org.springframework.security.oauth2.core.endpoint.OAuth2AuthorizationExchange;
import org.springframework.security.oauth2.core.endpoint.OAuth2AuthorizationRequest;
import org.springframework.security.oauth2.core.endpoint.OAuth2AuthorizationResponse;
import org.springframework.security.oauth2.core.endpoint.OAuth2ParameterNames;
import org.springframework.security.oauth2.core.endpoint.PkceParameterNames;

/**
 * The authorization code flow of one server's registration, as Spring Security runs it
 * for a login: the request a person opens (its state, and a PKCE S256 challenge whose
 * verifier is kept with it), the check of the answer's issuer (RFC 9207), and the
 * exchange of its code; each bound to the server as its resource (RFC 8707). The same for
 * the server's own authorization and for each user's.
 */
final class CodeFlow {

	/** How long a person has to answer an authorization request. */
	static final Duration REQUEST_LIFETIME = Duration.ofMinutes(10);

	// as Spring Security makes the state of the requests it resolves
	private static final StringKeyGenerator STATES = new Base64StringKeyGenerator(
			Base64.getUrlEncoder().withoutPadding(), 32);

	private final String server;

	private final TokenEndpoint tokens;

	private final Clock clock;

	CodeFlow(String server, TokenEndpoint tokens, Clock clock) {
		this.server = server;
		this.tokens = tokens;
		this.clock = clock;
	}

	/**
	 * Makes a request for a person, which lives {@link #REQUEST_LIFETIME}.
	 * @param registration the registration it is for
	 * @param resource the resource its tokens are for
	 * @param scopes the scopes to ask for
	 * @param user the user who must answer it, {@code null} for the server's own request
	 * @return the request, its time kept to the millisecond as a database keeps it
	 */
	PendingAuthorization newRequest(ClientRegistration registration, String resource, List<String> scopes,
			@Nullable String user) {
		OAuth2AuthorizationRequest.Builder builder = OAuth2AuthorizationRequest.authorizationCode()
			.authorizationUri(registration.getProviderDetails().getAuthorizationUri())
			.clientId(registration.getClientId())
			.redirectUri(registration.getRedirectUri())
			.scopes(new LinkedHashSet<>(scopes))
			.state(STATES.generateKey())
			.additionalParameters(Map.of("resource", resource))
			.attributes((attributes) -> attributes.put(OAuth2ParameterNames.REGISTRATION_ID,
					registration.getRegistrationId()));
		// S256, its verifier kept in the request's attributes for the token request
		OAuth2AuthorizationRequestCustomizers.withPkce().accept(builder);
		OAuth2AuthorizationRequest request = builder.build();
		String verifier = Objects.requireNonNull(request.getAttribute(PkceParameterNames.CODE_VERIFIER));
		return new PendingAuthorization(this.server, registration.getRegistrationId(), request.getState(), verifier,
				URI.create(request.getAuthorizationRequestUri()), URI.create(registration.getRedirectUri()), scopes,
				this.clock.instant().plus(REQUEST_LIFETIME).truncatedTo(ChronoUnit.MILLIS), user);
	}

	/**
	 * Returns why an answer's issuer is refused.
	 * @param registration the registration the request was made for
	 * @param received the answer's {@code iss}, if any
	 * @return why it is refused, or {@code null} when it is accepted
	 */
	@Nullable String issuerRefusal(ClientRegistration registration, @Nullable String received) {
		String expected = registration.getProviderDetails().getIssuerUri();
		Object advertised = registration.getProviderDetails()
			.getConfigurationMetadata()
			.get("authorization_response_iss_parameter_supported");
		if (expected == null) {
			return (received != null)
					? "the response has an iss, and the registration has no issuer-uri to check it against" : null;
		}
		return AuthorizationResponseIssuer.refusal(expected, Boolean.TRUE.equals(advertised), received);
	}

	/**
	 * Exchanges the code of an answer to a request, with the request's PKCE verifier.
	 * @param registration the registration the request was made for
	 * @param pending the request
	 * @param code the answer's code
	 * @return the tokens
	 * @throws org.springframework.security.oauth2.core.OAuth2AuthorizationException if
	 * the authorization server refuses the code
	 * @throws org.springframework.web.client.ResourceAccessException if it cannot be
	 * reached
	 */
	OAuth2AccessTokenResponse exchange(ClientRegistration registration, PendingAuthorization pending, String code) {
		OAuth2AuthorizationResponse response = OAuth2AuthorizationResponse.success(code)
			.redirectUri(pending.redirectUri().toString())
			.state(pending.state())
			.build();
		// the request as Spring Security's token request takes it, on whichever replica
		// completes it
		OAuth2AuthorizationRequest request = OAuth2AuthorizationRequest.authorizationCode()
			.authorizationUri(registration.getProviderDetails().getAuthorizationUri())
			.clientId(registration.getClientId())
			.redirectUri(pending.redirectUri().toString())
			.scopes(new LinkedHashSet<>(pending.scopes()))
			.state(pending.state())
			.authorizationRequestUri(pending.authorizationUri().toString())
			.attributes((attributes) -> {
				attributes.put(OAuth2ParameterNames.REGISTRATION_ID, pending.registration());
				attributes.put(PkceParameterNames.CODE_VERIFIER, pending.codeVerifier());
			})
			.build();
		return this.tokens.authorizationCode()
			.getTokenResponse(new OAuth2AuthorizationCodeGrantRequest(registration,
					new OAuth2AuthorizationExchange(request, response)));
	}

}
