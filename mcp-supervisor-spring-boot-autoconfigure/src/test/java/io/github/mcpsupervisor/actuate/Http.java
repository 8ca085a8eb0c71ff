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
