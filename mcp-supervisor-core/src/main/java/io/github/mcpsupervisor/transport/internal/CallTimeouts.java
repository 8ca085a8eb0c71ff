package io.github.mcpsupervisor.transport.internal;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.TimeoutException;

import reactor.core.publisher.Mono;

/**
 * How long each request of one server may take: a tool call its tool's own timeout
 * ({@code call.timeouts.<tool>}) or else the request timeout, every other request the
 * request timeout. A call is bounded here, one timer per call, and fails on time with an
 * error naming the server, the tool and the timeout; the longest of these bounds is what
 * the SDK's own timer of every request and the HTTP exchanges are given, so that neither
 * cuts a call short of its own timeout.
 *
 * @param requestTimeout the timeout of every request without one of its own
 * @param tools the timeouts of the calls of some tools, by the tool's name on the server
 * @since 0.1.0
 */
public record CallTimeouts(Duration requestTimeout, Map<String, Duration> tools) {

	public CallTimeouts {
		tools = Map.copyOf(tools);
	}

	/**
	 * Returns the timeout of a call of a tool.
	 * @param tool the tool's name on the server
	 * @return its own timeout, or the request timeout
	 */
	public Duration of(String tool) {
		return this.tools.getOrDefault(tool, this.requestTimeout);
	}

	/**
	 * Returns the longest time any request of the server may take.
	 * @return the longest of the request timeout and the tools' timeouts
	 */
	public Duration longest() {
		Duration longest = this.requestTimeout;
		for (Duration timeout : this.tools.values()) {
			if (timeout.compareTo(longest) > 0) {
				longest = timeout;
			}
		}
		return longest;
	}

	/**
	 * Bounds a call of a tool by its timeout.
	 * @param <T> what the call gives
	 * @param call the call
	 * @param server the server's name
	 * @param tool the tool's name on the server
	 * @return the call, failing with {@link #timedOut} when it outlasts its timeout
	 */
	public <T> Mono<T> call(Mono<T> call, String server, String tool) {
		Duration timeout = of(tool);
		return call.timeout(timeout, Mono.error(() -> timedOut(server, "tool '" + tool + "'", timeout)));
	}

	/**
	 * Bounds a request other than a tool call by the request timeout.
	 * @param <T> what the request gives
	 * @param request the request
	 * @param server the server's name
	 * @param method the request's MCP method
	 * @return the request, failing with {@link #timedOut} when it outlasts the timeout
	 */
	public <T> Mono<T> request(Mono<T> request, String server, String method) {
		return request.timeout(this.requestTimeout,
				Mono.error(() -> timedOut(server, "request '" + method + "'", this.requestTimeout)));
	}

	/**
	 * Returns the failure of a request that outlasted its timeout: its cause is a
	 * {@link TimeoutException}, as a timed-out request's always is, so that the
	 * supervisor probes the server as it does after any timeout.
	 * @param server the server's name
	 * @param what what timed out: {@code tool 'x'} or {@code request 'y'}
	 * @param timeout its timeout
	 * @return the failure
	 */
	public static RuntimeException timedOut(String server, String what, Duration timeout) {
		String message = "MCP server '" + server + "': " + what + " " + reason(timeout);
		return new TimedOut(message);
	}

	/**
	 * Returns whether a failure is the one {@link #timedOut} gives.
	 * @param ex the failure
	 * @return whether it is
	 */
	public static boolean isTimedOut(Throwable ex) {
		return ex instanceof TimedOut;
	}

	/**
	 * Returns why a request that outlasted its timeout is cancelled, as the server is
	 * told.
	 * @param timeout the timeout
	 * @return the reason
	 */
	public static String reason(Duration timeout) {
		return "timed out after " + timeout.toMillis() + " ms";
	}

	private static final class TimedOut extends IllegalStateException {

		private static final long serialVersionUID = 1L;

		TimedOut(String message) {
			super(message, new TimeoutException(message));
		}

	}

}
