package io.github.mcpsupervisor.sample;

import java.util.List;
import java.util.Map;

import io.modelcontextprotocol.spec.McpSchema.Prompt;
import io.modelcontextprotocol.spec.McpSchema.Resource;
import io.modelcontextprotocol.spec.McpSchema.ResourceTemplate;
import org.jspecify.annotations.Nullable;
import tools.jackson.core.JacksonException;
import tools.jackson.core.type.TypeReference;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/**
 * Lets anyone try a supervised server's resources and prompts without code: list them,
 * read a resource, get a prompt with JSON arguments.
 */
@RestController
@RequestMapping("/servers/{server}")
class ServersController {

	private static final TypeReference<Map<String, Object>> ARGUMENTS = new TypeReference<>() {
	};

	private final ServerRequests requests;

	private final JsonMapper jsonMapper;

	ServersController(ServerRequests requests, JsonMapper jsonMapper) {
		this.requests = requests;
		this.jsonMapper = jsonMapper;
	}

	@GetMapping("/resources")
	ResponseEntity<?> resources(@PathVariable String server) {
		return this.requests.send(server,
				(client) -> new Resources(client.listResources(), client.listResourceTemplates()));
	}

	@GetMapping("/resource")
	ResponseEntity<?> resource(@PathVariable String server, @RequestParam(required = false) @Nullable String uri) {
		return this.requests.send(server, (client) -> {
			if (uri == null || uri.isBlank()) {
				return ServerRequests.missingUri(server);
			}
			return client.readResource(uri);
		});
	}

	@GetMapping("/prompts")
	ResponseEntity<?> prompts(@PathVariable String server) {
		return this.requests.send(server, (client) -> new Prompts(client.listPrompts()));
	}

	// no produces, so that a problem is answered as application/problem+json
	@PostMapping(path = "/prompts/{name}", consumes = MediaType.APPLICATION_JSON_VALUE)
	ResponseEntity<?> prompt(@PathVariable String server, @PathVariable String name,
			@RequestBody(required = false) @Nullable String arguments) {
		return this.requests.send(server, (client) -> {
			Map<String, Object> parsed = parse(arguments);
			if (parsed == null) {
				return ServerRequests.problem(HttpStatus.BAD_REQUEST,
						"The request body must be a JSON object of the prompt's arguments");
			}
			return client.getPrompt(name, parsed);
		});
	}

	// The arguments of a JSON object body (none without a body), null for another body.
	private @Nullable Map<String, Object> parse(@Nullable String arguments) {
		if (arguments == null || arguments.isBlank()) {
			return Map.of();
		}
		try {
			JsonNode json = this.jsonMapper.readTree(arguments);
			return json.isObject() ? this.jsonMapper.convertValue(json, ARGUMENTS) : null;
		}
		catch (JacksonException ex) {
			return null;
		}
	}

	/**
	 * The resources of a server.
	 *
	 * @param resources its resources
	 * @param resourceTemplates its resource templates
	 */
	record Resources(List<Resource> resources, List<ResourceTemplate> resourceTemplates) {
	}

	/**
	 * The prompts of a server.
	 *
	 * @param prompts its prompts
	 */
	record Prompts(List<Prompt> prompts) {
	}

}
