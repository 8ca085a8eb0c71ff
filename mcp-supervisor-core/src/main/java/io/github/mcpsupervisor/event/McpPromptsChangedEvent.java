package io.github.mcpsupervisor.event;

import java.util.List;

import io.modelcontextprotocol.spec.McpSchema.Prompt;

import org.springframework.context.ApplicationEvent;

/**
 * A server announced that its list of prompts changed: the whole new list.
 *
 * @since 0.1.0
 */
public class McpPromptsChangedEvent extends ApplicationEvent {

	private static final long serialVersionUID = 1L;

	private final String server;

	private final transient List<Prompt> prompts;

	/**
	 * Creates the event.
	 * @param server the server's name
	 * @param prompts the prompts the server now lists
	 */
	public McpPromptsChangedEvent(String server, List<Prompt> prompts) {
		super(server);
		this.server = server;
		this.prompts = List.copyOf(prompts);
	}

	public String getServer() {
		return this.server;
	}

	public List<Prompt> getPrompts() {
		return this.prompts;
	}

}
