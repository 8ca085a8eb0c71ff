package io.github.mcpsupervisor.observation;

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
			return String.valueOf(mcpError.getJsonRpcError().code());
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
