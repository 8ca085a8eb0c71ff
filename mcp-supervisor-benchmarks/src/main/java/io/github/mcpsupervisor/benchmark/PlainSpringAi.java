package io.github.mcpsupervisor.benchmark;

import java.time.Duration;

import io.github.mcpsupervisor.transport.StdioServerDefinition;
import io.modelcontextprotocol.client.McpClient;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.client.transport.ServerParameters;
import io.modelcontextprotocol.client.transport.StdioClientTransport;
import io.modelcontextprotocol.json.McpJsonDefaults;
import io.modelcontextprotocol.spec.McpSchema.Tool;

import org.springframework.ai.mcp.SyncMcpToolCallback;
import org.springframework.ai.tool.ToolCallback;

/**
 * The baseline the scenarios compare against: a server used the way plain Spring AI does,
 * through the SDK's own stdio client and Spring AI's {@link SyncMcpToolCallback}.
 */
final class PlainSpringAi {

	private PlainSpringAi() {
	}

	static McpSyncClient client(StdioServerDefinition definition, Duration requestTimeout) {
		McpSyncClient client = client(definition, requestTimeout, Duration.ofSeconds(20));
		client.initialize();
		return client;
	}

	/**
	 * Builds an SDK client of the server, not yet initialized.
	 * @param definition the server
	 * @param requestTimeout the client's request timeout
	 * @param initializationTimeout the client's initialization timeout
	 * @return the client
	 */
	static McpSyncClient client(StdioServerDefinition definition, Duration requestTimeout,
			Duration initializationTimeout) {
		ServerParameters parameters = ServerParameters.builder(definition.command()).args(definition.args()).build();
		return McpClient.sync(new StdioClientTransport(parameters, McpJsonDefaults.getMapper()))
			.requestTimeout(requestTimeout)
			.initializationTimeout(initializationTimeout)
			.build();
	}

	static ToolCallback callback(McpSyncClient client, String toolName) {
		Tool tool = client.listTools()
			.tools()
			.stream()
			.filter((t) -> t.name().equals(toolName))
			.findFirst()
			.orElseThrow();
		return SyncMcpToolCallback.builder().mcpClient(client).tool(tool).build();
	}

}
