package io.github.mcpsupervisor.sample;

import java.util.List;

import io.github.mcpsupervisor.client.McpServerClient;
import io.modelcontextprotocol.spec.McpSchema.ResourceContents;
import org.jspecify.annotations.Nullable;

import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/**
 * Lets anyone subscribe to a supervised server's resources and see their latest updates:
 * the subscriptions outlive restarts of the server.
 */
@RestController
@RequestMapping("/servers/{server}/subscriptions")
class SubscriptionsController {

	private final ServerRequests requests;

	private final ResourceUpdates updates;

	SubscriptionsController(ServerRequests requests, ResourceUpdates updates) {
		this.requests = requests;
		this.updates = updates;
	}

	@GetMapping
	ResponseEntity<?> list(@PathVariable String server) {
		return this.requests.send(server, this::subscriptions);
	}

	@PostMapping
	ResponseEntity<?> subscribe(@PathVariable String server, @RequestParam(required = false) @Nullable String uri) {
		return this.requests.send(server, (client) -> {
			if (uri == null || uri.isBlank()) {
				return ServerRequests.missingUri(server);
			}
			client.subscribe(uri);
			return subscriptions(client);
		});
	}

	@DeleteMapping
	ResponseEntity<?> unsubscribe(@PathVariable String server, @RequestParam(required = false) @Nullable String uri) {
		return this.requests.send(server, (client) -> {
			if (uri == null || uri.isBlank()) {
				return ServerRequests.missingUri(server);
			}
			client.unsubscribe(uri);
			return subscriptions(client);
		});
	}

	private Subscriptions subscriptions(McpServerClient client) {
		List<String> uris = client.subscriptions().stream().sorted().toList();
		return new Subscriptions(uris, this.updates.latest(client.name(), uris));
	}

	/**
	 * The resources subscribed to and their latest updates.
	 *
	 * @param subscriptions the URIs of the resources subscribed to
	 * @param updates the latest contents received of those that were updated
	 */
	record Subscriptions(List<String> subscriptions, List<ResourceContents> updates) {
	}

}
