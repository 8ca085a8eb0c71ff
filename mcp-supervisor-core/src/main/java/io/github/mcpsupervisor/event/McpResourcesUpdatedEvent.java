package io.github.mcpsupervisor.event;

import java.util.List;

import io.modelcontextprotocol.spec.McpSchema.ResourceContents;

import org.springframework.context.ApplicationEvent;

/**
 * A resource subscribed to through {@code McpServerClient#subscribe} was updated: its new
 * contents, as the SDK read them on {@code notifications/resources/updated}.
 *
 * @since 0.1.0
 */
public class McpResourcesUpdatedEvent extends ApplicationEvent {

	private static final long serialVersionUID = 1L;

	private final String server;

	private final transient List<ResourceContents> contents;

	/**
	 * Creates the event.
	 * @param server the server's name
	 * @param contents the resource's new contents
	 */
	public McpResourcesUpdatedEvent(String server, List<ResourceContents> contents) {
		super(server);
		this.server = server;
		this.contents = List.copyOf(contents);
	}

	public String getServer() {
		return this.server;
	}

	public List<ResourceContents> getContents() {
		return this.contents;
	}

}
