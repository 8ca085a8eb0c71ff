package io.github.mcpsupervisor.transport.internal.http;

import java.util.function.Consumer;

import io.github.mcpsupervisor.internal.CauseChain;
import io.github.mcpsupervisor.transport.internal.DelegatingClientTransport;
import io.modelcontextprotocol.spec.McpClientTransport;
import io.modelcontextprotocol.spec.McpTransportSessionNotFoundException;

/**
 * The SDK's Streamable HTTP transport, with a lost session ending the generation instead
 * of the SDK re-initializing the same client. A server that answers the session id with
 * 404 (or 400) has forgotten it, typically because it restarted: the SDK would fail the
 * requests in flight with a bare "session terminated" and start a new session under the
 * same client, unseen by the supervisor. Here the generation is ended first, so that its
 * calls are handled as calls of a lost generation, and the supervisor reconnects with a
 * new client.
 */
final class SessionLossTransport extends DelegatingClientTransport {

	private final Consumer<Throwable> sessionLost;

	SessionLossTransport(McpClientTransport delegate, Consumer<Throwable> sessionLost) {
		super(delegate);
		this.sessionLost = sessionLost;
	}

	@Override
	public void setExceptionHandler(Consumer<Throwable> handler) {
		this.delegate.setExceptionHandler((ex) -> {
			if (CauseChain.cause(ex, McpTransportSessionNotFoundException.class) != null) {
				// not passed on: the SDK's handler would re-initialize this client
				this.sessionLost.accept(ex);
			}
			else {
				handler.accept(ex);
			}
		});
	}

}
