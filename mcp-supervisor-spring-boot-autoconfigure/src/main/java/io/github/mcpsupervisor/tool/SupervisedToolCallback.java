package io.github.mcpsupervisor.tool;

import java.util.Map;

import io.modelcontextprotocol.spec.McpError;
import io.modelcontextprotocol.spec.McpSchema.CallToolRequest;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import io.modelcontextprotocol.spec.McpSchema.Tool;
import org.jspecify.annotations.Nullable;

import org.springframework.ai.chat.model.ToolContext;
import org.springframework.ai.mcp.McpToolUtils;
import org.springframework.ai.mcp.ToolContextToMcpMetaConverter;
import org.springframework.ai.tool.ToolCallback;
import org.springframework.ai.tool.definition.ToolDefinition;
import org.springframework.ai.tool.execution.ToolExecutionException;
import org.springframework.ai.util.JsonHelper;
import org.springframework.util.StringUtils;

import io.github.mcpsupervisor.supervisor.McpServerSupervisor;

/**
 * A tool of a supervised server. It holds no client: every call is routed by the tool's
 * name to the server's live generation, so a callback captured before a reconnect keeps
 * working after it, and never reaches a closed client.
 */
public final class SupervisedToolCallback implements ToolCallback {

	private static final JsonHelper jsonHelper = new JsonHelper();

	private final McpServerSupervisor supervisor;

	private final Tool tool;

	private final ToolDefinition definition;

	SupervisedToolCallback(McpServerSupervisor supervisor, Tool tool, String exposedName) {
		this.supervisor = supervisor;
		this.tool = tool;
		this.definition = McpToolUtils.createToolDefinition(exposedName, tool);
	}

	@Override
	public ToolDefinition getToolDefinition() {
		return this.definition;
	}

	/**
	 * Returns the name of the server this tool belongs to.
	 * @return the server's name
	 */
	public String getServerName() {
		return this.supervisor.name();
	}

	/**
	 * Returns the tool's name on its server.
	 * @return the original name
	 */
	public String getOriginalToolName() {
		return this.tool.name();
	}

	@Override
	public String call(String toolInput) {
		return call(toolInput, null);
	}

	@Override
	public String call(String toolInput, @Nullable ToolContext toolContext) {
		CallToolResult result;
		try {
			Map<String, Object> arguments = StringUtils.hasText(toolInput) ? jsonHelper.fromJsonToMap(toolInput)
					: Map.of();
			Map<String, Object> meta = (toolContext != null)
					? ToolContextToMcpMetaConverter.defaultConverter().convert(toolContext) : null;
			result = this.supervisor
				.callTool(CallToolRequest.builder(this.tool.name()).arguments(arguments).meta(meta).build());
		}
		catch (McpError ex) {
			// The server answered with a JSON-RPC error: a tool failure the model can see.
			throw new ToolExecutionException(this.definition, new IllegalStateException(
					"MCP server '" + this.supervisor.name() + "' rejected the call: " + ex.getMessage(), ex));
		}
		catch (RuntimeException ex) {
			throw new ToolExecutionException(this.definition, ex);
		}
		if (Boolean.TRUE.equals(result.isError())) {
			throw new ToolExecutionException(this.definition,
					new IllegalStateException("Error calling tool: " + result.content()));
		}
		return jsonHelper.toJson(result.content());
	}

	@Override
	public String toString() {
		return "SupervisedToolCallback[" + this.definition.name() + " -> " + this.supervisor.name() + "/"
				+ this.tool.name() + "]";
	}

}
