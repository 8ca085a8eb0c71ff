package io.github.mcpsupervisor.transport;

import java.net.URI;
import java.time.Duration;
import java.util.Map;

/**
 * How to reach one MCP server over Streamable HTTP.
 *
 * @param name the server's name
 * @param url the MCP endpoint, an absolute http or https URL
 * @param headers headers sent with every request
 * @param requestTimeout the timeout of each request
 * @param initializationTimeout the timeout of the initialize handshake
 */
public record StreamableHttpServerDefinition(String name, URI url, Map<String, String> headers, Duration requestTimeout,
		Duration initializationTimeout) {

	public StreamableHttpServerDefinition {
		headers = Map.copyOf(headers);
	}

}
