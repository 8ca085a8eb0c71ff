package io.github.mcpsupervisor.tool;

import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.NoSuchElementException;

import io.github.mcpsupervisor.authorization.McpUserAuthorizationException;
import io.github.mcpsupervisor.authorization.McpUserResolver;
import io.github.mcpsupervisor.internal.Caller;
import io.github.mcpsupervisor.internal.ServerText;
import io.github.mcpsupervisor.supervisor.McpServerState;
import io.github.mcpsupervisor.supervisor.McpServerSupervisor;
import io.github.mcpsupervisor.supervisor.McpServerUnavailableException;
import io.github.mcpsupervisor.supervisor.McpSupervisors;
import io.github.mcpsupervisor.supervisor.ToolSet;
import io.github.mcpsupervisor.tool.ToolCallObserver.Outcome;
import io.modelcontextprotocol.spec.McpError;
import io.modelcontextprotocol.spec.McpSchema.CallToolRequest;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import io.modelcontextprotocol.spec.McpSchema.Tool;
import org.jspecify.annotations.Nullable;

import org.springframework.ai.chat.model.ToolContext;
import org.springframework.ai.mcp.McpToolUtils;
import org.springframework.ai.mcp.ToolContextToMcpMetaConverter;
import org.springframework.ai.tool.ToolCallback;
import org.springframework.ai.tool.definition.ToolDefinition;
import org.springframework.ai.tool.execution.ToolExecutionException;
import org.springframework.ai.util.JsonHelper;
import org.springframework.util.StringUtils;

/**
 * A tool of a supervised server. It holds no client: every call is routed by the tool's
 * name to the server's live generation, so a callback captured before a reconnect keeps
 * working after it, and never reaches a closed client. It holds no server either: a call
 * goes to the server that has the name now, so a callback captured before the server was
 * replaced calls the server that replaced it, and one captured before the server was
 * removed fails saying so (and is not counted for the removed server).
 *
 * <p>
 * A tool of a server that keeps its tools while down is described, while the server is
 * down, by a notice that says so; whenever a call finds such a server down (at once when
 * it is failed, disconnected or waits for an authorization, after the call policy's wait
 * for recovery when it is reconnecting), the call returns the notice of its current state
 * as its result instead of failing, and is observed as {@link Outcome#UNAVAILABLE}.
 *
 * @since 0.1.0
 */
public final class SupervisedToolCallback implements ToolCallback {

	/**
	 * The most bytes (UTF-8) of a result, or of an error, handed to the model; beyond it
	 * the text is cut and ends with a marker that says so. 1 MB is about 250,000 tokens,
	 * more than most models' whole context, yet short enough that one result cannot
	 * exhaust the application's memory or a request's cost.
	 */
	public static final int MAX_RESULT_BYTES = ServerText.MAX_MODEL_BYTES;

	private static final String RESULT = "result";

	private static final String ERROR_MESSAGE = "error message";

	private static final JsonHelper jsonHelper = new JsonHelper();

	private final McpSupervisors servers;

	private final String serverName;

	private final Tool tool;

	private final ToolDefinition definition;

	private final ToolCallObserver observer;

	private final ToolContextToMcpMetaConverter metaConverter;

	private final McpUserResolver users;

	SupervisedToolCallback(McpSupervisors servers, String serverName, Tool tool, String exposedName,
			ToolCallObserver observer, ToolContextToMcpMetaConverter metaConverter, McpUserResolver users,
			ToolSet.@Nullable Unavailability unavailable) {
		this.servers = servers;
		this.serverName = serverName;
		this.tool = tool;
		ToolDefinition listed = McpToolUtils.createToolDefinition(exposedName, tool);
		// the name and schema stay those the model knows: only the description changes
		this.definition = (unavailable != null) ? ToolDefinition.builder()
			.name(listed.name())
			.description(unavailable.description())
			.inputSchema(listed.inputSchema())
			.build() : listed;
		this.observer = observer;
		this.metaConverter = metaConverter;
		this.users = users;
	}

	@Override
	public ToolDefinition getToolDefinition() {
		return this.definition;
	}

	/**
	 * Returns the name of the server this tool belongs to.
	 * @return the server's name
	 */
	public String getServerName() {
		return this.serverName;
	}

	/**
	 * Returns the tool's name on its server.
	 * @return the original name
	 */
	public String getOriginalToolName() {
		return this.tool.name();
	}

