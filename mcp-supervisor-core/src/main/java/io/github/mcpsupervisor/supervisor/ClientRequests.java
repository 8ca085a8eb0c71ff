package io.github.mcpsupervisor.supervisor;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import io.github.mcpsupervisor.supervisor.McpConnector.McpServerRequests;
import io.modelcontextprotocol.client.McpAsyncClient;
import io.modelcontextprotocol.spec.McpSchema.CompleteRequest;
import io.modelcontextprotocol.spec.McpSchema.CompleteResult;
import io.modelcontextprotocol.spec.McpSchema.GetPromptRequest;
import io.modelcontextprotocol.spec.McpSchema.GetPromptResult;
import io.modelcontextprotocol.spec.McpSchema.ListPromptsResult;
import io.modelcontextprotocol.spec.McpSchema.ListResourceTemplatesResult;
import io.modelcontextprotocol.spec.McpSchema.ListResourcesResult;
import io.modelcontextprotocol.spec.McpSchema.ReadResourceRequest;
import io.modelcontextprotocol.spec.McpSchema.ReadResourceResult;
import io.modelcontextprotocol.spec.McpSchema.Root;
import io.modelcontextprotocol.spec.McpSchema.ServerCapabilities;
import io.modelcontextprotocol.spec.McpSchema.SubscribeRequest;
import io.modelcontextprotocol.spec.McpSchema.UnsubscribeRequest;
import org.jspecify.annotations.Nullable;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * The requests of a 2025-11-25 generation, sent as they are on its SDK client.
 */
final class ClientRequests implements McpServerRequests {

	private final McpAsyncClient client;

	ClientRequests(McpAsyncClient client) {
		this.client = client;
	}

	@Override
	public @Nullable ServerCapabilities serverCapabilities() {
		return this.client.getServerCapabilities();
	}

	@Override
	public Mono<ListResourcesResult> listResources(@Nullable String cursor) {
		return this.client.listResources(cursor);
	}

	@Override
	public Mono<ListResourceTemplatesResult> listResourceTemplates(@Nullable String cursor) {
		return this.client.listResourceTemplates(cursor);
	}

	@Override
	public Mono<ReadResourceResult> readResource(String uri) {
		return this.client.readResource(ReadResourceRequest.builder(uri).build());
	}

	@Override
	public Mono<ListPromptsResult> listPrompts(@Nullable String cursor) {
		return this.client.listPrompts(cursor);
	}

	@Override
	public Mono<GetPromptResult> getPrompt(String name, Map<String, Object> arguments) {
		return this.client.getPrompt(GetPromptRequest.builder(name).arguments(arguments).build());
	}

	@Override
	public Mono<CompleteResult> complete(CompleteRequest request) {
		return this.client.completeCompletion(request);
	}

	@Override
	public Mono<Void> subscribe(String uri) {
		return this.client.subscribeResource(SubscribeRequest.builder(uri).build());
	}

	@Override
	public Mono<Void> unsubscribe(String uri) {
		return this.client.unsubscribeResource(UnsubscribeRequest.builder(uri).build());
	}

	// Each change is announced by the SDK with its own list_changed notification; a
	// generation that started with the new roots already has them.
	@Override
	@SuppressWarnings("deprecation") // roots are part of 2025-11-25; 2026-07-28
										// deprecates
										// them
	public Mono<Boolean> changeRoots(List<Root> previous, List<Root> roots) {
		if (this.client.getClientCapabilities().roots() == null) {
			return Mono.just(false);
		}
		List<Mono<Void>> changes = new ArrayList<>();
		previous.stream()
			.filter((root) -> !roots.contains(root))
			.forEach((root) -> changes.add(this.client.removeRoot(root.uri())
				.onErrorResume(IllegalStateException.class, (ex) -> Mono.empty())));
		roots.stream()
			.filter((root) -> !previous.contains(root))
			.forEach((root) -> changes
				.add(this.client.addRoot(root).onErrorResume(IllegalStateException.class, (ex) -> Mono.empty())));
		// removals first: a renamed root is removed, then added
		return Flux.concat(changes).then(Mono.just(true));
	}

}
