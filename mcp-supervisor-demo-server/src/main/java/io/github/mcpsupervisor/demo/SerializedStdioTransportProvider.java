package io.github.mcpsupervisor.demo;

import java.util.List;

import io.modelcontextprotocol.json.TypeRef;
import io.modelcontextprotocol.spec.McpSchema.JSONRPCMessage;
import io.modelcontextprotocol.spec.McpServerSession;
import io.modelcontextprotocol.spec.McpServerTransport;
import io.modelcontextprotocol.spec.McpServerTransportProvider;
import reactor.core.publisher.Mono;

/**
 * Serializes the messages a stdio server sends. The SDK's stdio server transport (2.0.0)
 * hands each message to a unicast sink that fails ("Failed to enqueue message") when two
 * responses are emitted at the same moment from different threads — which concurrent tool
 * calls do — and the response is lost.
 */
final class SerializedStdioTransportProvider implements McpServerTransportProvider {

	private final McpServerTransportProvider delegate;

	SerializedStdioTransportProvider(McpServerTransportProvider delegate) {
		this.delegate = delegate;
	}

	@Override
	public void setSessionFactory(McpServerSession.Factory sessionFactory) {
		this.delegate.setSessionFactory((transport) -> sessionFactory.create(new SerializedTransport(transport)));
	}

	@Override
	public Mono<Void> notifyClients(String method, Object params) {
		return this.delegate.notifyClients(method, params);
	}

	// Resource updates go to the subscribed session: the SDK's default fails them.
	@Override
	public Mono<Void> notifyClient(String sessionId, String method, Object params) {
		return this.delegate.notifyClient(sessionId, method, params);
	}

	@Override
	public Mono<Void> closeGracefully() {
		return this.delegate.closeGracefully();
	}

	@Override
	public List<String> protocolVersions() {
		return this.delegate.protocolVersions();
	}

	private static final class SerializedTransport implements McpServerTransport {

		private final McpServerTransport delegate;

		SerializedTransport(McpServerTransport delegate) {
			this.delegate = delegate;
		}

		@Override
		public Mono<Void> sendMessage(JSONRPCMessage message) {
			return Mono.fromRunnable(() -> {
				synchronized (this) {
					this.delegate.sendMessage(message).block();
				}
			});
		}

		@Override
		public Mono<Void> closeGracefully() {
			return this.delegate.closeGracefully();
		}

		@Override
		public void close() {
			this.delegate.close();
		}

		@Override
		public <T> T unmarshalFrom(Object data, TypeRef<T> typeRef) {
			return this.delegate.unmarshalFrom(data, typeRef);
		}

		@Override
		public List<String> protocolVersions() {
			return this.delegate.protocolVersions();
		}

	}

}
