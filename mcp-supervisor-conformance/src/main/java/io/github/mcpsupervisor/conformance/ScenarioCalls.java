package io.github.mcpsupervisor.conformance;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import io.github.mcpsupervisor.tool.SupervisedToolCallback;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The tool calls each conformance scenario intends: the arguments its context lists
 * ({@code http-custom-headers}), the schema round trip of
 * {@code json-schema-2020-12-preservation}, and otherwise every listed tool once with
 * arguments made from its input schema.
 */
final class ScenarioCalls {

	private static final JsonMapper json = JsonMapper.builder().build();

	private ScenarioCalls() {
	}

	static List<ToolCall> of(String scenario, @Nullable String context, List<SupervisedToolCallback> tools) {
		return switch (scenario) {
			case "http-custom-headers" -> fromContext(context, tools);
			case "json-schema-2020-12-preservation" -> schemaRoundTrip(tools);
			default -> tools.stream().map((tool) -> new ToolCall(tool, sampleArguments(inputSchema(tool)))).toList();
		};
	}

	private static List<ToolCall> fromContext(@Nullable String context, List<SupervisedToolCallback> tools) {
		List<ToolCall> calls = new ArrayList<>();
		if (context == null) {
			return calls;
		}
		for (JsonNode call : json.readTree(context).path("toolCalls")) {
			find(tools, call.path("name").asString())
				.ifPresent((tool) -> calls.add(new ToolCall(tool, json.writeValueAsString(call.path("arguments")))));
		}
		return calls;
	}

	// the echo tool is given the rich tool's schema as the starter passes it on
	private static List<ToolCall> schemaRoundTrip(List<SupervisedToolCallback> tools) {
		Optional<SupervisedToolCallback> rich = find(tools, "json_schema_2020_12_tool");
		return find(tools, "json_schema_echo").flatMap((echo) -> rich.map((tool) -> {
			Map<String, Object> arguments = Map.of("schema", inputSchema(tool));
			return List.of(new ToolCall(echo, json.writeValueAsString(arguments)));
		})).orElse(List.of());
	}

	private static Optional<SupervisedToolCallback> find(List<SupervisedToolCallback> tools, String name) {
		return tools.stream().filter((tool) -> tool.getOriginalToolName().equals(name)).findFirst();
	}

	private static JsonNode inputSchema(SupervisedToolCallback tool) {
		return json.readTree(tool.getToolDefinition().inputSchema());
	}

	private static String sampleArguments(JsonNode schema) {
		Map<String, Object> arguments = new LinkedHashMap<>();
		for (JsonNode required : schema.path("required")) {
			String name = required.asString();
			arguments.put(name, sample(schema.path("properties").path(name)));
		}
		return json.writeValueAsString(arguments);
	}

	private static Object sample(JsonNode property) {
		if (property.has("default")) {
			return property.get("default");
		}
		if (property.path("enum").isArray() && !property.path("enum").isEmpty()) {
			return property.path("enum").get(0);
		}
		return switch (property.path("type").asString("string")) {
			case "integer", "number" -> 1;
			case "boolean" -> true;
			case "object" -> Map.of();
			case "array" -> List.of();
			case "null" -> json.nullNode();
			default -> "test";
		};
	}

	/**
	 * One call of a tool.
	 *
	 * @param callback the tool's callback
	 * @param arguments its arguments, as JSON
	 */
	record ToolCall(SupervisedToolCallback callback, String arguments) {

		String tool() {
			return this.callback.getOriginalToolName();
		}

	}

}
