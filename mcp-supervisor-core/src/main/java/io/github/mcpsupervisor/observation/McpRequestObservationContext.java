package io.github.mcpsupervisor.observation;

import java.util.Map;

import io.micrometer.observation.transport.Kind;
import io.micrometer.observation.transport.RequestReplySenderContext;
import org.jspecify.annotations.Nullable;

/**
 * The context of the observation of one MCP request a supervisor sends for the
 * application. Its carrier is the {@code _meta} of a tool call, into which a tracer's
 * propagating handler writes the trace context; a key the application set is never
 * replaced.
 *
 * @since 0.1.0
 */
public class McpRequestObservationContext extends RequestReplySenderContext<Map<String, Object>, Object> {

	private final String server;

	private final String method;

	private final @Nullable String tool;

	private int generation;

	private int attempts;

	private boolean ended;

	/**
	 * Creates the context of one request.
	 * @param server the server's name
	 * @param method the MCP method
	 * @param tool the tool's name on the server, for {@code tools/call}
	 * @param meta the {@code _meta} the request sends, written into by propagation;
	 * {@code null} for a request whose {@code _meta} is not ours to extend
	 * @param propagate whether trace context may be written into it
	 */
	public McpRequestObservationContext(String server, String method, @Nullable String tool,
			@Nullable Map<String, Object> meta, boolean propagate) {
		super((carrier, key, value) -> {
			if (propagate && carrier != null) {
				carrier.putIfAbsent(key, value);
			}
		}, Kind.CLIENT);
		this.server = server;
		this.method = method;
		this.tool = tool;
		setCarrier(meta);
	}

	/**
	 * Returns the name of the server the request is sent to.
	 * @return the server's name
	 */
	public String getServer() {
		return this.server;
	}

	/**
	 * Returns the request's MCP method.
	 * @return the method, for example {@code tools/call}
	 */
	public String getMethod() {
		return this.method;
	}

	/**
	 * Returns the tool's name on the server.
	 * @return the name, {@code null} for a request that is no tool call
	 */
	public @Nullable String getTool() {
		return this.tool;
	}

	/**
	 * Returns the generation the request was last sent on.
	 * @return the generation's number, 0 when it was never sent
	 */
	public int getGeneration() {
		return this.generation;
	}

	/**
	 * Returns whether the request was sent again on the next generation after its
	 * generation was lost under it.
	 * @return whether it was retried
	 */
	public boolean isRetried() {
		return this.attempts > 1;
	}

	/**
	 * Returns whether the request has ended.
	 * @return whether it has its answer or failed
	 */
	public boolean isEnded() {
		return this.ended;
	}

	/**
	 * Records that the request is sent on a generation: once, and a second time when it
	 * is retried on the next generation. Called by the observer of the requests.
	 * @param generation the generation's number
	 */
	protected void attempt(int generation) {
		this.generation = generation;
		this.attempts++;
	}

	/**
	 * Records that the request has its answer or failed. Called by the observer of the
	 * requests.
	 */
	protected void ended() {
		this.ended = true;
	}

}
