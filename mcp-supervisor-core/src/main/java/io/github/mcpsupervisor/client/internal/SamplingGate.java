package io.github.mcpsupervisor.client.internal;

import java.time.Clock;
import java.util.LinkedHashMap;
import java.util.Map;

import org.jspecify.annotations.Nullable;

/**
 * Admits the sampling requests of one server within its {@link SamplingLimits}, across
 * its generations: at most {@code maxConcurrent} in flight, and a bucket of
 * {@code maxPerMinute} requests that refills evenly over a minute.
 *
 * @since 0.1.0
 */
public final class SamplingGate {

	/**
	 * The JSON-RPC error code of a refused request, the one the MCP specification's
	 * example gives a client that rejects a sampling request.
	 */
	public static final int REFUSED = RequestGate.REFUSED;

	private final SamplingLimits limits;

	private final RequestGate requests;

	/**
	 * Creates the gate of a server.
	 * @param server the server's name
	 * @param limits its bounds
	 * @param clock tells the time of the rate bound
	 */
	public SamplingGate(String server, SamplingLimits limits, Clock clock) {
		this.limits = limits;
		this.requests = new RequestGate(server, "sampling", limits.maxConcurrent(), limits.maxPerMinute(), clock);
	}

	public SamplingLimits limits() {
		return this.limits;
	}

	/**
	 * Admits a request, or tells why not; an admitted request must be {@link #release()
	 * released} when answered.
	 * @return {@code null} when admitted, otherwise the refusal, naming the bound
	 */
	public @Nullable String admit() {
		return this.requests.admit();
	}

	/**
	 * Returns the name of the server whose requests this gate bounds.
	 * @return the server's name
	 */
	public String server() {
		return this.requests.server();
	}

	/**
	 * Returns the gate of the requests themselves, without the token cap.
	 * @return the gate
	 */
	public RequestGate requests() {
		return this.requests;
	}

	/** Ends an admitted request. */
	public void release() {
		this.requests.release();
	}

	/**
	 * Returns the params of a request with its {@code maxTokens} lowered to the cap. A
	 * {@code maxTokens} that is not a number is replaced by the cap too: the SDK's JSON
	 * mapper would coerce a string such as {@code "1000000"} for the handler.
	 * @param params the request's params, as read
	 * @return the same params when within the cap, otherwise a copy with the cap
	 */
	public @Nullable Object capped(@Nullable Object params) {
		if (params instanceof Map<?, ?> map && map.containsKey("maxTokens") && overCap(map.get("maxTokens"))) {
			Map<Object, Object> copy = new LinkedHashMap<>(map);
			copy.put("maxTokens", this.limits.maxTokens());
			return copy;
		}
		return params;
	}

	private boolean overCap(@Nullable Object asked) {
		return !(asked instanceof Number number) || number.doubleValue() > this.limits.maxTokens();
	}

}
