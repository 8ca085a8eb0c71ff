package io.github.mcpsupervisor.demo;

import java.util.List;
import java.util.Map;

import io.modelcontextprotocol.modern.McpSchema.GetPromptResult;
import io.modelcontextprotocol.modern.McpSchema.Prompt;
import io.modelcontextprotocol.modern.McpSchema.PromptArgument;
import io.modelcontextprotocol.modern.McpSchema.PromptMessage;
import io.modelcontextprotocol.modern.McpSchema.ReadResourceResult;
import io.modelcontextprotocol.modern.McpSchema.Resource;
import io.modelcontextprotocol.modern.McpSchema.Role;
import io.modelcontextprotocol.modern.McpSchema.TextContent;
import io.modelcontextprotocol.modern.McpSchema.TextResourceContents;
import io.modelcontextprotocol.modern.server.McpRequestContext;
import io.modelcontextprotocol.modern.server.McpSyncResponse;
import io.modelcontextprotocol.modern.server.feature.McpSyncPrompt;
import io.modelcontextprotocol.modern.server.feature.McpSyncPromptRepository;
import io.modelcontextprotocol.modern.server.feature.McpSyncResource;
import io.modelcontextprotocol.modern.server.feature.McpSyncResourceRepository;
import io.modelcontextprotocol.modern.server.feature.PromptsPage;
import io.modelcontextprotocol.modern.server.feature.ResourcesPage;
import org.jspecify.annotations.Nullable;

/**
 * The resource ({@value DemoResources#README}) and the prompt ({@code greet}) of the demo
 * server in revision 2026-07-28.
 */
final class ModernDemoContent {

	private static final String README_TEXT = "The demo MCP server of mcp-supervisor, in revision 2026-07-28:"
			+ " tools that make supervision visible (echo, add, crash, slow...), a resource and a prompt.";

	private static final String TEXT = "text/plain";

	private ModernDemoContent() {
	}

	static McpSyncResourceRepository resources() {
		Resource readme = Resource.builder(DemoResources.README, "readme")
			.title("About this server")
			.description("A fixed text about this server")
			.mimeType(TEXT)
			.build();
		McpSyncResource read = McpSyncResource.of((context, request) -> McpSyncResponse.result(ReadResourceResult
			.builder(List.of(TextResourceContents.builder(DemoResources.README, README_TEXT).mimeType(TEXT).build()))
			.build()));
		return new McpSyncResourceRepository() {

			@Override
			public ResourcesPage list(McpRequestContext context, @Nullable String cursor) {
				return ResourcesPage.of(List.of(readme));
			}

			@Override
			public @Nullable McpSyncResource find(McpRequestContext context, String uri) {
				return DemoResources.README.equals(uri) ? read : null;
			}

		};
	}

	static McpSyncPromptRepository prompts() {
		Prompt definition = Prompt.builder("greet")
			.title("Greet someone")
			.description("Asks for a greeting")
			.arguments(List.of(PromptArgument.builder("name").description("Who to greet").required(true).build()))
			.build();
		McpSyncPrompt greet = McpSyncPrompt.of(definition, (context, request) -> {
			Map<String, String> arguments = request.arguments();
			String name = (arguments != null) ? arguments.getOrDefault("name", "someone") : "someone";
			return McpSyncResponse.result(GetPromptResult.builder(List.of(PromptMessage
				.builder(Role.USER, TextContent.builder("Write a friendly greeting for " + name + ".").build())
				.build())).description("A friendly greeting").build());
		});
		return new McpSyncPromptRepository() {

			@Override
			public PromptsPage list(McpRequestContext context, @Nullable String cursor) {
				return PromptsPage.of(List.of(definition));
			}

			@Override
			public @Nullable McpSyncPrompt find(McpRequestContext context, String name) {
				return "greet".equals(name) ? greet : null;
			}

		};
	}

}
