package io.github.mcpsupervisor.conformance;

import java.util.LinkedHashMap;
import java.util.Map;

import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The OAuth settings of the server for an authorization scenario, as an application would
 * configure them: discovery with a redirect URI, the Client ID Metadata Document the
 * suite's authorization server knows, and the client the scenario's context gives when it
 * gives one (pre-registration).
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

	/**
	 * Returns the properties of a scenario.
	 * @param scenario the scenario's name
	 * @param context the scenario's context, if any
	 * @return the properties, none for a scenario without authorization
	 */
	static Map<String, Object> properties(String scenario, @Nullable String context) {
		Map<String, Object> properties = new LinkedHashMap<>();
		if (!scenario.startsWith("auth/")) {
			return properties;
		}
		if (scenario.startsWith("auth/client-credentials")) {
			properties.put(PREFIX + "grant-type", "client-credentials");
		}
		else {
			properties.put(PREFIX + "redirect-uri", REDIRECT_URI);
			properties.put(PREFIX + "client-metadata-document", CLIENT_METADATA_DOCUMENT);
		}
		properties.put(PREFIX + "client-name", "mcp-supervisor conformance client");
		if (context != null) {
			JsonNode given = json.readTree(context);
			if (given.hasNonNull("client_id")) {
				properties.put(PREFIX + "client-id", given.get("client_id").asString());
			}
			if (given.hasNonNull("client_secret")) {
				properties.put(PREFIX + "client-secret", given.get("client_secret").asString());
			}
			if (given.hasNonNull("issuer")) {
				// the authorization server the client was given by, as an operator sets
				// it
				properties.put(PREFIX + "issuer", given.get("issuer").asString());
			}
		}
		return properties;
	}

}
