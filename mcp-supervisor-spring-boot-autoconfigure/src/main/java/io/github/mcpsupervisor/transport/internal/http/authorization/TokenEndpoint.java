package io.github.mcpsupervisor.transport.internal.http.authorization;

import java.net.http.HttpClient;
import java.time.Duration;
import java.util.List;
import java.util.function.Supplier;

import org.jspecify.annotations.Nullable;

import org.springframework.http.client.JdkClientHttpRequestFactory;
import org.springframework.http.converter.FormHttpMessageConverter;
import org.springframework.security.oauth2.client.endpoint.AbstractOAuth2AuthorizationGrantRequest;
import org.springframework.security.oauth2.client.endpoint.RestClientAuthorizationCodeTokenResponseClient;
import org.springframework.security.oauth2.client.endpoint.RestClientClientCredentialsTokenResponseClient;
import org.springframework.security.oauth2.client.endpoint.RestClientRefreshTokenTokenResponseClient;
import org.springframework.security.oauth2.client.http.OAuth2ErrorResponseErrorHandler;
import org.springframework.security.oauth2.core.endpoint.OAuth2ParameterNames;
import org.springframework.security.oauth2.core.http.converter.OAuth2AccessTokenResponseHttpMessageConverter;
import org.springframework.util.LinkedMultiValueMap;
import org.springframework.util.MultiValueMap;
import org.springframework.web.client.RestClient;

/**
 * The token requests of one server, as Spring Security makes them, each bound to the
 * server as its resource (RFC 8707 {@code resource}) and, after a step-up, to the scopes
 * it asked for; over an HTTP client that follows no redirect, with a timeout on each
 * answer.
 */
final class TokenEndpoint {

	private final RestClientClientCredentialsTokenResponseClient clientCredentials = new RestClientClientCredentialsTokenResponseClient();

	private final RestClientRefreshTokenTokenResponseClient refreshToken = new RestClientRefreshTokenTokenResponseClient();

	private final RestClientAuthorizationCodeTokenResponseClient authorizationCode = new RestClientAuthorizationCodeTokenResponseClient();

	TokenEndpoint(HttpClient httpClient, Duration timeout, Supplier<String> resource,
			Supplier<@Nullable List<String>> scopes) {
		JdkClientHttpRequestFactory factory = new JdkClientHttpRequestFactory(httpClient);
		factory.setReadTimeout(timeout);
		RestClient restClient = RestClient.builder()
			.requestFactory(factory)
			.configureMessageConverters((converters) -> {
				converters.addCustomConverter(new FormHttpMessageConverter());
				converters.addCustomConverter(new OAuth2AccessTokenResponseHttpMessageConverter());
			})
			.defaultStatusHandler(new OAuth2ErrorResponseErrorHandler())
			.build();
		this.clientCredentials.setRestClient(restClient);
		this.clientCredentials.setParametersConverter((request) -> parameters(request, resource, scopes.get()));
		this.refreshToken.setRestClient(restClient);
		this.refreshToken.setParametersConverter((request) -> parameters(request, resource, null));
		this.authorizationCode.setRestClient(restClient);
		this.authorizationCode.setParametersConverter((request) -> parameters(request, resource, null));
	}

	private static MultiValueMap<String, String> parameters(AbstractOAuth2AuthorizationGrantRequest request,
			Supplier<String> resource, @Nullable List<String> scopes) {
		MultiValueMap<String, String> parameters = new LinkedMultiValueMap<>();
		parameters.set("resource", resource.get());
		if (scopes != null) {
			parameters.set(OAuth2ParameterNames.SCOPE, String.join(" ", scopes));
		}
		return parameters;
	}

	RestClientClientCredentialsTokenResponseClient clientCredentials() {
		return this.clientCredentials;
	}

	RestClientRefreshTokenTokenResponseClient refreshToken() {
		return this.refreshToken;
	}

	RestClientAuthorizationCodeTokenResponseClient authorizationCode() {
		return this.authorizationCode;
	}

}
