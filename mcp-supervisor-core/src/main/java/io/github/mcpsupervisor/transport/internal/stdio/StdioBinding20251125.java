package io.github.mcpsupervisor.transport.internal.stdio;

import java.util.concurrent.CompletableFuture;
import java.util.function.UnaryOperator;

import io.github.mcpsupervisor.transport.internal.GenerationLife;
import io.github.mcpsupervisor.transport.internal.Revision20251125;
import io.modelcontextprotocol.json.McpJsonMapper;
import org.jspecify.annotations.Nullable;

/**
 * The transport of our own over a generation's process ({@link ProcessStdioTransport}),
 * under the SDK's 2025-11-25 client: a server that breaks the protocol the way that ends
 * its reader ends the generation.
 */
final class StdioBinding20251125 implements StdioBinding {

	private final Revision20251125 client;

	private final GenerationLife life;

	private final McpJsonMapper jsonMapper;

	private volatile @Nullable ProcessStdioTransport transport;

	StdioBinding20251125(Revision20251125 client, GenerationLife life, McpJsonMapper jsonMapper) {
		this.client = client;
		this.life = life;
		this.jsonMapper = jsonMapper;
	}

	@Override
	public Revision20251125 client() {
		return this.client;
	}

	@Override
	public void connect(StdioServerProcess process, String label) {
		ProcessStdioTransport created = new ProcessStdioTransport(process, this.jsonMapper, label, this.life::end);
		this.transport = created;
		this.client.connect(created, (requestId) -> {
		}, UnaryOperator.identity());
	}

	@Override
	public CompletableFuture<?> drained() {
		ProcessStdioTransport current = this.transport;
		return (current != null) ? current.stdoutClosed() : CompletableFuture.completedFuture(null);
	}

	@Override
	public long messagesReceived() {
		ProcessStdioTransport current = this.transport;
		return (current != null) ? current.messagesReceived() : 0;
	}

	// closed even when the client's close failed; it refuses to connect again
	@Override
	public void close() {
		ProcessStdioTransport current = this.transport;
		if (current != null) {
			current.closeGracefully().subscribe();
		}
	}

}
