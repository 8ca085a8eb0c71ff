package io.github.mcpsupervisor.sample;

import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;

import io.github.mcpsupervisor.event.McpResourcesUpdatedEvent;
import io.modelcontextprotocol.spec.McpSchema.ResourceContents;

import org.springframework.context.event.EventListener;
import org.springframework.stereotype.Component;

/**
 * Keeps the latest contents of every resource a supervised server said was updated, so
 * that {@code GET /servers/{server}/subscriptions} can show them.
 */
@Component
class ResourceUpdates {

	private final Map<String, Map<String, ResourceContents>> latest = new ConcurrentHashMap<>();

	@EventListener
	void updated(McpResourcesUpdatedEvent event) {
		Map<String, ResourceContents> server = this.latest.computeIfAbsent(event.getServer(),
				(name) -> new ConcurrentHashMap<>());
		event.getContents().forEach((contents) -> server.put(contents.uri(), contents));
	}

	/**
	 * Returns the latest contents of resources of a server.
	 * @param server the server's name
	 * @param uris the resources' URIs
	 * @return the contents of those that were updated, in the order of the URIs
	 */
	List<ResourceContents> latest(String server, Collection<String> uris) {
		Map<String, ResourceContents> contents = this.latest.getOrDefault(server, Map.of());
		return uris.stream().map(contents::get).filter(Objects::nonNull).toList();
	}

}
