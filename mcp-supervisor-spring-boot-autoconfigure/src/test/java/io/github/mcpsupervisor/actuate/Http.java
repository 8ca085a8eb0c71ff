package io.github.mcpsupervisor.actuate;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * A small HTTP client for the tests of the actuator over a real port.
 */
final class Http {

	/** The auto-configurations of Spring Security's web security, left out. */
	static final String NO_WEB_SECURITY = "org.springframework.boot.security.autoconfigure.SecurityAutoConfiguration,"
			+ "org.springframework.boot.security.autoconfigure.web.servlet.ServletWebSecurityAutoConfiguration,"
			+ "org.springframework.boot.security.autoconfigure.actuate.web.servlet.ManagementWebSecurityAutoConfiguration,"
			+ "org.springframework.boot.security.autoconfigure.UserDetailsServiceAutoConfiguration";

	private final HttpClient client = HttpClient.newHttpClient();

	private final JsonMapper json = JsonMapper.builder().build();

	private final int port;

	Http(int port) {
		this.port = port;
	}

	HttpResponse<String> get(String path) throws Exception {
		return this.client.send(HttpRequest.newBuilder(uri(path)).GET().build(), HttpResponse.BodyHandlers.ofString());
	}

	HttpResponse<String> post(String path) throws Exception {
		return this.client.send(HttpRequest.newBuilder(uri(path)).POST(HttpRequest.BodyPublishers.noBody()).build(),
				HttpResponse.BodyHandlers.ofString());
	}

	JsonNode json(HttpResponse<String> response) {
		return this.json.readTree(response.body());
	}

	private URI uri(String path) {
		return URI.create("http://localhost:" + this.port + path);
	}

}
