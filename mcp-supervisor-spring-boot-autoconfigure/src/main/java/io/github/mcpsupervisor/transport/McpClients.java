package io.github.mcpsupervisor.transport;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.Properties;

import io.modelcontextprotocol.client.McpAsyncClient;
import io.modelcontextprotocol.client.McpClient;
import io.modelcontextprotocol.spec.McpClientTransport;
import io.modelcontextprotocol.spec.McpSchema.Implementation;
import org.jspecify.annotations.Nullable;

import org.springframework.core.io.ClassPathResource;
import org.springframework.core.io.support.PropertiesLoaderUtils;

/**
 * What every generation does with its SDK client, whatever the transport: build it, ping
 * it with a real timeout, read the causes of its failures.
 */
final class McpClients {

	static final Implementation CLIENT_INFO = clientInfo();

	private McpClients() {
	}

	// Builds the asynchronous client of a generation; the supervisor blocks on it itself
	// so that a ping can have its own timeout. The SDK applies its request timeout to the
	// initialize request too: it gets the longer of the two, and calls are bounded by the
	// request timeout where they are blocked on (ClientConnection). Tool change
	// notifications bypass the client, which would list the tools for each of them.
	static McpAsyncClient create(McpClientTransport transport, Duration requestTimeout, Duration initializationTimeout,
			Runnable toolsChanged) {
		Duration sdkRequestTimeout = (requestTimeout.compareTo(initializationTimeout) >= 0) ? requestTimeout
				: initializationTimeout;
		return McpClient.async(new ToolsChangeDivertingTransport(transport, toolsChanged))
			.requestTimeout(sdkRequestTimeout)
			.initializationTimeout(initializationTimeout)
			.clientInfo(CLIENT_INFO)
			.build();
	}

	// Pings within the timeout: null when answered, otherwise why not.
	static @Nullable RuntimeException ping(McpAsyncClient client, Duration timeout) {
		try {
			client.ping().block(timeout);
			return null;
		}
		catch (RuntimeException ex) {
			return ex;
		}
	}

	// The name and version announced to servers, the version being the project's (a
	// resource filtered by the build).
	private static Implementation clientInfo() {
		try {
			Properties properties = PropertiesLoaderUtils
				.loadProperties(new ClassPathResource("client.properties", McpClients.class));
			return new Implementation(properties.getProperty("name"), null, properties.getProperty("version"), null,
					null, null);
		}
		catch (IOException ex) {
			throw new UncheckedIOException("Cannot read the MCP client's name and version", ex);
		}
	}

	static <T> T requireResult(@Nullable T result) {
		if (result == null) {
			throw new IllegalStateException("the MCP server sent no result");
		}
		return result;
	}

}
