package io.github.mcpsupervisor.event.internal;

import java.util.List;

import io.github.mcpsupervisor.event.McpPromptsChangedEvent;
import io.github.mcpsupervisor.event.McpResourcesChangedEvent;
import io.github.mcpsupervisor.event.McpResourcesUpdatedEvent;
import io.github.mcpsupervisor.event.McpServerStateChangedEvent;
import io.github.mcpsupervisor.supervisor.McpServerStateChange;
import io.github.mcpsupervisor.supervisor.SupervisorListener;
import io.github.mcpsupervisor.supervisor.ToolSet;
import io.modelcontextprotocol.spec.McpSchema.Prompt;
import io.modelcontextprotocol.spec.McpSchema.Resource;
import io.modelcontextprotocol.spec.McpSchema.ResourceContents;

import org.springframework.ai.mcp.McpToolsChangedEvent;
import org.springframework.context.ApplicationEventPublisher;

/**
 * Publishes what the supervisors do as application events: a
 * {@link McpServerStateChangedEvent} for every transition, Spring AI's
 * {@link McpToolsChangedEvent} on every tool swap (so that Spring AI's own caches of MCP
 * tools are invalidated too), and the servers' announcements of their resources and
 * prompts ({@link McpResourcesChangedEvent}, {@link McpPromptsChangedEvent},
 * {@link McpResourcesUpdatedEvent}). Events of one server arrive in order.
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

	@Override
	public void resourcesChanged(String server, List<Resource> resources) {
		this.publisher.publishEvent(new McpResourcesChangedEvent(server, resources));
	}

	@Override
	public void promptsChanged(String server, List<Prompt> prompts) {
		this.publisher.publishEvent(new McpPromptsChangedEvent(server, prompts));
	}

	@Override
	public void resourceUpdated(String server, String uri, List<ResourceContents> contents) {
		this.publisher.publishEvent(new McpResourcesUpdatedEvent(server, contents));
	}

}
