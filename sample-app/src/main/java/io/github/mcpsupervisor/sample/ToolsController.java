package io.github.mcpsupervisor.sample;

import java.util.Arrays;
import java.util.List;
import java.util.Map;

import io.github.mcpsupervisor.supervisor.McpServerStatus;
import io.github.mcpsupervisor.supervisor.McpServerUnavailableException;
import io.github.mcpsupervisor.supervisor.McpSupervisors;
import io.github.mcpsupervisor.tool.SupervisedToolCallback;
import org.jspecify.annotations.Nullable;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.ai.tool.ToolCallback;
import org.springframework.ai.tool.ToolCallbackProvider;
import org.springframework.ai.tool.execution.ToolExecutionException;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RestController;

/**
 * Lets anyone exercise the supervised tools without an LLM: list them, call them with
 * JSON arguments.
 */
@RestController
class ToolsController {

	private final ToolCallbackProvider tools;

	private final McpSupervisors supervisors;

	private final JsonMapper jsonMapper;

	ToolsController(ToolCallbackProvider tools, McpSupervisors supervisors, JsonMapper jsonMapper) {
		this.tools = tools;
		this.supervisors = supervisors;
		this.jsonMapper = jsonMapper;
	}

	@GetMapping("/tools")
	Map<String, Object> list() {
		List<Map<String, String>> toolList = Arrays.stream(this.tools.getToolCallbacks())
			.map((callback) -> Map.of("name", callback.getToolDefinition().name(), "server", server(callback),
					"description", callback.getToolDefinition().description()))
			.toList();
		List<Map<String, Object>> servers = this.supervisors.status().stream().map(ToolsController::summary).toList();
		return Map.of("servers", servers, "tools", toolList);
	}

	@PostMapping(path = "/tools/{name}", produces = MediaType.APPLICATION_JSON_VALUE,
			consumes = MediaType.APPLICATION_JSON_VALUE)
	ResponseEntity<?> call(@PathVariable String name, @RequestBody(required = false) @Nullable String arguments) {
		ToolCallback callback = Arrays.stream(this.tools.getToolCallbacks())
			.filter((candidate) -> candidate.getToolDefinition().name().equals(name))
			.findFirst()
			.orElse(null);
		if (callback == null) {
			return problem(HttpStatus.NOT_FOUND, "No tool named '" + name + "'; see GET /tools");
		}
		String json = (arguments != null && !arguments.isBlank()) ? arguments : "{}";
		if (!isJsonObject(json)) {
			return problem(HttpStatus.BAD_REQUEST, "The request body must be a JSON object of the tool's arguments");
		}
		try {
			return ResponseEntity.ok(callback.call(json));
		}
		catch (ToolExecutionException ex) {
			HttpStatus status = (ex.getCause() instanceof McpServerUnavailableException)
					? HttpStatus.SERVICE_UNAVAILABLE : HttpStatus.BAD_GATEWAY;
			return problem(status, (ex.getCause() != null) ? ex.getCause().getMessage() : ex.getMessage());
		}
	}

	private boolean isJsonObject(String json) {
		try {
			return this.jsonMapper.readTree(json).isObject();
		}
		catch (JacksonException ex) {
			return false;
		}
	}

	private static Map<String, Object> summary(McpServerStatus status) {
		return Map.of("name", status.name(), "state", status.state(), "generation", status.generation(), "tools",
				status.tools().size());
	}

	private static String server(ToolCallback callback) {
		return (callback instanceof SupervisedToolCallback supervised) ? supervised.getServerName() : "";
	}

	private static ResponseEntity<ProblemDetail> problem(HttpStatus status, @Nullable String detail) {
		return ResponseEntity.status(status).body(ProblemDetail.forStatusAndDetail(status, detail));
	}

}
