package io.github.mcpsupervisor.transport.internal;

import java.time.Duration;
import java.util.function.Consumer;
import java.util.function.UnaryOperator;

import io.modelcontextprotocol.client.McpAsyncClient;
import io.modelcontextprotocol.spec.McpClientTransport;
import io.modelcontextprotocol.spec.McpSchema.JSONRPCNotification;
import org.jspecify.annotations.Nullable;

/**
 * What every 2025-11-25 generation does with its SDK client, whatever the carrier: build
 * it, ping it with a real timeout, read the causes of its failures.
 */
final class SdkClients {

	private SdkClients() {
	}

	// Builds the asynchronous client of a generation; the supervisor blocks on it itself
	// so that a ping can have its own timeout. The SDK's request timeout is one for all
	// requests, fixed when the client is built, and applies to the initialize request
	// too: it gets the longest of the request bounds (a tool's own timeout may be longer
	// than the request timeout) and the initialization timeout, and each request is
	// bounded by its own timeout where it is sent (Revision20251125, CallTimeouts). List
	// change notifications bypass the client, which would list for each of them;
	// sampling and elicitation requests reach it within the server's bounds, and errors
	// bounded.
	static McpAsyncClient create(ClientSetup setup, McpClientTransport transport, UnaryOperator<String> redaction,
			Duration longestRequest, Duration initializationTimeout, Consumer<JSONRPCNotification> otherListChanged) {
		Duration sdkRequestTimeout = requestTimeout(longestRequest, initializationTimeout);
		return setup.factory()
			.create(setup.session(),
					new ListChangeDivertingTransport(
							new SamplingLimitingTransport(
									new BoundedAnswerTransport(transport, setup.session().server(), redaction),
									setup.session().sampling(), setup.session().elicitation()),
							setup.toolsChanged(), otherListChanged),
					sdkRequestTimeout, initializationTimeout);
	}

	// The SDK's own timeout of every request of a client built by create.
	static Duration requestTimeout(Duration longestRequest, Duration initializationTimeout) {
		return (longestRequest.compareTo(initializationTimeout) >= 0) ? longestRequest : initializationTimeout;
	}

	// Pings within the timeout: null when answered, otherwise why not. A ping left
	// unanswered is cancelled.
	static @Nullable RuntimeException ping(McpAsyncClient client, Duration timeout) {
		RequestScope scope = new RequestScope();
		try {
			client.ping().contextWrite(scope).block(timeout);
			return null;
		}
		catch (RuntimeException ex) {
			return ex;
		}
		finally {
			scope.end("no answer to the ping within " + timeout.toMillis() + " ms");
		}
	}

	// Whether a failure is Reactor's block(Duration) giving up waiting.
	static boolean isBlockTimeout(RuntimeException ex) {
		return ex instanceof IllegalStateException && ex.getMessage() != null
				&& ex.getMessage().startsWith("Timeout on blocking read");
	}

	static <T> T requireResult(@Nullable T result) {
		if (result == null) {
			throw new IllegalStateException("the MCP server sent no result");
		}
		return result;
	}

}
