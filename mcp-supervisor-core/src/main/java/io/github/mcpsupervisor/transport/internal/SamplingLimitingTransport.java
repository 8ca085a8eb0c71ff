package io.github.mcpsupervisor.transport.internal;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;

import io.github.mcpsupervisor.client.internal.ElicitationUrls;
import io.github.mcpsupervisor.client.internal.RequestGate;
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
 * A transport that holds a server's requests for input to the bounds of its gates before
 * any handler sees them, however the handler was registered: sampling requests to its
 * {@link SamplingGate}, elicitations to its elicitation {@link RequestGate}. A request
 * over a bound is answered here with a JSON-RPC error naming it, and a sampling request
 * asking for more tokens than the cap reaches the handler with the cap. A URL elicitation
 * whose URL is not an http or https one is refused here too ({@link ElicitationUrls}),
 * with a WARN naming the server. A request is in flight until its answer is sent, or the
 * generation's transport closes.
 */
final class SamplingLimitingTransport extends DelegatingClientTransport {

	private static final Log logger = LogFactory.getLog(SamplingLimitingTransport.class);

	private final SamplingGate sampling;

	private final RequestGate elicitation;

	// the gate each request in flight holds a place in, by its id
	private final Map<Object, RequestGate> inFlight = new ConcurrentHashMap<>();

	private volatile boolean closed;

	private final AtomicLong refused = new AtomicLong();

	private final AtomicLong refusedUrls = new AtomicLong();

	SamplingLimitingTransport(McpClientTransport delegate, SamplingGate sampling, RequestGate elicitation) {
		super(delegate);
		this.sampling = sampling;
		this.elicitation = elicitation;
	}

	@Override
	public Mono<Void> connect(Function<Mono<JSONRPCMessage>, Mono<JSONRPCMessage>> handler) {
		return this.delegate.connect((message) -> handler.apply(message.mapNotNull(this::admitted)));
	}

	// The message as the client gets it, or null when it was answered here.
	private JSONRPCMessage admitted(JSONRPCMessage message) {
		if (!(message instanceof JSONRPCRequest request)) {
			return message;
		}
		if (McpSchema.METHOD_SAMPLING_CREATE_MESSAGE.equals(request.method())) {
			if (!admit(request, this.sampling.requests())) {
				return null;
			}
			return new JSONRPCRequest(request.jsonrpc(), request.method(), request.id(),
					this.sampling.capped(request.params()));
		}
		if (McpSchema.METHOD_ELICITATION_CREATE.equals(request.method())) {
			if (request.params() instanceof Map<?, ?> params && "url".equals(params.get("mode"))) {
				String refusal = ElicitationUrls.refusal(this.elicitation.server(), params.get("url"));
				if (refusal != null) {
					refuse(request, ElicitationUrls.INVALID_URL, refusal, this.refusedUrls);
					return null;
				}
			}
			return admit(request, this.elicitation) ? request : null;
		}
		return message;
	}

	// Whether the request holds a place in the gate now; otherwise it was refused.
	private boolean admit(JSONRPCRequest request, RequestGate gate) {
		String refusal = gate.admit();
		if (refusal == null && this.inFlight.putIfAbsent(request.id(), gate) != null) {
			// a reused id would be admitted twice and released once: the gate outlives
			// the generation
			gate.release();
			refusal = gate.kind() + " request refused: MCP server '" + gate.server() + "' sent the id of a "
					+ gate.kind() + " request still in flight";
		}
		if (refusal != null) {
			refuse(request, RequestGate.REFUSED, refusal, this.refused);
			return false;
		}
		if (this.closed && this.inFlight.remove(request.id(), gate)) {
			// came as the generation ended, after its requests were released: nothing
			// answers it, and its place is the next generation's
			gate.release();
			return false;
		}
		return true;
	}

	private void refuse(JSONRPCRequest request, int code, String refusal, AtomicLong refusals) {
		long count = refusals.incrementAndGet();
		if (RepeatedWarnings.isLogged(count)) {
			logger.warn(refusal + " (" + count + " refused so far by this generation)");
		}
		this.delegate
			.sendMessage(new JSONRPCResponse(McpSchema.JSONRPC_VERSION, request.id(), null,
					new JSONRPCError(code, refusal, null)))
			.subscribe(null, (ex) -> logger.debug("Refusing a request for input failed", ex));
	}

	@Override
	public Mono<Void> sendMessage(JSONRPCMessage message) {
		if (message instanceof JSONRPCResponse response) {
			RequestGate gate = this.inFlight.remove(response.id());
			if (gate != null) {
				gate.release();
			}
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
		this.closed = true;
		for (Object id : this.inFlight.keySet()) {
			RequestGate gate = this.inFlight.remove(id);
			if (gate != null) {
				gate.release();
			}
		}
	}

}
