package io.github.mcpsupervisor.autoconfigure.properties;

/**
 * Which of Spring AI's kinds of client customization and annotated handler the
 * application writes, as {@code spring.ai.mcp.client.type} chooses for Spring AI's own
 * clients. Supervised clients are asynchronous underneath either way.
 *
 * @since 0.1.0
 */
public enum McpClientType {

	/**
	 * {@code McpClientCustomizer<McpClient.SyncSpec>} beans and annotated handlers that
	 * return plain values.
	 */
	SYNC,

	/**
	 * {@code McpClientCustomizer<McpClient.AsyncSpec>} beans and annotated handlers that
	 * return {@code Mono}.
	 */
	ASYNC

}
