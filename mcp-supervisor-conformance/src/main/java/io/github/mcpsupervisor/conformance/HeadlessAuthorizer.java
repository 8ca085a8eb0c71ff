package io.github.mcpsupervisor.conformance;

import java.io.IOException;
import java.net.URI;
import java.net.URLDecoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;

import io.github.mcpsupervisor.authorization.McpAuthorizationException;
import io.github.mcpsupervisor.authorization.McpAuthorizationRequiredEvent;
import io.github.mcpsupervisor.authorization.McpServerAuthorizations;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import org.springframework.context.event.EventListener;
import org.springframework.stereotype.Component;
import org.springframework.web.util.UriComponentsBuilder;

/**
 * The person of the authorization scenarios: the conformance suite's authorization server
 * answers an authorization request at once with a redirect to the application's redirect
 * URI, which nothing serves here. This reads the redirect's query instead of following it
 * and hands it to the starter, as the application's redirect endpoint would.
 */
@Component
class HeadlessAuthorizer {

	private static final Log logger = LogFactory.getLog(HeadlessAuthorizer.class);

	private final HttpClient http = HttpClient.newBuilder()
		.followRedirects(HttpClient.Redirect.NEVER)
		.connectTimeout(Duration.ofSeconds(10))
		.build();

	private final McpServerAuthorizations authorizations;

	HeadlessAuthorizer(McpServerAuthorizations authorizations) {
		this.authorizations = authorizations;
	}

	@EventListener
	void authorize(McpAuthorizationRequiredEvent event) throws IOException, InterruptedException {
		URI uri = event.getRequest().authorizationUri();
		HttpResponse<Void> response = this.http.send(
				HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(10)).GET().build(),
				HttpResponse.BodyHandlers.discarding());
		String location = response.headers().firstValue("Location").orElse(null);
		if (location == null) {
			logger.error("the authorization request was answered " + response.statusCode() + " without a redirect");
			return;
		}
		Map<String, String> parameters = UriComponentsBuilder.fromUriString(location)
			.build(true)
			.getQueryParams()
			.toSingleValueMap();
		Map<String, String> decoded = new LinkedHashMap<>();
		parameters.forEach((name, value) -> decoded.put(name, URLDecoder.decode(value, StandardCharsets.UTF_8)));
		try {
			logger.info("authorized " + this.authorizations.complete(decoded));
		}
		catch (McpAuthorizationException ex) {
			logger.error("the authorization response was refused: " + ex.getMessage());
		}
	}

}
