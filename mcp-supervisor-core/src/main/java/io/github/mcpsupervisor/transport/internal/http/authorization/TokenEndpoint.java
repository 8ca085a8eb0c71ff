package io.github.mcpsupervisor.transport.internal.http.authorization;

import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

import org.jspecify.annotations.Nullable;

import org.springframework.core.convert.converter.Converter;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpRequest;
import org.springframework.http.HttpStatusCode;
import org.springframework.http.MediaType;
import org.springframework.http.client.ClientHttpRequestExecution;
import org.springframework.http.client.ClientHttpRequestInterceptor;
import org.springframework.http.client.ClientHttpResponse;
import org.springframework.http.client.JdkClientHttpRequestFactory;
import org.springframework.http.converter.FormHttpMessageConverter;
import org.springframework.security.oauth2.client.endpoint.AbstractOAuth2AuthorizationGrantRequest;
import org.springframework.security.oauth2.client.endpoint.RestClientAuthorizationCodeTokenResponseClient;
import org.springframework.security.oauth2.client.endpoint.RestClientClientCredentialsTokenResponseClient;
import org.springframework.security.oauth2.client.endpoint.RestClientRefreshTokenTokenResponseClient;
import org.springframework.security.oauth2.client.http.OAuth2ErrorResponseErrorHandler;
import org.springframework.security.oauth2.client.registration.ClientRegistration;
import org.springframework.security.oauth2.core.ClientAuthenticationMethod;
import org.springframework.security.oauth2.core.endpoint.DefaultMapOAuth2AccessTokenResponseConverter;
import org.springframework.security.oauth2.core.endpoint.OAuth2AccessTokenResponse;
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

	private final RestClient restClient;

	TokenEndpoint(HttpClient httpClient, Duration timeout, Supplier<String> resource,
			Supplier<@Nullable List<String>> scopes) {
		JdkClientHttpRequestFactory factory = new JdkClientHttpRequestFactory(httpClient);
		factory.setReadTimeout(timeout);
		OAuth2AccessTokenResponseHttpMessageConverter tokenResponses = new OAuth2AccessTokenResponseHttpMessageConverter();
		tokenResponses.setAccessTokenResponseConverter(new UnknownLifetimes());
		// the error handler Spring Security's own token clients set, given as a status
		// handler: the form that takes a ResponseErrorHandler is deprecated in Spring
		// Framework 7.1
		OAuth2ErrorResponseErrorHandler errors = new OAuth2ErrorResponseErrorHandler();
		RestClient restClient = RestClient.builder()
			.requestFactory(factory)
			.requestInterceptor(new BoundedResponses(BoundedExchange.MAX_BYTES))
			.configureMessageConverters((converters) -> {
				converters.addCustomConverter(new FormHttpMessageConverter());
				converters.addCustomConverter(tokenResponses);
			})
			.defaultStatusHandler(HttpStatusCode::isError,
					(request, response) -> errors.handleError(request.getURI(), request.getMethod(), response))
			.build();
		this.restClient = restClient;
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

	/**
	 * Revokes a token at the authorization server's revocation endpoint (RFC 7009), as
	 * the registration's client authenticates at its token endpoint.
	 * @param registration the registration the token was issued to
	 * @param endpoint the revocation endpoint
	 * @param token the token
	 * @param tokenTypeHint {@code refresh_token} or {@code access_token}
	 * @throws org.springframework.web.client.RestClientException if the authorization
	 * server cannot be reached or refuses the request
	 */
	void revoke(ClientRegistration registration, URI endpoint, String token, String tokenTypeHint) {
		MultiValueMap<String, String> form = new LinkedMultiValueMap<>();
		form.set("token", token);
		form.set("token_type_hint", tokenTypeHint);
		HttpHeaders headers = new HttpHeaders();
		ClientAuthenticationMethod method = registration.getClientAuthenticationMethod();
		if (ClientAuthenticationMethod.CLIENT_SECRET_BASIC.equals(method)) {
			headers.setBasicAuth(URLEncoder.encode(registration.getClientId(), StandardCharsets.UTF_8),
					URLEncoder.encode(registration.getClientSecret(), StandardCharsets.UTF_8));
		}
		else {
			form.set(OAuth2ParameterNames.CLIENT_ID, registration.getClientId());
			if (ClientAuthenticationMethod.CLIENT_SECRET_POST.equals(method)) {
				form.set(OAuth2ParameterNames.CLIENT_SECRET, registration.getClientSecret());
			}
		}
		this.restClient.post()
			.uri(endpoint)
			.headers((request) -> request.addAll(headers))
			.contentType(MediaType.APPLICATION_FORM_URLENCODED)
			.body(form)
			.retrieve()
			.toBodilessEntity();
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

	/**
	 * Reads a token answered without {@code expires_in} (only recommended by RFC 6749) as
	 * one of {@link #UNKNOWN_LIFETIME}, where Spring Security takes it for one of a
	 * second: it is renewed when the server refuses it, not before every request.
	 */
	static final class UnknownLifetimes implements Converter<Map<String, Object>, OAuth2AccessTokenResponse> {

		/** The lifetime given to a token that tells none. */
		static final Duration UNKNOWN_LIFETIME = Duration.ofHours(1);

		private final DefaultMapOAuth2AccessTokenResponseConverter delegate = new DefaultMapOAuth2AccessTokenResponseConverter();

		@Override
		public OAuth2AccessTokenResponse convert(Map<String, Object> parameters) {
			if (parameters.containsKey(OAuth2ParameterNames.EXPIRES_IN)) {
				return this.delegate.convert(parameters);
			}
			Map<String, Object> withLifetime = new LinkedHashMap<>(parameters);
			withLifetime.put(OAuth2ParameterNames.EXPIRES_IN, UNKNOWN_LIFETIME.toSeconds());
			return this.delegate.convert(withLifetime);
		}

	}

	/**
	 * Fails the reading of an answer beyond a number of bytes: an authorization server
	 * that a server named cannot fill the memory.
	 */
	static final class BoundedResponses implements ClientHttpRequestInterceptor {

		private final int maxBytes;

		BoundedResponses(int maxBytes) {
			this.maxBytes = maxBytes;
		}

		@Override
		public ClientHttpResponse intercept(HttpRequest request, byte[] body, ClientHttpRequestExecution execution)
				throws IOException {
			ClientHttpResponse response = execution.execute(request, body);
			return new ClientHttpResponse() {

				@Override
				public HttpStatusCode getStatusCode() throws IOException {
					return response.getStatusCode();
				}

				@Override
				public String getStatusText() throws IOException {
					return response.getStatusText();
				}

				@Override
				public HttpHeaders getHeaders() {
					return response.getHeaders();
				}

				@Override
				public InputStream getBody() throws IOException {
					return new LimitedInputStream(response.getBody(), BoundedResponses.this.maxBytes);
				}

				@Override
				public void close() {
					response.close();
				}

			};
		}

	}

	private static final class LimitedInputStream extends FilterInputStream {

		private long left;

		LimitedInputStream(InputStream in, long maxBytes) {
			super(in);
			this.left = maxBytes;
		}

		@Override
		public int read() throws IOException {
			int read = super.read();
			if (read != -1) {
				taken(1);
			}
			return read;
		}

		@Override
		public int read(byte[] buffer, int offset, int length) throws IOException {
			int read = super.read(buffer, offset, length);
			if (read > 0) {
				taken(read);
			}
			return read;
		}

		private void taken(int bytes) throws IOException {
			this.left -= bytes;
			if (this.left < 0) {
				throw new IOException("the authorization server's answer is larger than the limit");
			}
		}

	}

}