	@Override
	public String call(String toolInput) {
		return call(toolInput, null);
	}

	@Override
	public String call(String toolInput, @Nullable ToolContext toolContext) {
		McpServerSupervisor supervisor = current();
		if (supervisor == null) {
			// nothing is recorded for a server that is gone: its meters went with it
			throw new ToolExecutionException(this.definition,
					new McpServerUnavailableException(this.serverName, McpServerState.STOPPED, "MCP server '"
							+ this.serverName + "' was removed: tool '" + this.tool.name() + "' is unavailable", null,
							false));
		}
		long started = System.nanoTime();
		Outcome outcome = Outcome.FAILURE;
		try {
			Caller caller = Caller.of(this.users.resolve(toolContext));
			CallToolResult result = caller.call(() -> callServer(supervisor, toolInput, toolContext));
			if (Boolean.TRUE.equals(result.isError())) {
				outcome = Outcome.ERROR;
				throw new ToolExecutionException(this.definition, new IllegalStateException(
						ServerText.forModel("Error calling tool: " + result.content(), RESULT)));
			}
			outcome = Outcome.SUCCESS;
			return ServerText.forModel(jsonHelper.toJson(result.content()), RESULT);
		}
		catch (McpError ex) {
			outcome = Outcome.ERROR;
			// The server answered with a JSON-RPC error: a tool failure the model can
			// see.
			throw new ToolExecutionException(this.definition,
					new IllegalStateException("MCP server '" + this.serverName + "' rejected the call: "
							+ ServerText.forModel(String.valueOf(ex.getMessage()), ERROR_MESSAGE), ex));
		}
		catch (McpUserAuthorizationException ex) {
			// the user's own: the model tells the user what to do
			outcome = Outcome.UNAUTHORIZED;
			return ServerText.forModel(ex.forModel(), ERROR_MESSAGE);
		}
		catch (McpServerUnavailableException ex) {
			outcome = Outcome.UNAVAILABLE;
			ToolSet.Unavailability down = supervisor.tools().unavailable();
			if (!ex.wasSent() && down != null) {
				return down.callResult();
			}
			throw new ToolExecutionException(this.definition, ex);
		}
		catch (ToolExecutionException ex) {
			throw ex;
		}
		catch (RuntimeException ex) {
			throw new ToolExecutionException(this.definition, bounded(ex));
		}
		finally {
			if (this.observer != ToolCallObserver.NONE) {
				this.observer.called(this.serverName, this.tool.name(), this.definition.name(), outcome,
						Duration.ofNanos(System.nanoTime() - started));
			}
		}
	}

	// A failure whose message would reach the model beyond the limit is wrapped in one
	// with the message cut: the model reads the message of the cause.
	private static RuntimeException bounded(RuntimeException ex) {
		String message = ex.getMessage();
		if (message == null) {
			return ex;
		}
		String cut = ServerText.forModel(message, ERROR_MESSAGE);
		return (cut.equals(message)) ? ex : new IllegalStateException(cut, ex);
	}

	// The server that has the name now, or null once it was removed.
	private @Nullable McpServerSupervisor current() {
		try {
			return this.servers.supervisor(this.serverName);
		}
		catch (NoSuchElementException ex) {
			return null;
		}
	}

	private CallToolResult callServer(McpServerSupervisor supervisor, String toolInput,
			@Nullable ToolContext toolContext) {
		Map<String, Object> arguments = StringUtils.hasText(toolInput) ? jsonHelper.fromJsonToMap(toolInput) : Map.of();
		Map<String, Object> meta = (toolContext != null) ? this.metaConverter.convert(withoutUser(toolContext)) : null;
		return supervisor.callTool(CallToolRequest.builder(this.tool.name()).arguments(arguments).meta(meta).build());
	}

	// The user a call acts for is the application's to know: never sent in _meta.
	private static ToolContext withoutUser(ToolContext toolContext) {
		if (!toolContext.getContext().containsKey(McpUserResolver.TOOL_CONTEXT_KEY)) {
			return toolContext;
		}
		Map<String, Object> context = new HashMap<>(toolContext.getContext());
		context.remove(McpUserResolver.TOOL_CONTEXT_KEY);
		return new ToolContext(context);
	}

	@Override
	public String toString() {
		return "SupervisedToolCallback[" + this.definition.name() + " -> " + this.serverName + "/" + this.tool.name()
				+ "]";
	}

}
