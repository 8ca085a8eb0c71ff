package io.github.mcpsupervisor.demo;

import java.util.List;
import java.util.Map;

import io.modelcontextprotocol.server.McpServerFeatures.SyncPromptSpecification;
import io.modelcontextprotocol.spec.McpError;
import io.modelcontextprotocol.spec.McpSchema.ErrorCodes;
import io.modelcontextprotocol.spec.McpSchema.GetPromptRequest;
import io.modelcontextprotocol.spec.McpSchema.GetPromptResult;
import io.modelcontextprotocol.spec.McpSchema.Prompt;
import io.modelcontextprotocol.spec.McpSchema.PromptArgument;
import io.modelcontextprotocol.spec.McpSchema.PromptMessage;
import io.modelcontextprotocol.spec.McpSchema.Role;
import io.modelcontextprotocol.spec.McpSchema.TextContent;

/**
 * The demo server's prompts: {@code about}, without arguments, and {@code greet}, with a
 * required {@code name} and an optional {@code style}.
 */
final class DemoPrompts {

	private DemoPrompts() {
	}

	static List<SyncPromptSpecification> prompts() {
		Prompt about = Prompt.builder("about")
			.title("About this server")
			.description("Asks for a two-sentence introduction of this server")
			.build();
		Prompt greet = Prompt.builder("greet")
			.title("Greet someone")
			.description("Asks for a greeting")
			.arguments(List.of(PromptArgument.builder("name").description("Who to greet").required(true).build(),
					PromptArgument.builder("style")
						.description("How to greet, for example formal (default: friendly)")
						.required(false)
						.build()))
			.build();
		return List.of(
				new SyncPromptSpecification(about,
						(exchange, request) -> result("About this server",
								"Introduce the mcp-supervisor demo MCP server and what it is for in two sentences.")),
				new SyncPromptSpecification(greet, (exchange, request) -> {
					String name = argument(request, "name");
					if (name == null || name.isBlank()) {
						throw McpError.builder(ErrorCodes.INVALID_PARAMS)
							.message("Prompt 'greet' needs the argument 'name'")
							.build();
					}
					String style = argument(request, "style");
					String greeting = (style != null && !style.isBlank()) ? style : "friendly";
					return result("A " + greeting + " greeting", "Write a " + greeting + " greeting for " + name + ".");
				}));
	}

	private static String argument(GetPromptRequest request, String name) {
		Map<String, Object> arguments = request.arguments();
		Object value = (arguments != null) ? arguments.get(name) : null;
		return (value != null) ? String.valueOf(value) : null;
	}

	private static GetPromptResult result(String description, String text) {
		return GetPromptResult
			.builder(List.of(PromptMessage.builder(Role.USER, TextContent.builder(text).build()).build()))
			.description(description)
			.build();
	}

}
