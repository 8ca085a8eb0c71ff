package io.github.mcpsupervisor.client.internal;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.atomic.AtomicInteger;

import org.jspecify.annotations.Nullable;

/**
 * Admits one kind of a server's requests for input (sampling, elicitation) within its
 * bounds, across its generations: at most {@code maxConcurrent} in flight, and a bucket
 * of {@code maxPerMinute} requests that refills evenly over a minute.
 *
 * @since 0.1.0
 */
public final class RequestGate {

	/**
	 * The JSON-RPC error code of a refused request, the one the MCP specification's
	 * example gives a client that rejects a sampling request.
	 */
	public static final int REFUSED = -1;

	private static final Duration MINUTE = Duration.ofMinutes(1);

	private final String server;

	private final String kind;

	private final int maxConcurrent;

	private final int maxPerMinute;

	private final Clock clock;

	private final AtomicInteger inFlight = new AtomicInteger();

	private double tokens;

	private Instant refilledAt;

	/**
	 * Creates the gate of one kind of a server's requests.
	 * @param server the server's name
	 * @param kind the kind, as its refusals and properties name it ({@code sampling},
	 * {@code elicitation})
	 * @param maxConcurrent the requests that may be in flight at once
	 * @param maxPerMinute the requests admitted per minute
	 * @param clock tells the time of the rate bound
	 */
	public RequestGate(String server, String kind, int maxConcurrent, int maxPerMinute, Clock clock) {
		this.server = server;
		this.kind = kind;
		this.maxConcurrent = maxConcurrent;
		this.maxPerMinute = maxPerMinute;
		this.clock = clock;
		this.tokens = maxPerMinute;
		this.refilledAt = clock.instant();
	}

	/**
	 * Creates the gate of a server's elicitation requests.
	 * @param server the server's name
	 * @param limits its bounds
	 * @param clock tells the time of the rate bound
	 * @return the gate
	 */
	public static RequestGate elicitation(String server, ElicitationLimits limits, Clock clock) {
		return new RequestGate(server, "elicitation", limits.maxConcurrent(), limits.maxPerMinute(), clock);
	}

	/**
	 * Admits a request, or tells why not; an admitted request must be {@link #release()
	 * released} when answered.
	 * @return {@code null} when admitted, otherwise the refusal, naming the bound
	 */
	public @Nullable String admit() {
		int now = this.inFlight.incrementAndGet();
		if (now > this.maxConcurrent) {
			this.inFlight.decrementAndGet();
			return this.kind + " request refused: MCP server '" + this.server + "' already has " + this.maxConcurrent
					+ " " + this.kind + " request(s) in flight, the limit (" + this.kind + ".max-concurrent)";
		}
		if (!takeToken()) {
			this.inFlight.decrementAndGet();
			return this.kind + " request refused: MCP server '" + this.server + "' sent more than " + this.maxPerMinute
					+ " " + this.kind + " requests within a minute, the limit (" + this.kind + ".max-per-minute)";
		}
		return null;
	}

	/** Ends an admitted request. */
	public void release() {
		this.inFlight.decrementAndGet();
	}

	/**
	 * Returns the name of the server whose requests this gate bounds.
	 * @return the server's name
	 */
	public String server() {
		return this.server;
	}

	/**
	 * Returns the kind of requests this gate bounds.
	 * @return the kind
	 */
	public String kind() {
		return this.kind;
	}

	// The bucket refills evenly: maxPerMinute tokens a minute, never more than that many.
	private synchronized boolean takeToken() {
		Instant now = this.clock.instant();
		Duration elapsed = Duration.between(this.refilledAt, now);
		if (!elapsed.isNegative()) {
			double refill = this.maxPerMinute * (elapsed.toNanos() / (double) MINUTE.toNanos());
			this.tokens = Math.min(this.maxPerMinute, this.tokens + refill);
			this.refilledAt = now;
		}
		if (this.tokens < 1) {
			return false;
		}
		this.tokens -= 1;
		return true;
	}

}
