package io.github.mcpsupervisor.e2e;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

import io.modelcontextprotocol.json.McpJsonDefaults;
import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.modern.McpSchema.CallToolOutcome;
import io.modelcontextprotocol.modern.McpSchema.CallToolResult;
import io.modelcontextprotocol.modern.McpSchema.CompleteRequest;
import io.modelcontextprotocol.modern.McpSchema.CompleteResult;
import io.modelcontextprotocol.modern.McpSchema.GetPromptResult;
import io.modelcontextprotocol.modern.McpSchema.Implementation;
import io.modelcontextprotocol.modern.McpSchema.Prompt;
import io.modelcontextprotocol.modern.McpSchema.PromptArgument;
import io.modelcontextprotocol.modern.McpSchema.PromptMessage;
import io.modelcontextprotocol.modern.McpSchema.ReadResourceResult;
import io.modelcontextprotocol.modern.McpSchema.Resource;
import io.modelcontextprotocol.modern.McpSchema.ResourceTemplate;
import io.modelcontextprotocol.modern.McpSchema.Role;
import io.modelcontextprotocol.modern.McpSchema.SubscriptionFilter;
import io.modelcontextprotocol.modern.McpSchema.TextContent;
import io.modelcontextprotocol.modern.McpSchema.TextResourceContents;
import io.modelcontextprotocol.modern.McpSchema.Tool;
import io.modelcontextprotocol.modern.server.McpFeature;
import io.modelcontextprotocol.modern.server.McpRequestContext;
import io.modelcontextprotocol.modern.server.McpServer;
import io.modelcontextprotocol.modern.server.McpSyncResponse;
import io.modelcontextprotocol.modern.server.feature.McpChangeFeed;
import io.modelcontextprotocol.modern.server.feature.McpSyncPrompt;
import io.modelcontextprotocol.modern.server.feature.McpSyncPromptRepository;
import io.modelcontextprotocol.modern.server.feature.McpSyncResource;
import io.modelcontextprotocol.modern.server.feature.McpSyncResourceRepository;
import io.modelcontextprotocol.modern.server.feature.McpSyncResourceTemplate;
import io.modelcontextprotocol.modern.server.feature.McpSyncTool;
import io.modelcontextprotocol.modern.server.feature.McpSyncToolRepository;
import io.modelcontextprotocol.modern.server.feature.PromptsFeature;
import io.modelcontextprotocol.modern.server.feature.PromptsPage;
import io.modelcontextprotocol.modern.server.feature.ResourceTemplatesPage;
import io.modelcontextprotocol.modern.server.feature.ResourcesFeature;
import io.modelcontextprotocol.modern.server.feature.ResourcesPage;
import io.modelcontextprotocol.modern.server.feature.ServerChange;
import io.modelcontextprotocol.modern.server.feature.ToolsFeature;
import io.modelcontextprotocol.modern.server.feature.ToolsPage;
import io.modelcontextprotocol.modern.server.transport.StdioMcpTransport;
import org.jspecify.annotations.Nullable;
import reactor.core.publisher.Mono;

/**
 * A stdio MCP server of revision 2026-07-28 only, on the MCP Java SDK's modern server,
 * with content beside its tools: a subscribable resource {@value #NOTE} whose text names
 * its version and the process, a resource template {@value #TEMPLATE} whose {@code name}
 * completes, a prompt {@code greet} whose {@code name} argument completes, and a tool
 * {@code touch} that makes a new version of the note and announces its update to the
 * {@code subscriptions/listen} streams that asked for it. With the argument
 * {@code refuse-subscriptions} it acknowledges no resource subscription of a listen
 * stream; with {@code without-prompts} it offers no prompts; with {@code hang-touch} a
 * call of {@code touch} is accepted and never answered. It exits when its standard input
 * ends.
 */
public final class ModernContentMcpServer {

	static final String NOTE = "memo://note";

	static final String TEMPLATE = "memo://notes/{name}";

	static final List<String> NAMES = List.of("Ada", "Alan", "Grace");

	private static final AtomicInteger version = new AtomicInteger(1);

	private ModernContentMcpServer() {
	}

	public static void main(String[] args) {
		PrintStream protocol = System.out;
		// stdout carries the protocol only
		System.setOut(System.err);
		McpJsonMapper jsonMapper = McpJsonDefaults.getMapper();
		McpServer server = server(jsonMapper, args);
		// the Mono completes when the input ends
		new StdioMcpTransport(server, jsonMapper, System.in, protocol).start().block();
		System.exit(0);
	}

