package io.github.mcpsupervisor.transport.internal.http.authorization;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.json.TypeRef;
import org.jspecify.annotations.Nullable;

/**
 * One request to a server of the authorization's discovery, whose answer is read within a
 * timeout as a whole (headers and body) and up to {@link #MAX_BYTES}: what a server the
 * MCP server points at sends cannot hold a thread or fill the memory. The body is read by
 * the HTTP client's own threads as it comes, not by a pool the application shares.
 */
final class BoundedExchange {

	/** The most bytes of an answer read. */
	static final int MAX_BYTES = 64 * 1024;

	private static final TypeRef<Map<String, Object>> MAP = new TypeRef<>() {
	};

	private final HttpClient http;

	private final McpJsonMapper jsonMapper;

	private final Duration timeout;

	BoundedExchange(HttpClient http, McpJsonMapper jsonMapper, Duration timeout) {
		this.http = http;
		this.jsonMapper = jsonMapper;
		this.timeout = timeout;
	}

	Duration timeout() {
		return this.timeout;
	}

	/**
	 * Sends a request and reads its answer.
	 * @param request the request (its own timeout is this exchange's)
	 * @param what what is asked for, as error messages name it
	 * @return the answer, its body at most {@link #MAX_BYTES} + 1 bytes
	 * @throws AuthorizationDiscoveryException if no answer is read in time
	 */
	Answer send(HttpRequest request, String what) {
		CompletableFuture<HttpResponse<byte[]>> exchange = null;
		try {
			exchange = this.http.sendAsync(request, (info) -> new FirstBytes(MAX_BYTES + 1));
			HttpResponse<byte[]> response = exchange.get(this.timeout.toNanos(), TimeUnit.NANOSECONDS);
			return new Answer(response.statusCode(), response.body());
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw AuthorizationDiscoveryException.outage("interrupted while fetching the " + what, ex);
		}
		catch (TimeoutException ex) {
			throw AuthorizationDiscoveryException.outage(
					"the " + what + " at " + request.uri() + " was not read within " + this.timeout.toMillis() + " ms",
					ex);
		}
		catch (ExecutionException | IllegalArgumentException ex) {
			Throwable cause = (ex instanceof ExecutionException && ex.getCause() != null) ? ex.getCause() : ex;
			String message = "fetching the " + what + " at " + request.uri() + " failed: " + cause;
			// a connection that failed is an outage; a request that cannot be sent is not
			throw (cause instanceof IOException) ? AuthorizationDiscoveryException.outage(message, cause)
					: new AuthorizationDiscoveryException(message, cause);
		}
		finally {
			if (exchange != null) {
				exchange.cancel(true); // ends an exchange still waiting for the server
			}
		}
	}

	/**
	 * Reads an answer as a JSON object.
	 * @param answer the answer
	 * @return the object, or {@code null} when it is not one or is too large
	 */
	@Nullable Map<String, Object> object(Answer answer) {
		if (answer.body().length > MAX_BYTES) {
			return null;
		}
		try {
			return this.jsonMapper.readValue(answer.body(), MAP);
		}
		catch (IOException | RuntimeException ex) {
			return null;
		}
	}

	String json(Object value) {
		try {
			return this.jsonMapper.writeValueAsString(value);
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	/**
	 * An answer.
	 *
	 * @param status its status
	 * @param body its body, up to {@link #MAX_BYTES} + 1 bytes
	 */
	record Answer(int status, byte[] body) {

	}

}
