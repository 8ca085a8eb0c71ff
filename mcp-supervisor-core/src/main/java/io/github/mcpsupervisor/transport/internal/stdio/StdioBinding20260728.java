package io.github.mcpsupervisor.transport.internal.stdio;

import java.util.concurrent.CompletableFuture;

import io.github.mcpsupervisor.transport.internal.MessageLimits;
import io.github.mcpsupervisor.transport.internal.modern.Revision20260728;
import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.modern.client.transport.StdioMcpClientTransport;
import org.jspecify.annotations.Nullable;

/**
 * The SDK's 2026-07-28 stdio transport over a generation's process, reading its stdout
 * through a stream that counts its messages and takes its log messages.
 */
final class StdioBinding20260728 implements StdioBinding {

	private final Revision20260728 client;

	private final McpJsonMapper jsonMapper;

	private volatile @Nullable StdioMcpClientTransport transport;

	private volatile @Nullable JsonLinesInputStream stdout;

	StdioBinding20260728(Revision20260728 client, McpJsonMapper jsonMapper) {
		this.client = client;
		this.jsonMapper = jsonMapper;
	}

	@Override
	public Revision20260728 client() {
		return this.client;
	}

	@Override
	public void connect(StdioServerProcess process, String label) {
		JsonLinesInputStream counted = new JsonLinesInputStream(process.stdout(), label, this.client::takeLogMessage);
		this.stdout = counted;
		StdioMcpClientTransport created = StdioMcpClientTransport.builder(counted, process.stdin())
			.jsonMapper(this.jsonMapper)
			.inputMaxSize(MessageLimits.MAX_MESSAGE_BYTES)
			.start();
		this.transport = created;
		this.client.connect(created);
	}

	@Override
	public CompletableFuture<?> drained() {
		return CompletableFuture.completedFuture(null);
	}

	@Override
	public long messagesReceived() {
		JsonLinesInputStream current = this.stdout;
		return (current != null) ? current.messages() : 0;
	}

	@Override
	public void close() {
		StdioMcpClientTransport current = this.transport;
		if (current != null) {
			current.close();
		}
	}

}
