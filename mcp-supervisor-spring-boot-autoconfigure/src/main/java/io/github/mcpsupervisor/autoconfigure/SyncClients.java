package io.github.mcpsupervisor.autoconfigure;

import java.lang.reflect.Field;

import io.modelcontextprotocol.client.McpAsyncClient;
import io.modelcontextprotocol.client.McpSyncClient;
import org.jspecify.annotations.Nullable;

import org.springframework.util.ReflectionUtils;

/**
 * The asynchronous client under a synchronous one. A generation is driven through its
 * asynchronous client (a ping, a call and a listing each have their own timeout), while
 * Spring AI's synchronous customizers only apply to a {@code McpClient.SyncSpec}, whose
 * {@code build()} wraps the asynchronous client it creates (with the sync handlers
 * adapted by the SDK itself) and exposes no accessor for it.
 */
final class SyncClients {

	private static final @Nullable Field DELEGATE = ReflectionUtils.findField(McpSyncClient.class, "delegate",
			McpAsyncClient.class);

	private SyncClients() {
	}

	static McpAsyncClient asyncOf(McpSyncClient client) {
		if (DELEGATE == null) {
			throw new IllegalStateException("This MCP Java SDK's McpSyncClient does not wrap an McpAsyncClient in a"
					+ " 'delegate' field: McpClientCustomizer<McpClient.SyncSpec> beans cannot be applied. Set"
					+ " mcp.client-type=async and customize McpClient.AsyncSpec instead.");
		}
		ReflectionUtils.makeAccessible(DELEGATE);
		return (McpAsyncClient) ReflectionUtils.getField(DELEGATE, client);
	}

}
