package io.github.mcpsupervisor.transport.internal;

import java.util.List;
import java.util.function.Consumer;
import java.util.function.Function;

import io.modelcontextprotocol.json.TypeRef;
import io.modelcontextprotocol.spec.McpClientTransport;
import io.modelcontextprotocol.spec.McpSchema.JSONRPCMessage;
import reactor.core.publisher.Mono;

/**
 * A client transport that passes everything to another one: the base of the decorators
 * that change one aspect of the SDK's transports.
 *
 * @since 0.1.0
 */
public abstract class DelegatingClientTransport implements McpClientTransport {

	protected final McpClientTransport delegate;

	protected DelegatingClientTransport(McpClientTransport delegate) {
		this.delegate = delegate;
	}

	@Override
	public Mono<Void> connect(Function<Mono<JSONRPCMessage>, Mono<JSONRPCMessage>> handler) {
		return this.delegate.connect(handler);
	}

	@Override
	public void setExceptionHandler(Consumer<Throwable> handler) {
		this.delegate.setExceptionHandler(handler);
	}

	@Override
	public Mono<Void> sendMessage(JSONRPCMessage message) {
		return this.delegate.sendMessage(message);
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
