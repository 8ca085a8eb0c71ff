package io.github.mcpsupervisor.autoconfigure;

import io.modelcontextprotocol.client.McpSyncClient;
import org.jspecify.annotations.Nullable;

import org.springframework.aot.hint.RuntimeHints;
import org.springframework.aot.hint.RuntimeHintsRegistrar;

/**
 * What a native image needs to build supervised clients from sync customizers: the field
 * of the SDK's {@link McpSyncClient} that holds the asynchronous client (see
 * {@link SyncClients}).
 */
class McpSupervisorRuntimeHints implements RuntimeHintsRegistrar {

	@Override
	public void registerHints(RuntimeHints hints, @Nullable ClassLoader classLoader) {
		hints.reflection().registerType(McpSyncClient.class, (type) -> type.withField("delegate"));
	}

}
