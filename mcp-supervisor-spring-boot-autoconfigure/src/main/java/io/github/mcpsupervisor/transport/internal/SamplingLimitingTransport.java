package io.github.mcpsupervisor.transport.internal;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;

import io.github.mcpsupervisor.client.internal.SamplingGate;
import io.github.mcpsupervisor.internal.RepeatedWarnings;
import io.modelcontextprotocol.spec.McpClientTransport;
import io.modelcontextprotocol.spec.McpSchema;
import io.modelcontextprotocol.spec.McpSchema.JSONRPCMessage;
import io.modelcontextprotocol.spec.McpSchema.JSONRPCRequest;
import io.modelcontextprotocol.spec.McpSchema.JSONRPCResponse;
import io.modelcontextprotocol.spec.McpSchema.JSONRPCResponse.JSONRPCError;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import reactor.core.publisher.Mono;

/**
 * A transport that holds a server's sampling requests to the bounds of its
 * {@link SamplingGate} before any handler sees them, however the handler was registered:
 * a request over a bound is answered here with a JSON-RPC error naming it, and one asking
 * for more tokens than the cap reaches the handler with the cap. A request is in flight
 * until its answer is sent, or the generation's transport closes.
 */
final class SamplingLimitingTransport extends DelegatingClientTransport {

	private static final Log logger = LogFactory.getLog(SamplingLimitingTransport.class);

	private final SamplingGate gate;

	private final Set<Object> inFlight = ConcurrentHashMap.newKeySet();

	private final AtomicLong refused = new AtomicLong();

	SamplingLimitingTransport(McpClientTransport delegate, SamplingGate gate) {
		super(delegate);
		this.gate = gate;
	}

	@Override
	public Mono<Void> connect(Function<Mono<JSONRPCMessage>, Mono<JSONRPCMessage>> handler) {
		return this.delegate.connect((message) -> handler.apply(message.mapNotNull(this::admitted)));
	}

	// The message as the client gets it, or null when it was answered here.
	private JSONRPCMessage admitted(JSONRPCMessage message) {
		if (!(message instanceof JSONRPCRequest request)
				|| !McpSchema.METHOD_SAMPLING_CREATE_MESSAGE.equals(request.method())) {
			return message;
		}
		String refusal = this.gate.admit();
		if (refusal == null && !this.inFlight.add(request.id())) {
			// a reused id would be admitted twice and released once: the gate outlives
			// the generation
			this.gate.release();
			refusal = "sampling request refused: MCP server '" + this.gate.server() + "' sent the id of a sampling"
					+ " request still in flight";
		}
		if (refusal != null) {
			long count = this.refused.incrementAndGet();
			if (RepeatedWarnings.isLogged(count)) {
				logger.warn(refusal + " (" + count + " refused so far by this generation)");
			}
			this.delegate
				.sendMessage(new JSONRPCResponse(McpSchema.JSONRPC_VERSION, request.id(), null,
						new JSONRPCError(SamplingGate.REFUSED, refusal, null)))
				.subscribe(null, (ex) -> logger.debug("Refusing a sampling request failed", ex));
			return null;
		}
		return new JSONRPCRequest(request.jsonrpc(), request.method(), request.id(),
				this.gate.capped(request.params()));
	}

	@Override
	public Mono<Void> sendMessage(JSONRPCMessage message) {
		if (message instanceof JSONRPCResponse response && this.inFlight.remove(response.id())) {
			this.gate.release();
		}
		return this.delegate.sendMessage(message);
	}

	@Override
	public Mono<Void> closeGracefully() {
		return this.delegate.closeGracefully().doFinally((signal) -> releaseAll());
	}

	@Override
	public void close() {
		try {
			this.delegate.close();
		}
		finally {
			releaseAll();
		}
	}

	// The requests of a generation that ends are no longer in flight.
	private void releaseAll() {
		for (Object id : this.inFlight) {
			if (this.inFlight.remove(id)) {
				this.gate.release();
			}
		}
	}

}
