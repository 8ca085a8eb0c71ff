package io.github.mcpsupervisor.event;

import java.util.List;

import io.modelcontextprotocol.spec.McpSchema.Resource;

import org.springframework.context.ApplicationEvent;

/**
 * A server announced that its list of resources changed: the whole new list.
 *
 * @since 0.1.0
 */
public class McpResourcesChangedEvent extends ApplicationEvent {

	private static final long serialVersionUID = 1L;

	private final String server;

	private final transient List<Resource> resources;

	/**
	 * Creates the event.
	 * @param server the server's name
	 * @param resources the resources the server now lists
	 */
	public McpResourcesChangedEvent(String server, List<Resource> resources) {
		super(server);
		this.server = server;
		this.resources = List.copyOf(resources);
	}

	public String getServer() {
		return this.server;
	}

	public List<Resource> getResources() {
		return this.resources;
	}

}