	/**
	 * Builds the server, whatever transport serves it.
	 * @param jsonMapper the JSON mapper
	 * @param args the command line arguments
	 * @return the server
	 */
	static McpServer server(McpJsonMapper jsonMapper, String[] args) {
		McpChangeFeed changes = new McpChangeFeed();
		boolean refuseSubscriptions = Arrays.asList(args).contains("refuse-subscriptions");
		List<McpFeature> features = new ArrayList<>(
				List.of(ToolsFeature.ofSync(tools(changes, Arrays.asList(args).contains("hang-touch"))),
						ResourcesFeature.ofSync(resources())));
		if (!Arrays.asList(args).contains("without-prompts")) {
			features.add(PromptsFeature.ofSync(prompts()));
		}
		return McpServer.builder()
			.serverInfo(Implementation.builder("modern-content", "1.0.0").build())
			.jsonMapper(jsonMapper)
			.features(features)
			.subscriptions(changes)
			.restrictSubscriptions((context, requested,
					honoured) -> Mono.just(refuseSubscriptions
							? honoured.with(SubscriptionFilter.RESOURCE_SUBSCRIPTIONS, List.of()) : honoured))
			.build();
	}

	private static McpSyncToolRepository tools(McpChangeFeed changes, boolean hang) {
		Tool touch = Tool.builder("touch", Map.of("type", "object", "properties", Map.of()))
			.description("Makes a new version of " + NOTE + " and announces its update")
			.build();
		McpSyncTool tool = McpSyncTool.of(touch, (context, request) -> {
			if (hang) {
				hang();
			}
			int touched = version.incrementAndGet();
			changes.broadcast(new ServerChange.ResourceUpdated(NOTE));
			return text("touched " + touched);
		});
		return new McpSyncToolRepository() {

			@Override
			public ToolsPage list(McpRequestContext context, @Nullable String cursor) {
				return ToolsPage.of(List.of(touch));
			}

			@Override
			public @Nullable McpSyncTool find(McpRequestContext context, String name) {
				return "touch".equals(name) ? tool : null;
			}

		};
	}

	private static void hang() {
		try {
			Thread.sleep(Long.MAX_VALUE);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}

	private static McpSyncResourceRepository resources() {
		Resource note = Resource.builder(NOTE, "note").mimeType("text/plain").build();
		ResourceTemplate template = ResourceTemplate.builder(TEMPLATE, "notes").mimeType("text/plain").build();
		McpSyncResourceTemplate completing = McpSyncResourceTemplate.of(template)
			.withCompletionHandler((context, request) -> complete(request));
		return new McpSyncResourceRepository() {

			@Override
			public ResourcesPage list(McpRequestContext context, @Nullable String cursor) {
				return ResourcesPage.of(List.of(note));
			}

			@Override
			public ResourceTemplatesPage listTemplates(McpRequestContext context, @Nullable String cursor) {
				return ResourceTemplatesPage.of(List.of(template));
			}

			@Override
			public @Nullable McpSyncResource find(McpRequestContext context, String uri) {
				if (NOTE.equals(uri)) {
					return read(uri, "note v" + version.get() + " of pid " + ProcessHandle.current().pid());
				}
				if (uri.startsWith("memo://notes/")) {
					return read(uri, "note named " + uri.substring("memo://notes/".length()));
				}
				return null;
			}

			@Override
			public @Nullable McpSyncResourceTemplate findTemplate(McpRequestContext context, String uriTemplate) {
				return TEMPLATE.equals(uriTemplate) ? completing : null;
			}

			@Override
			public boolean supportsSubscribe() {
				return true;
			}

			@Override
			public boolean supportsCompletion() {
				return true;
			}

		};
	}

	private static McpSyncPromptRepository prompts() {
		Prompt definition = Prompt.builder("greet")
			.arguments(List.of(PromptArgument.builder("name").required(true).build()))
			.build();
		McpSyncPrompt greet = McpSyncPrompt.of(definition, (context, request) -> {
			String name = (request.arguments() != null) ? request.arguments().get("name") : null;
			return McpSyncResponse.result(GetPromptResult
				.builder(List
					.of(PromptMessage.builder(Role.USER, TextContent.builder("Greet " + name + ".").build()).build()))
				.build());
		}).withCompletionHandler((context, request) -> complete(request));
		return new McpSyncPromptRepository() {

			@Override
			public PromptsPage list(McpRequestContext context, @Nullable String cursor) {
				return PromptsPage.of(List.of(definition));
			}

			@Override
			public @Nullable McpSyncPrompt find(McpRequestContext context, String name) {
				return "greet".equals(name) ? greet : null;
			}

			@Override
			public boolean supportsCompletion() {
				return true;
			}

		};
	}

	private static McpSyncResource read(String uri, String text) {
		return McpSyncResource.of((context,
				request) -> McpSyncResponse.result(ReadResourceResult
					.builder(List.of(TextResourceContents.builder(uri, text).mimeType("text/plain").build()))
					.build()));
	}

	private static CompleteResult complete(CompleteRequest request) {
		String prefix = request.argument().value();
		List<String> values = NAMES.stream().filter((name) -> name.startsWith(prefix)).toList();
		return CompleteResult.of(new CompleteResult.Completion(values, values.size(), false));
	}

	private static McpSyncResponse<CallToolOutcome> text(String text) {
		return McpSyncResponse
			.result(CallToolResult.builder().content(List.of(TextContent.builder(text).build())).build());
	}

}
