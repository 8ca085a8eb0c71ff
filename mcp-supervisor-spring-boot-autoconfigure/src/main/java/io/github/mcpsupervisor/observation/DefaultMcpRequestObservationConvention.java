package io.github.mcpsupervisor.observation;

import java.util.Set;

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
 * {@link McpRequestObservationDocumentation}.
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

	/** The observation's name; its timer is named so, its span is a client span. */
	public static final String NAME = "mcp.client.operation";

	private static final String NONE = KeyValue.NONE_VALUE;

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
				LowCardinalityKeyNames.TOOL.withValue((context.getTool() != null) ? context.getTool() : NONE),
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
