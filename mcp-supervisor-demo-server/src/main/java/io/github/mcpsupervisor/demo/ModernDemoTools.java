package io.github.mcpsupervisor.demo;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.modern.McpSchema.CallToolOutcome;
import io.modelcontextprotocol.modern.McpSchema.CallToolRequest;
import io.modelcontextprotocol.modern.McpSchema.CallToolResult;
import io.modelcontextprotocol.modern.McpSchema.ClientCapabilities;
import io.modelcontextprotocol.modern.McpSchema.ClientCapabilities.Elicitation;
import io.modelcontextprotocol.modern.McpSchema.ElicitFormRequest;
import io.modelcontextprotocol.modern.McpSchema.ElicitResult;
import io.modelcontextprotocol.modern.McpSchema.InputRequiredResult;
import io.modelcontextprotocol.modern.McpSchema.TextContent;
import io.modelcontextprotocol.modern.McpSchema.Tool;
import io.modelcontextprotocol.modern.McpSchema.ToolAnnotations;
import io.modelcontextprotocol.modern.server.InputResponses;
import io.modelcontextprotocol.modern.server.McpHeader;
import io.modelcontextprotocol.modern.server.McpHeaders;
import io.modelcontextprotocol.modern.server.McpRequestContext;
import io.modelcontextprotocol.modern.server.McpSyncResponse;
import io.modelcontextprotocol.modern.server.feature.McpChangeBroadcaster;
import io.modelcontextprotocol.modern.server.feature.McpSyncTool;
import io.modelcontextprotocol.modern.server.feature.McpSyncToolRepository;
import io.modelcontextprotocol.modern.server.feature.ServerChange;
import io.modelcontextprotocol.modern.server.feature.ToolsPage;
import org.jspecify.annotations.Nullable;

/**
 * The tools of the demo server in revision 2026-07-28: {@code echo}, {@code add},
 * {@code crash}, {@code slow}, {@code pid}, {@code list-requests}, {@code add-tool}
 * (announced to {@code subscriptions/listen} subscribers), {@code ask-name} (asks for a
 * name with a form elicitation, a multi-round-trip request) and {@code region-echo} (its
 * parameter is mirrored into the {@code Mcp-Param-Region} header over HTTP).
 */
final class ModernDemoTools implements McpSyncToolRepository {

	/** The key of the {@code ask-name} tool's input request. */
	static final String NAME_INPUT = "name";

	/** The request state that {@code ask-name} asks to be echoed back. */
	static final String ASK_NAME_STATE = "ask-name:round-1";

	private static final Map<String, Object> NO_ARGUMENTS = Map.of("type", "object", "properties", Map.of());

	private final Map<String, McpSyncTool> tools = new LinkedHashMap<>();

	private final AtomicLong listings = new AtomicLong();

	private final McpChangeBroadcaster changes;

	private final McpJsonMapper jsonMapper;

	private final ExitAfterReply exit;

	ModernDemoTools(McpChangeBroadcaster changes, McpJsonMapper jsonMapper, ExitAfterReply exit) {
		this.changes = changes;
		this.jsonMapper = jsonMapper;
		this.exit = exit;
		for (McpSyncTool tool : List.of(echo(), add(), crash(), slow(), pid(), listRequests(), addTool(), askName(),
				regionEcho())) {
			this.tools.put(tool.definition().name(), tool);
		}
	}

	@Override
	public ToolsPage list(McpRequestContext context, @Nullable String cursor) {
		this.listings.incrementAndGet();
		synchronized (this.tools) {
			List<Tool> definitions = new ArrayList<>();
			this.tools.values().forEach((tool) -> definitions.add(tool.definition()));
			return ToolsPage.of(definitions);
		}
	}

	@Override
	public @Nullable McpSyncTool find(McpRequestContext context, String name) {
		synchronized (this.tools) {
			return this.tools.get(name);
		}
	}

	private static McpSyncTool echo() {
		Tool tool = Tool.builder("echo", schema(Map.of("message", Map.of("type", "string")), List.of("message")))
			.description("Echoes the given message back")
			.annotations(ToolAnnotations.builder().readOnlyHint(true).build())
			.build();
		return McpSyncTool.of(tool, (context, request) -> text(String.valueOf(request.arguments().get("message"))));
	}

	private static McpSyncTool add() {
		Tool tool = Tool
			.builder("add",
					schema(Map.of("a", Map.of("type", "number"), "b", Map.of("type", "number")), List.of("a", "b")))
			.description("Adds two numbers")
			.annotations(ToolAnnotations.builder().readOnlyHint(true).build())
			.build();
		return McpSyncTool.of(tool, (context, request) -> {
			double sum = number(request, "a") + number(request, "b");
			return text((sum == Math.rint(sum)) ? String.valueOf((long) sum) : String.valueOf(sum));
		});
	}

	private McpSyncTool crash() {
		Tool tool = Tool.builder("crash", schema(Map.of("exitCode", Map.of("type", "integer")), List.of()))
			.description("Replies, then ends this server process with the given exit code (default 3)")
			.build();
		return McpSyncTool.of(tool, (context, request) -> {
			int exitCode = (request.arguments().get("exitCode") instanceof Number n) ? n.intValue() : 3;
			this.exit.exitAfterReply(context, exitCode);
			return text("crashing with exit code " + exitCode);
		});
	}

