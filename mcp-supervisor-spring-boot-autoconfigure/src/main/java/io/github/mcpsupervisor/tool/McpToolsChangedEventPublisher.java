package io.github.mcpsupervisor.tool;

import org.springframework.ai.mcp.McpToolsChangedEvent;
import org.springframework.context.ApplicationEventPublisher;

import io.github.mcpsupervisor.supervisor.SupervisorListener;
import io.github.mcpsupervisor.supervisor.ToolSet;

/**
 * Publishes Spring AI's {@link McpToolsChangedEvent} on every tool swap of a server, so
 * that Spring AI's own caches of MCP tools are invalidated too.
 */
public final class McpToolsChangedEventPublisher implements SupervisorListener {

	private final ApplicationEventPublisher publisher;

	public McpToolsChangedEventPublisher(ApplicationEventPublisher publisher) {
		this.publisher = publisher;
	}

	@Override
	public void toolsChanged(String server, ToolSet tools) {
		this.publisher.publishEvent(new McpToolsChangedEvent(server, tools.tools()));
	}

}
