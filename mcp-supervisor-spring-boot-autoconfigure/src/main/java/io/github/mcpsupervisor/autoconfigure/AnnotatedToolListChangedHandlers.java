package io.github.mcpsupervisor.autoconfigure;

import io.github.mcpsupervisor.supervisor.SupervisorListener;
import io.github.mcpsupervisor.supervisor.ToolSet;
import org.jspecify.annotations.Nullable;

import org.springframework.ai.mcp.annotation.spring.ClientMcpAsyncHandlersRegistry;
import org.springframework.ai.mcp.annotation.spring.ClientMcpSyncHandlersRegistry;

/**
 * Calls the {@code @McpToolListChanged} handlers of a server whenever its tool set is
 * swapped. The SDK's own tool change handling is bypassed (the supervisor lists the tools
 * itself, coalesced), so the handlers are called here, with the new tools.
 */
final class AnnotatedToolListChangedHandlers implements SupervisorListener {

	private final @Nullable ClientMcpSyncHandlersRegistry syncHandlers;

	private final @Nullable ClientMcpAsyncHandlersRegistry asyncHandlers;

	AnnotatedToolListChangedHandlers(@Nullable ClientMcpSyncHandlersRegistry syncHandlers,
			@Nullable ClientMcpAsyncHandlersRegistry asyncHandlers) {
		this.syncHandlers = syncHandlers;
		this.asyncHandlers = asyncHandlers;
	}

	@Override
	public void toolsChanged(String server, ToolSet tools) {
		if (tools.generation() == 0 || tools.unavailable() != null) {
			// withdrawn at a stop or loss, or marked unavailable: not changed by the
			// server
			return;
		}
		if (this.syncHandlers != null) {
			this.syncHandlers.handleToolListChanged(server, tools.tools());
		}
		if (this.asyncHandlers != null) {
			this.asyncHandlers.handleToolListChanged(server, tools.tools()).subscribe();
		}
	}

}
