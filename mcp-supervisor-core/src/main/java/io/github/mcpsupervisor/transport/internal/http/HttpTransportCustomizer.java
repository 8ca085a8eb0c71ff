package io.github.mcpsupervisor.transport.internal.http;

import java.util.List;
import java.util.function.BiConsumer;

import io.modelcontextprotocol.client.transport.HttpClientStreamableHttpTransport;
import io.modelcontextprotocol.client.transport.customizer.McpAsyncHttpClientRequestCustomizer;

/**
 * What the application adds to the Streamable HTTP transport of every generation, as
 * Spring AI adds it to its own: request customizers (dynamic headers such as fresh access
 * tokens), run after the server's configured headers, and customizers of the transport
 * builder, given the server's name. The HTTP client and the JSON mapper stay the
 * supervisor's: they are set again after the builder customizers.
 *
 * @param requestCustomizers customize every request, in order
 * @param transportCustomizers customize the transport builder, in order, with the
 * server's name
 * @since 0.1.0
 */
public record HttpTransportCustomizer(List<McpAsyncHttpClientRequestCustomizer> requestCustomizers,
		List<BiConsumer<String, HttpClientStreamableHttpTransport.Builder>> transportCustomizers) {

	/** No customization. */
	public static final HttpTransportCustomizer NONE = new HttpTransportCustomizer(List.of(), List.of());

	public HttpTransportCustomizer {
		requestCustomizers = List.copyOf(requestCustomizers);
		transportCustomizers = List.copyOf(transportCustomizers);
	}

}
