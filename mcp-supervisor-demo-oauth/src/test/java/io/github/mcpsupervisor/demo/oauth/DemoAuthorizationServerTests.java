package io.github.mcpsupervisor.demo.oauth;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

import io.github.mcpsupervisor.demo.oauth.OAuthFlow.Tokens;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

/**
 * Tests for {@link DemoAuthorizationServer}: its users and its revocation endpoint.
 */
class DemoAuthorizationServerTests {

	private static final String RESOURCE = "http://127.0.0.1:9/mcp";

	private static DemoAuthorizationServer server;

	@BeforeAll
	static void start() {
		server = new DemoAuthorizationServer(Duration.ofMinutes(10));
	}

	@AfterAll
	static void stop() {
		server.close();
	}

	@Test
	void eachUserAuthorizesAsHimselfAndAServiceAsItsClient() throws Exception {
		Tokens ada = OAuthFlow.authorize(server, DemoAuthorizationServer.USER, DemoAuthorizationServer.PASSWORD,
				RESOURCE);
		Tokens grace = OAuthFlow.authorize(server, DemoAuthorizationServer.SECOND_USER,
				DemoAuthorizationServer.SECOND_PASSWORD, RESOURCE);
		assertThat(OAuthFlow.subject(ada.access())).isEqualTo("ada");
		assertThat(OAuthFlow.subject(grace.access())).isEqualTo("grace");
		assertThat(OAuthFlow.subject(OAuthFlow.serviceToken(server, RESOURCE)))
			.isEqualTo(DemoAuthorizationServer.SERVICE_CLIENT);
		HttpResponse<String> refreshed = OAuthFlow.refresh(server, grace.refresh(), RESOURCE);
		assertThat(refreshed.statusCode()).isEqualTo(200);
		assertThat(OAuthFlow.subject(OAuthFlow.json(refreshed.body()).get("access_token").asString()))
			.isEqualTo("grace");
	}

	@Test
	void aWrongPasswordLogsNoOneIn() {
		assertThatIllegalStateException()
			.isThrownBy(() -> OAuthFlow.authorize(server, DemoAuthorizationServer.SECOND_USER,
					DemoAuthorizationServer.PASSWORD, RESOURCE))
			.withMessageContaining("expected a redirect to /oauth2/authorize");
	}

	@Test
	void theMetadataNamesTheRevocationEndpoint() throws Exception {
		HttpResponse<String> metadata = HttpClient.newHttpClient()
			.send(HttpRequest.newBuilder(URI.create(server.issuer() + "/.well-known/oauth-authorization-server"))
				.timeout(Duration.ofSeconds(10))
				.build(), HttpResponse.BodyHandlers.ofString());
		assertThat(metadata.statusCode()).isEqualTo(200);
		assertThat(OAuthFlow.json(metadata.body()).get("revocation_endpoint").asString())
			.isEqualTo(server.issuer() + "/oauth2/revoke");
	}

	@Test
	void aRevokedRefreshTokenIsRefused() throws Exception {
		Tokens tokens = OAuthFlow.authorize(server, DemoAuthorizationServer.USER, DemoAuthorizationServer.PASSWORD,
				RESOURCE);
		// rotated once: the token revoked is the one in use, not a replaced one
		HttpResponse<String> refreshed = OAuthFlow.refresh(server, tokens.refresh(), RESOURCE);
		assertThat(refreshed.statusCode()).isEqualTo(200);
		String refreshToken = OAuthFlow.json(refreshed.body()).get("refresh_token").asString();
		int revocations = server.revocations();
		int reuses = server.refreshTokenReuses();
		HttpResponse<String> revoked = OAuthFlow.revoke(server, refreshToken, "refresh_token");
		assertThat(revoked.statusCode()).isEqualTo(200);
		assertThat(server.revocations()).isEqualTo(revocations + 1);
		HttpResponse<String> refused = OAuthFlow.refresh(server, refreshToken, RESOURCE);
		assertThat(refused.statusCode()).isEqualTo(400);
		assertThat(OAuthFlow.json(refused.body()).get("error").asString()).isEqualTo("invalid_grant");
		assertThat(server.refreshTokenReuses()).as("refused as revoked, not as reused").isEqualTo(reuses);
	}

	@Test
	void anAccessTokenIsRevokedAndItsRefreshTokenKept() throws Exception {
		Tokens tokens = OAuthFlow.authorize(server, DemoAuthorizationServer.SECOND_USER,
				DemoAuthorizationServer.SECOND_PASSWORD, RESOURCE);
		int revocations = server.revocations();
		assertThat(OAuthFlow.revoke(server, tokens.access(), "access_token").statusCode()).isEqualTo(200);
		assertThat(server.revocations()).isEqualTo(revocations + 1);
		assertThat(OAuthFlow.refresh(server, tokens.refresh(), RESOURCE).statusCode()).isEqualTo(200);
	}

	@Test
	void aTokenOfAnotherClientIsNotRevoked() throws Exception {
		String serviceToken = OAuthFlow.serviceToken(server, RESOURCE);
		int revocations = server.revocations();
		HttpResponse<String> refused = OAuthFlow.revoke(server, serviceToken, "access_token");
		assertThat(refused.statusCode()).isEqualTo(400);
		assertThat(OAuthFlow.json(refused.body()).get("error").asString()).isEqualTo("invalid_client");
		assertThat(server.revocations()).isEqualTo(revocations);
	}

}
