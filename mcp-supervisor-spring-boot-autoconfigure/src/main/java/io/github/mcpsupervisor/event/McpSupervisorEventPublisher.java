package io.github.mcpsupervisor.event;

import io.github.mcpsupervisor.supervisor.McpServerStateChange;
import io.github.mcpsupervisor.supervisor.SupervisorListener;
import io.github.mcpsupervisor.supervisor.ToolSet;

import org.springframework.ai.mcp.McpToolsChangedEvent;
import org.springframework.context.ApplicationEventPublisher;

/**
 * Publishes what the supervisors do as application events: a
 * {@link McpServerStateChangedEvent} for every transition, and Spring AI's
 * {@link McpToolsChangedEvent} on every tool swap (so that Spring AI's own caches of MCP
 * tools are invalidated too). Events of one server arrive in order.
 *
 * @since 0.1.0
 */
public final class McpSupervisorEventPublisher implements SupervisorListener {

	private final ApplicationEventPublisher publisher;

	public McpSupervisorEventPublisher(ApplicationEventPublisher publisher) {
		this.publisher = publisher;
	}

	@Override
	public void toolsChanged(String server, ToolSet tools) {
		this.publisher.publishEvent(new McpToolsChangedEvent(server, tools.tools()));
	}

	@Override
	public void stateChanged(McpServerStateChange change) {
		this.publisher.publishEvent(new McpServerStateChangedEvent(change));
	}

}
