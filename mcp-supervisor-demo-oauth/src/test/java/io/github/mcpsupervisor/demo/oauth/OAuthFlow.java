package io.github.mcpsupervisor.demo.oauth;

import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.stream.Collectors;

import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What a client of {@link DemoAuthorizationServer} does over HTTP: an authorization with
 * PKCE as a given user, a refresh, a client_credentials grant and a revocation.
 */
final class OAuthFlow {

	private static final JsonMapper JSON = JsonMapper.builder().build();

	private static final SecureRandom RANDOM = new SecureRandom();

	private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

	private OAuthFlow() {
	}

	/**
	 * Authorizes the person client as a user, who logs in with the form, and exchanges
	 * the code for tokens whose audience is a resource.
	 * @param server the authorization server
	 * @param user the user
	 * @param password the user's password
	 * @param resource the RFC 8707 resource of the token request
	 * @return the tokens
	 */
	static Tokens authorize(DemoAuthorizationServer server, String user, String password, String resource)
			throws Exception {
		String verifier = random(32);
		String challenge = Base64.getUrlEncoder()
			.withoutPadding()
			.encodeToString(MessageDigest.getInstance("SHA-256").digest(verifier.getBytes(StandardCharsets.US_ASCII)));
		String state = random(16);
		Map<String, String> request = new LinkedHashMap<>();
		request.put("response_type", "code");
		request.put("client_id", DemoAuthorizationServer.PERSON_CLIENT);
		request.put("redirect_uri", DemoAuthorizationServer.REDIRECT_URI);
		request.put("scope", "mcp:read");
		request.put("state", state);
		request.put("code_challenge", challenge);
		request.put("code_challenge_method", "S256");
		Map<String, String> redirect = server
			.authorize(URI.create(server.issuer() + "/oauth2/authorize?" + form(request)), user, password);
		assertThat(redirect).containsEntry("state", state).containsKey("code");
		HttpResponse<String> response = post(server, "/oauth2/token", DemoAuthorizationServer.PERSON_CLIENT,
				DemoAuthorizationServer.PERSON_SECRET,
				Map.of("grant_type", "authorization_code", "code", redirect.get("code"), "redirect_uri",
						DemoAuthorizationServer.REDIRECT_URI, "code_verifier", verifier, "resource", resource));
		return tokens(response);
	}

	/**
	 * Refreshes the person client's tokens.
	 * @param server the authorization server
	 * @param refreshToken the refresh token
	 * @param resource the RFC 8707 resource of the token request
	 * @return the token endpoint's answer
	 */
	static HttpResponse<String> refresh(DemoAuthorizationServer server, String refreshToken, String resource)
			throws Exception {
		return post(server, "/oauth2/token", DemoAuthorizationServer.PERSON_CLIENT,
				DemoAuthorizationServer.PERSON_SECRET,
				Map.of("grant_type", "refresh_token", "refresh_token", refreshToken, "resource", resource));
	}

	/**
	 * Gets an access token for the service client (client_credentials).
	 * @param server the authorization server
	 * @param resource the RFC 8707 resource of the token request
	 * @return the access token
	 */
	static String serviceToken(DemoAuthorizationServer server, String resource) throws Exception {
		return tokens(post(server, "/oauth2/token", DemoAuthorizationServer.SERVICE_CLIENT,
				DemoAuthorizationServer.SERVICE_SECRET,
				Map.of("grant_type", "client_credentials", "scope", "mcp:read", "resource", resource)))
			.access();
	}

	/**
	 * Revokes a token of the person client (RFC 7009).
	 * @param server the authorization server
	 * @param token the token
	 * @param hint its {@code token_type_hint}
	 * @return the revocation endpoint's answer
	 */
	static HttpResponse<String> revoke(DemoAuthorizationServer server, String token, String hint) throws Exception {
		return post(server, "/oauth2/revoke", DemoAuthorizationServer.PERSON_CLIENT,
				DemoAuthorizationServer.PERSON_SECRET, Map.of("token", token, "token_type_hint", hint));
	}

	/**
	 * Reads a JSON answer.
	 * @param body the answer's body
	 * @return its JSON
	 */
	static JsonNode json(String body) {
		return JSON.readTree(body);
	}

	/**
	 * Returns the {@code sub} claim of a JWT, read without checking it.
	 * @param jwt the JWT
	 * @return its subject
	 */
	static String subject(String jwt) {
		String payload = new String(Base64.getUrlDecoder().decode(jwt.split("\\.")[1]), StandardCharsets.UTF_8);
		return json(payload).get("sub").asString();
	}

	private static Tokens tokens(HttpResponse<String> response) {
		assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
		JsonNode tokens = json(response.body());
		return new Tokens(tokens.get("access_token").asString(),
				tokens.hasNonNull("refresh_token") ? tokens.get("refresh_token").asString() : null);
	}

	private static HttpResponse<String> post(DemoAuthorizationServer server, String path, String client, String secret,
			Map<String, String> parameters) throws Exception {
		String basic = Base64.getEncoder().encodeToString((client + ":" + secret).getBytes(StandardCharsets.UTF_8));
		return HTTP.send(HttpRequest.newBuilder(URI.create(server.issuer() + path))
			.timeout(Duration.ofSeconds(10))
			.header("Authorization", "Basic " + basic)
			.header("Content-Type", "application/x-www-form-urlencoded")
			.POST(HttpRequest.BodyPublishers.ofString(form(parameters)))
			.build(), HttpResponse.BodyHandlers.ofString());
	}

	private static String form(Map<String, String> parameters) {
		return parameters.entrySet()
			.stream()
			.map((parameter) -> encode(parameter.getKey()) + "=" + encode(parameter.getValue()))
			.collect(Collectors.joining("&"));
	}

	private static String encode(String value) {
		return URLEncoder.encode(value, StandardCharsets.UTF_8);
	}

	private static String random(int bytes) {
		byte[] value = new byte[bytes];
		RANDOM.nextBytes(value);
		return Base64.getUrlEncoder().withoutPadding().encodeToString(value);
	}

	/**
	 * The tokens of a token response.
	 *
	 * @param access the access token
	 * @param refresh the refresh token, {@code null} if none
	 */
	record Tokens(String access, @Nullable String refresh) {

	}

}
