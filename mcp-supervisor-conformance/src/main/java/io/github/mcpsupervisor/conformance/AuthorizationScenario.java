package io.github.mcpsupervisor.conformance;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;

import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The OAuth settings of the server for an authorization scenario: the minimal
 * configuration the documentation gives for the scenario's flow, nothing more. Discovery
 * takes a redirect URI only; a client the scenario's context gives (pre-registration)
 * adds that client and its issuer; the Client ID Metadata Document scenario adds the
 * document; client credentials take the client, its secret and its issuer.
 */
final class AuthorizationScenario {

	/** The redirect URI: the suite's authorization server redirects there at once. */
	static final String REDIRECT_URI = "http://localhost:3000/callback";

	/** The Client ID Metadata Document the suite's authorization server serves. */
	static final String CLIENT_METADATA_DOCUMENT = "https://conformance-test.local/client-metadata.json";

	private static final String PREFIX = "mcp.servers." + ConformanceRun.SERVER + ".oauth.";

	private static final JsonMapper json = JsonMapper.builder().build();

	private AuthorizationScenario() {
	}

	private static String issuerOf(URI server) {
		URI metadata = URI.create(server.getScheme() + "://" + server.getRawAuthority()
				+ "/.well-known/oauth-protected-resource" + server.getRawPath());
		try {
			HttpResponse<String> answer = HttpClient.newHttpClient()
				.send(HttpRequest.newBuilder(metadata).timeout(Duration.ofSeconds(10)).GET().build(),
						HttpResponse.BodyHandlers.ofString());
			return json.readTree(answer.body()).path("authorization_servers").path(0).asString();
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException(ex);
		}
	}

	/**
	 * Returns the properties of a scenario.
	 * @param scenario the scenario's name
	 * @param context the scenario's context, if any
	 * @param server the URL of the scenario's server
	 * @return the properties, none for a scenario without authorization
	 */
	static Map<String, Object> properties(String scenario, @Nullable String context, URI server) {
		Map<String, Object> properties = new LinkedHashMap<>();
		if (!scenario.startsWith("auth/")) {
			return properties;
		}
		JsonNode given = (context != null) ? json.readTree(context) : json.missingNode();
		if (scenario.startsWith("auth/client-credentials")) {
			properties.put(PREFIX + "grant-type", "client-credentials");
		}
		else {
			properties.put(PREFIX + "redirect-uri", REDIRECT_URI);
		}
		if (scenario.equals("auth/basic-cimd")) {
			properties.put(PREFIX + "client-metadata-document", CLIENT_METADATA_DOCUMENT);
		}
		if (given.hasNonNull("client_id")) {
			properties.put(PREFIX + "client-id", given.get("client_id").asString());
			if (given.hasNonNull("client_secret")) {
				properties.put(PREFIX + "client-secret", given.get("client_secret").asString());
			}
			// the issuer of the authorization server that gave the client: the
			// context's, else looked up once in the server's metadata, as an operator
			// given a client by the server's authorization server does
			properties.put(PREFIX + "issuer",
					given.hasNonNull("issuer") ? given.get("issuer").asString() : issuerOf(server));
		}
		return properties;
	}

}