	private static McpSyncTool slow() {
		Tool tool = Tool.builder("slow", schema(Map.of("millis", Map.of("type", "integer")), List.of("millis")))
			.description("Waits the given number of milliseconds, then replies")
			.annotations(ToolAnnotations.builder().readOnlyHint(true).build())
			.build();
		return McpSyncTool.of(tool, (context, request) -> {
			long millis = (long) number(request, "millis");
			System.err.println(DemoMcpServer.CALL_STARTED + "slow");
			DemoMcpServer.pause(millis);
			return text("waited " + millis + " ms");
		});
	}

	private static McpSyncTool pid() {
		Tool tool = Tool.builder("pid", NO_ARGUMENTS)
			.description("Returns the process id of this server")
			.annotations(ToolAnnotations.builder().readOnlyHint(true).build())
			.build();
		return McpSyncTool.of(tool, (context, request) -> text(String.valueOf(ProcessHandle.current().pid())));
	}

	private McpSyncTool listRequests() {
		Tool tool = Tool.builder("list-requests", NO_ARGUMENTS)
			.description("Returns how many tools/list requests this server has received")
			.annotations(ToolAnnotations.builder().readOnlyHint(true).build())
			.build();
		return McpSyncTool.of(tool, (context, request) -> text(String.valueOf(this.listings.get())));
	}

	private McpSyncTool addTool() {
		Tool tool = Tool.builder("add-tool", schema(Map.of("name", Map.of("type", "string")), List.of("name")))
			.description("Registers a new tool with the given name that returns its name, "
					+ "and announces the change to the subscribers of tools list changes")
			.build();
		return McpSyncTool.of(tool, (context, request) -> {
			String name = String.valueOf(request.arguments().get("name"));
			Tool added = Tool.builder(name, NO_ARGUMENTS).description("Added at run time").build();
			synchronized (this.tools) {
				this.tools.put(name, McpSyncTool.of(added, (c, r) -> text(name)));
			}
			this.changes.broadcast(new ServerChange.ToolsListChanged());
			return text("added " + name);
		});
	}

	private McpSyncTool askName() {
		Tool tool = Tool.builder("ask-name", NO_ARGUMENTS)
			.description("Asks the user for a name with a form elicitation, then greets them")
			.annotations(ToolAnnotations.builder().readOnlyHint(true).build())
			.build();
		Map<String, Object> form = schema(Map.of("name", Map.of("type", "string", "description", "Your name")),
				List.of("name"));
		ClientCapabilities formElicitation = ClientCapabilities.builder()
			.elicitation(new Elicitation(new Elicitation.Form(), null))
			.build();
		return McpSyncTool.of(tool, formElicitation, (context, request) -> {
			Map<String, Object> responses = request.inputResponses();
			if (responses == null || !responses.containsKey(NAME_INPUT)) {
				return McpSyncResponse.result(InputRequiredResult.builder()
					.elicit(NAME_INPUT, ElicitFormRequest.builder("What is your name?", form).build())
					.requestState(ASK_NAME_STATE)
					.build());
			}
			ElicitResult answer = InputResponses.get(responses, NAME_INPUT, ElicitResult.class, this.jsonMapper);
			String state = request.requestState();
			if (answer.action() != ElicitResult.Action.ACCEPT || answer.content() == null) {
				return text("no name given (" + answer.action() + ", state " + state + ")");
			}
			return text("Hello, " + answer.content().get("name") + "! (state " + state + ")");
		});
	}

	private static McpSyncTool regionEcho() {
		Map<String, Object> region = Map.of("type", "string", "description", "A region, sent as a header as well",
				"x-mcp-header", "Region");
		Tool tool = Tool.builder("region-echo", schema(Map.of("region", region), List.of("region")))
			.description("Returns the region argument and the Mcp-Param-Region header the request carried")
			.annotations(ToolAnnotations.builder().readOnlyHint(true).build())
			.build();
		return McpSyncTool.of(tool, (context, request) -> {
			Object headers = context.transportContext().get(McpHeaders.TRANSPORT_CONTEXT_KEY);
			McpHeader header = (headers instanceof McpHeaders mcpHeaders) ? mcpHeaders.param("Region") : null;
			String mirrored = (header != null) ? header.value() : "none";
			return text("region " + request.arguments().get("region") + ", header " + mirrored);
		});
	}

	private static Map<String, Object> schema(Map<String, Object> properties, List<String> required) {
		return Map.of("type", "object", "properties", properties, "required", required);
	}

	private static McpSyncResponse<CallToolOutcome> text(String text) {
		return McpSyncResponse
			.result(CallToolResult.builder().addContent(TextContent.builder(text).build()).isError(false).build());
	}

	private static double number(CallToolRequest request, String name) {
		Object value = request.arguments().get(name);
		if (value instanceof Number n) {
			return n.doubleValue();
		}
		throw new IllegalArgumentException("argument '" + name + "' must be a number, was " + value);
	}

	/**
	 * How {@code crash} ends the process once its reply is out, which depends on the
	 * transport.
	 */
	@FunctionalInterface
	interface ExitAfterReply {

		void exitAfterReply(McpRequestContext context, int exitCode);

	}

}
