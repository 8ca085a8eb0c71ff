package io.github.mcpsupervisor.transport;

import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import io.github.mcpsupervisor.internal.ConfigurationSanitizer;

/**
 * How to reach one MCP server over Streamable HTTP.
 *
 * @param name the server's name
 * @param url the MCP endpoint, an absolute http or https URL
 * @param headers headers sent with every request
 * @param requestTimeout the timeout of each request
 * @param initializationTimeout the timeout of the initialize handshake
 * @param toolTimeouts the timeouts of the calls of some tools, by the tool's name on the
 * server, in place of the request timeout
 * @since 0.1.0
 */
public record StreamableHttpServerDefinition(String name, URI url, Map<String, String> headers, Duration requestTimeout,
		Duration initializationTimeout, Map<String, Duration> toolTimeouts) {

	public StreamableHttpServerDefinition {
		headers = Map.copyOf(headers);
		toolTimeouts = Map.copyOf(toolTimeouts);
	}

	/**
	 * Creates the definition of a server whose tool calls all have the request timeout.
	 * @param name the server's name
	 * @param url the MCP endpoint, an absolute http or https URL
	 * @param headers headers sent with every request
	 * @param requestTimeout the timeout of each request
	 * @param initializationTimeout the timeout of the initialize handshake
	 */
	public StreamableHttpServerDefinition(String name, URI url, Map<String, String> headers, Duration requestTimeout,
			Duration initializationTimeout) {
		this(name, url, headers, requestTimeout, initializationTimeout, Map.of());
	}

	/**
	 * Returns the URL with its user information and query parameter values masked, as it
	 * may be shown and logged.
	 * @return the masked URL
	 * @see ConfigurationSanitizer#maskUrl(URI)
	 */
	public String maskedUrl() {
		return ConfigurationSanitizer.maskUrl(this.url);
	}

	/**
	 * Describes the server as it may be logged: the URL masked, the names of the headers
	 * without their values.
	 * @return the description
	 */
	@Override
	public String toString() {
		return "StreamableHttpServerDefinition[name=" + this.name + ", url=" + maskedUrl() + ", headers="
				+ StdioServerDefinition.masked(this.headers) + ", requestTimeout=" + this.requestTimeout
				+ ", initializationTimeout=" + this.initializationTimeout + ", toolTimeouts=" + this.toolTimeouts + "]";
	}

	/**
	 * Masks the secrets of the URL and the values of the headers wherever a text (a
	 * failure) quotes them.
	 * @param text the text
	 * @return the text, masked
	 */
	public String redact(String text) {
		List<String> secrets = new ArrayList<>(ConfigurationSanitizer.secrets(List.of(), this.url));
		this.headers.values().forEach((value) -> {
			secrets.add(value);
			int space = value.indexOf(' ');
			if (space > 0) {
				secrets.add(value.substring(space + 1)); // the credentials of "Bearer
															// ..."
			}
		});
		return ConfigurationSanitizer.redact(text, secrets);
	}

}
