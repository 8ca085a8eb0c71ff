package io.github.mcpsupervisor.observation;

import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import io.github.mcpsupervisor.authorization.McpUserAuthorizationException;
import io.github.mcpsupervisor.observation.McpRequestObservationDocumentation.HighCardinalityKeyNames;
import io.github.mcpsupervisor.observation.McpRequestObservationDocumentation.LowCardinalityKeyNames;
import io.github.mcpsupervisor.supervisor.McpServerUnavailableException;
import io.micrometer.common.KeyValue;
import io.micrometer.common.KeyValues;
import io.modelcontextprotocol.spec.McpError;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;

/**
 * The default names and key values of the observations of MCP requests: the name
 * {@value #NAME}, a contextual (span) name {@code {mcp.method.name} {gen_ai.tool.name}}
 * as OpenTelemetry's MCP conventions name client spans, and the keys of
 * {@link McpRequestObservationDocumentation}. A server chooses its tool names and a
 * JSON-RPC error's code, so both low-cardinality keys that take them are bounded: each
 * server has at most {@value #MAX_TOOL_NAMES} {@code gen_ai.tool.name} values of its own
 * (the first tools called), the calls of its other tools are tagged
 * {@value #OTHER_TOOLS}; the span's name keeps the tool's name.
 *
 * @since 0.1.0
 */
public class DefaultMcpRequestObservationConvention implements McpRequestObservationConvention {

	/**
	 * The JSON-RPC error codes that keep their own {@code error.type}: JSON-RPC's own
	 * (parse error, invalid request, method not found, invalid params, internal error),
	 * and those MCP and its SDKs define (connection closed, request timeout, resource not
	 * found, unsupported protocol version, URL elicitation required).
	 */
	static final Set<Integer> KNOWN_ERROR_CODES = Set.of(-32700, -32600, -32601, -32602, -32603, -32000, -32001, -32002,
			-32022, -32042);

	/**
	 * The most distinct {@code gen_ai.tool.name} values of one server, as many as
	 * {@code mcp.tool.calls} has {@code tool} tags.
	 */
	public static final int MAX_TOOL_NAMES = 100;

	/** The {@code gen_ai.tool.name} of the calls of a server's tools beyond its own. */
	public static final String OTHER_TOOLS = "other";

	// the servers whose tool names are remembered: names given to the convention beyond
	// them (servers added and removed while the application runs) all tag their tools
	// other
	static final int MAX_SERVERS = 1000;

	/** The observation's name; its timer is named so, its span is a client span. */
	public static final String NAME = "mcp.client.operation";

	private static final String NONE = KeyValue.NONE_VALUE;

	// the tool names of each server that are a value of their own
	private final Map<String, Set<String>> toolNames = new ConcurrentHashMap<>();

	@Override
	public String getName() {
		return NAME;
	}

	@Override
	public String getContextualName(McpRequestObservationContext context) {
		return (context.getTool() != null) ? context.getMethod() + " " + context.getTool() : context.getMethod();
	}

	@Override
	public KeyValues getLowCardinalityKeyValues(McpRequestObservationContext context) {
		return KeyValues.of(LowCardinalityKeyNames.METHOD.withValue(context.getMethod()),
				LowCardinalityKeyNames.TOOL.withValue(toolName(context)),
				LowCardinalityKeyNames.SERVER.withValue(context.getServer()),
				LowCardinalityKeyNames.OUTCOME.withValue(outcome(context)),
				LowCardinalityKeyNames.RETRIED.withValue(String.valueOf(context.isRetried())),
				LowCardinalityKeyNames.ERROR_TYPE.withValue(errorType(context)));
	}

	@Override
	public KeyValues getHighCardinalityKeyValues(McpRequestObservationContext context) {
		return KeyValues.of(HighCardinalityKeyNames.GENERATION
			.withValue((context.getGeneration() > 0) ? String.valueOf(context.getGeneration()) : NONE));
	}

	private String toolName(McpRequestObservationContext context) {
		String tool = context.getTool();
		if (tool == null) {
			return NONE;
		}
		Set<String> names = this.toolNames.get(context.getServer());
		if (names == null) {
			if (this.toolNames.size() >= MAX_SERVERS) {
				return OTHER_TOOLS;
			}
			names = this.toolNames.computeIfAbsent(context.getServer(), (server) -> new HashSet<>());
		}
		synchronized (names) {
			if (names.contains(tool) || names.size() < MAX_TOOL_NAMES) {
				names.add(tool);
				return tool;
			}
		}
		return OTHER_TOOLS;
	}

	private static String outcome(McpRequestObservationContext context) {
		Throwable error = context.getError();
		if (error == null) {
			if (!context.isEnded()) {
				return "unknown";
			}
			return isErrorResult(context) ? "error" : "success";
		}
		if (error instanceof McpError) {
			return "error";
		}
		if (error instanceof McpUserAuthorizationException) {
			return "unauthorized";
		}
		return (error instanceof McpServerUnavailableException) ? "unavailable" : "failure";
	}

	private static String errorType(McpRequestObservationContext context) {
		Throwable error = context.getError();
		if (error instanceof McpError mcpError && mcpError.getJsonRpcError() != null) {
			// a server sends any code it likes: the ones a specification defines, or
			// other
			int code = mcpError.getJsonRpcError().code();
			return KNOWN_ERROR_CODES.contains(code) ? String.valueOf(code) : "other";
		}
		if (error != null) {
			return error.getClass().getSimpleName();
		}
		return isErrorResult(context) ? "tool_error" : NONE;
	}

	private static boolean isErrorResult(McpRequestObservationContext context) {
		return context.getResponse() instanceof CallToolResult result && Boolean.TRUE.equals(result.isError());
	}

}
