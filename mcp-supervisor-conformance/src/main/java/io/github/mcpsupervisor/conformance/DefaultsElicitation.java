package io.github.mcpsupervisor.conformance;

import java.util.LinkedHashMap;
import java.util.Map;

import io.modelcontextprotocol.spec.McpSchema.ElicitFormRequest;
import io.modelcontextprotocol.spec.McpSchema.ElicitRequest;
import io.modelcontextprotocol.spec.McpSchema.ElicitResult;

import org.springframework.ai.mcp.annotation.McpElicitation;
import org.springframework.stereotype.Component;

/**
 * The application's answer to the conformance server's elicitations: accepted with the
 * default of every field of the requested schema that has one, as a user who confirms a
 * form without changing it.
 */
@Component
class DefaultsElicitation {

	@McpElicitation(clients = ConformanceRun.SERVER)
	ElicitResult acceptDefaults(ElicitRequest request) {
		Map<String, Object> content = new LinkedHashMap<>();
		if (request instanceof ElicitFormRequest form && form.requestedSchema() != null
				&& form.requestedSchema().get("properties") instanceof Map<?, ?> properties) {
			properties.forEach((name, property) -> {
				if (property instanceof Map<?, ?> field && field.containsKey("default")) {
					content.put(String.valueOf(name), field.get("default"));
				}
			});
		}
		return new ElicitResult(ElicitResult.Action.ACCEPT, content, null);
	}

}
