package io.github.mcpsupervisor.transport.internal.http.authorization;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.Map;

import io.github.mcpsupervisor.transport.internal.http.authorization.TokenEndpoint.BoundedResponses;
import io.github.mcpsupervisor.transport.internal.http.authorization.TokenEndpoint.UnknownLifetimes;
import org.junit.jupiter.api.Test;

import org.springframework.http.HttpMethod;
import org.springframework.http.HttpStatus;
import org.springframework.http.client.ClientHttpResponse;
import org.springframework.mock.http.client.MockClientHttpRequest;
import org.springframework.mock.http.client.MockClientHttpResponse;
import org.springframework.security.oauth2.core.endpoint.OAuth2AccessTokenResponse;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIOException;

/**
 * Tests for how {@link TokenEndpoint} reads an authorization server's answers.
 */
class TokenEndpointTests {

	@Test
	void aTokenThatTellsNoLifetimeLivesAnHourNotASecond() {
		OAuth2AccessTokenResponse response = new UnknownLifetimes()
			.convert(Map.of("access_token", "t", "token_type", "Bearer"));
		assertThat(response.getAccessToken().getExpiresAt())
			.isEqualTo(response.getAccessToken().getIssuedAt().plus(UnknownLifetimes.UNKNOWN_LIFETIME));
		OAuth2AccessTokenResponse told = new UnknownLifetimes()
			.convert(Map.of("access_token", "t", "token_type", "Bearer", "expires_in", 30));
		assertThat(told.getAccessToken().getExpiresAt()).isEqualTo(told.getAccessToken().getIssuedAt().plusSeconds(30));
	}

	@Test
	void anAnswerLargerThanTheLimitFailsItsReading() throws IOException {
		ClientHttpResponse bounded = new BoundedResponses(10).intercept(
				new MockClientHttpRequest(HttpMethod.POST, "http://127.0.0.1:1/token"), new byte[0],
				(request, body) -> new MockClientHttpResponse(new byte[11], HttpStatus.OK));
		try (InputStream body = bounded.getBody()) {
			assertThatIOException().isThrownBy(body::readAllBytes).withMessageContaining("larger than the limit");
		}
		ClientHttpResponse small = new BoundedResponses(10).intercept(
				new MockClientHttpRequest(HttpMethod.POST, "http://127.0.0.1:1/token"), new byte[0],
				(request, body) -> new MockClientHttpResponse(new ByteArrayInputStream(new byte[10]), HttpStatus.OK));
		assertThat(small.getBody().readAllBytes()).hasSize(10);
	}

}
