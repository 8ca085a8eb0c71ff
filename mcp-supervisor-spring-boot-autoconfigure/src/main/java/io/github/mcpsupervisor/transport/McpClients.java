package io.github.mcpsupervisor.transport;

import java.time.Duration;

import io.modelcontextprotocol.client.McpAsyncClient;
import io.modelcontextprotocol.client.McpClient;
import io.modelcontextprotocol.spec.McpClientTransport;
import io.modelcontextprotocol.spec.McpSchema.Implementation;
import org.jspecify.annotations.Nullable;
import reactor.core.publisher.Mono;

/**
 * What every generation does with its SDK client, whatever the transport: build it, ping
 * it with a real timeout, read the causes of its failures.
 */
final class McpClients {

	static final Implementation CLIENT_INFO = new Implementation("mcp-supervisor", null, "0.1.0", null, null, null);

	private McpClients() {
	}

	// Builds the asynchronous client of a generation; the supervisor blocks on it itself
	// so that a ping can have its own timeout. The SDK applies its request timeout to the
	// initialize request too: it gets the longer of the two, and calls are bounded by the
	// request timeout where they are blocked on (ClientConnection).
	static McpAsyncClient create(McpClientTransport transport, Duration requestTimeout, Duration initializationTimeout,
			Runnable toolsChanged) {
		Duration sdkRequestTimeout = (requestTimeout.compareTo(initializationTimeout) >= 0) ? requestTimeout
				: initializationTimeout;
		return McpClient.async(transport)
			.requestTimeout(sdkRequestTimeout)
			.initializationTimeout(initializationTimeout)
			.clientInfo(CLIENT_INFO)
			.toolsChangeConsumer((ignored) -> Mono.fromRunnable(toolsChanged))
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

	static <T> T requireResult(@Nullable T result) {
		if (result == null) {
			throw new IllegalStateException("the MCP server sent no result");
		}
		return result;
	}

	static <T extends Throwable> @Nullable T cause(Throwable ex, Class<T> type) {
		for (Throwable cause = ex; cause != null; cause = cause.getCause()) {
			if (type.isInstance(cause)) {
				return type.cast(cause);
			}
			if (cause.getCause() == cause) {
				break;
			}
		}
		return null;
	}

	static String rootMessage(Throwable ex) {
		Throwable root = ex;
		while (root.getCause() != null && root.getCause() != root) {
			root = root.getCause();
		}
		return (root.getMessage() != null) ? root.getMessage() : root.getClass().getSimpleName();
	}

}
