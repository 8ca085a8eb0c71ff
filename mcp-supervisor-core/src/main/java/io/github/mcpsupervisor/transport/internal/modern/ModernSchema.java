package io.github.mcpsupervisor.transport.internal.modern;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;

import io.github.mcpsupervisor.internal.ServerText;
import io.github.mcpsupervisor.transport.internal.Revisions;
import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.modern.JsonRpc.JSONRPCResponse.JSONRPCError;
import io.modelcontextprotocol.modern.McpException;
import io.modelcontextprotocol.spec.McpError;
import io.modelcontextprotocol.spec.McpSchema;
import org.jspecify.annotations.Nullable;

/**
 * Translates between the schema of revision 2026-07-28 (the SDK's modern types) and the
 * one the supervisor, its tool bridge and Spring AI use (the SDK's 2025-11-25 types). The
 * two agree on the wire for what is translated here (tools, call results, list results,
 * capabilities), so a value is translated through its JSON form and keeps every field the
 * server wrote, tool schemas included.
 */
final class ModernSchema {

	private final McpJsonMapper jsonMapper;

	ModernSchema(McpJsonMapper jsonMapper) {
		this.jsonMapper = jsonMapper;
	}

	<T> T convert(Object value, Class<T> type) {
		return this.jsonMapper.convertValue(value, type);
	}

	/**
	 * Returns the result of a tool call in the 2025-11-25 type. A result of plain text
	 * (text without annotations, the most common) is built field by field, the same
	 * result its JSON form gives without the round trip through it, every call; any other
	 * through its JSON form.
	 * @param result the result the modern client decoded
	 * @return the same result in the 2025-11-25 type
	 */
	McpSchema.CallToolResult callToolResult(io.modelcontextprotocol.modern.McpSchema.CallToolResult result) {
		List<io.modelcontextprotocol.modern.McpSchema.Content> content = result.content();
		if (content == null) {
			return convert(result, McpSchema.CallToolResult.class);
		}
		List<McpSchema.Content> texts = new ArrayList<>(content.size());
		for (io.modelcontextprotocol.modern.McpSchema.Content item : content) {
			if (!(item instanceof io.modelcontextprotocol.modern.McpSchema.TextContent text)
					|| text.annotations() != null) {
				return convert(result, McpSchema.CallToolResult.class);
			}
			texts.add(new McpSchema.TextContent(null, text.text(), text.meta()));
		}
		return new McpSchema.CallToolResult(texts, result.isError(), result.structuredContent(), result.meta());
	}

	/**
	 * Returns the error a server answered as the error type the supervisor knows as an
	 * answer (not a loss of the server), its message bounded as a 2025-11-25 answer's.
	 * @param ex the error the modern client raised
	 * @param redaction masks the configuration's secrets in the message
	 * @return the same error as an {@link McpError}
	 */
	static McpError answered(McpException ex, UnaryOperator<String> redaction) {
		JSONRPCError error = ex.error();
		int code = (error != null && error.code() != null) ? error.code() : McpSchema.ErrorCodes.INTERNAL_ERROR;
		String text = (error != null && error.message() != null) ? error.message() : String.valueOf(ex.getMessage());
		String message = redaction.apply(ServerText.singleLine(ServerText.forModel(text, "error message")));
		// the data is left out: nothing reads it, and a server may make it large
		return new McpError(new McpSchema.JSONRPCResponse.JSONRPCError(code, message, null));
	}

	/**
	 * Returns what the server's discovery said as the initialize result of a 2025-11-25
	 * session would, so that the tool bridge, the endpoint and Spring AI's connection
	 * info read both revisions alike.
	 * @param discovered the answer to {@code server/discover}
	 * @return the equivalent initialize result, its protocol version 2026-07-28
	 */
	McpSchema.InitializeResult initializeResult(io.modelcontextprotocol.modern.McpSchema.DiscoverResult discovered) {
		McpSchema.ServerCapabilities capabilities = (discovered.capabilities() != null)
				? convert(discovered.capabilities(), McpSchema.ServerCapabilities.class)
				: McpSchema.ServerCapabilities.builder().build();
		return McpSchema.InitializeResult.builder(Revisions.V2026_07_28, capabilities, serverInfo(discovered))
			.instructions(discovered.instructions())
			.build();
	}

	private McpSchema.Implementation serverInfo(io.modelcontextprotocol.modern.McpSchema.DiscoverResult discovered) {
		Map<String, Object> meta = discovered.meta();
		@Nullable Object info = (meta != null) ? meta.get(io.modelcontextprotocol.modern.McpSchema.MetaKeys.SERVER_INFO) : null;
		if (info instanceof Map<?, ?>) {
			try {
				McpSchema.Implementation implementation = convert(info, McpSchema.Implementation.class);
				if (implementation.name() != null) {
					return implementation;
				}
			}
			catch (RuntimeException ex) {
				// not an implementation: the server is unnamed
			}
		}
		return new McpSchema.Implementation("unnamed", null, "unknown", null, null, null);
	}

}
