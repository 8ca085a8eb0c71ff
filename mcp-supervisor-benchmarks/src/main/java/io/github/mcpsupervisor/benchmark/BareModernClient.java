package io.github.mcpsupervisor.benchmark;

import java.time.Duration;
import java.util.Map;

import io.github.mcpsupervisor.transport.StdioServerDefinition;
import io.modelcontextprotocol.client.transport.ServerParameters;
import io.modelcontextprotocol.modern.McpSchema.CallToolResult;
import io.modelcontextprotocol.modern.client.McpClient;
import io.modelcontextprotocol.modern.client.McpSyncClient;
import io.modelcontextprotocol.modern.client.transport.StdioMcpClientTransport;

/**
 * The floor of the 2026-07-28 scenarios: a server used through the SDK's own modern
 * client over its own stdio transport, with nothing of ours in between.
 */
final class BareModernClient implements AutoCloseable {

	private final StdioMcpClientTransport transport;

	private final McpSyncClient client;

	BareModernClient(StdioServerDefinition definition, Duration callTimeout) {
		ServerParameters parameters = ServerParameters.builder(definition.command()).args(definition.args()).build();
		this.transport = StdioMcpClientTransport.builder(parameters).start();
		this.client = McpClient.sync(this.transport).callTimeout(callTimeout).build();
	}

	CallToolResult call(String tool, Map<String, Object> arguments) {
		CallToolResult result = this.client.tool(tool).arguments(arguments).call();
		if (Boolean.TRUE.equals(result.isError())) {
			throw new IllegalStateException("the call of " + tool + " failed: " + result);
		}
		return result;
	}

	@Override
	public void close() {
		this.transport.close();
	}

}
