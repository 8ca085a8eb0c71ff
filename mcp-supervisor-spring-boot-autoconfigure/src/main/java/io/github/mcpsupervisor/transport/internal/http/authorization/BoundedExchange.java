package io.github.mcpsupervisor.transport.internal.http.authorization;

import java.io.IOException;
import java.io.InputStream;
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
 * MCP server points at sends cannot hold a thread or fill the memory.
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
		long deadline = System.nanoTime() + this.timeout.toNanos();
		try {
			HttpResponse<InputStream> response = this.http.sendAsync(request, HttpResponse.BodyHandlers.ofInputStream())
				.get(this.timeout.toNanos(), TimeUnit.NANOSECONDS);
			InputStream body = response.body();
			CompletableFuture<byte[]> read = CompletableFuture.supplyAsync(() -> {
				try (body) {
					return body.readNBytes(MAX_BYTES + 1);
				}
				catch (IOException ex) {
					throw new UncheckedIOException(ex);
				}
			});
			try {
				return new Answer(response.statusCode(),
						read.get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS));
			}
			finally {
				body.close(); // ends a read still waiting for the server
			}
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new AuthorizationDiscoveryException("interrupted while fetching the " + what, ex);
		}
		catch (TimeoutException ex) {
			throw new AuthorizationDiscoveryException(
					"the " + what + " at " + request.uri() + " was not read within " + this.timeout.toMillis() + " ms",
					ex);
		}
		catch (ExecutionException | IOException | IllegalArgumentException ex) {
			Throwable cause = (ex instanceof ExecutionException && ex.getCause() != null) ? ex.getCause() : ex;
			throw new AuthorizationDiscoveryException(
					"fetching the " + what + " at " + request.uri() + " failed: " + cause, cause);
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
