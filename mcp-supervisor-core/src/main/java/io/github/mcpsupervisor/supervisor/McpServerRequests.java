package io.github.mcpsupervisor.supervisor;

import java.util.List;
import java.util.Map;

import io.modelcontextprotocol.client.McpAsyncClient;
import io.modelcontextprotocol.spec.McpSchema.CompleteRequest;
import io.modelcontextprotocol.spec.McpSchema.CompleteResult;
import io.modelcontextprotocol.spec.McpSchema.GetPromptResult;
import io.modelcontextprotocol.spec.McpSchema.ListPromptsResult;
import io.modelcontextprotocol.spec.McpSchema.ListResourceTemplatesResult;
import io.modelcontextprotocol.spec.McpSchema.ListResourcesResult;
import io.modelcontextprotocol.spec.McpSchema.ReadResourceResult;
import io.modelcontextprotocol.spec.McpSchema.Root;
import io.modelcontextprotocol.spec.McpSchema.ServerCapabilities;
import org.jspecify.annotations.Nullable;
import reactor.core.publisher.Mono;

/**
 * The requests other than tool calls that one generation sends to its server, in the
 * types of revision 2025-11-25 whichever revision the generation speaks: a 2026-07-28
 * generation sends them on the SDK's modern client and translates the answers.
 *
 * @since 0.1.0
 */
public interface McpServerRequests {

	/**
	 * Returns the capabilities the server declared (at initialize, or in its answer to
	 * {@code server/discover}).
	 * @return the capabilities, or {@code null} when not known
	 */
	@Nullable ServerCapabilities serverCapabilities();

	/**
	 * Lists one page of the server's resources.
	 * @param cursor the page's cursor, {@code null} for the first
	 * @return the page
	 */
	Mono<ListResourcesResult> listResources(@Nullable String cursor);

	/**
	 * Lists one page of the server's resource templates.
	 * @param cursor the page's cursor, {@code null} for the first
	 * @return the page
	 */
	Mono<ListResourceTemplatesResult> listResourceTemplates(@Nullable String cursor);

	/**
	 * Reads a resource.
	 * @param uri its URI
	 * @return its contents
	 */
	Mono<ReadResourceResult> readResource(String uri);

	/**
	 * Lists one page of the server's prompts.
	 * @param cursor the page's cursor, {@code null} for the first
	 * @return the page
	 */
	Mono<ListPromptsResult> listPrompts(@Nullable String cursor);

	/**
	 * Gets a prompt.
	 * @param name its name
	 * @param arguments its arguments
	 * @return its messages
	 */
	Mono<GetPromptResult> getPrompt(String name, Map<String, Object> arguments);

	/**
	 * Completes an argument of a prompt or a resource template.
	 * @param request the completion request
	 * @return the completions
	 */
	Mono<CompleteResult> complete(CompleteRequest request);

	/**
	 * Subscribes to a resource's updates on this generation. A 2026-07-28 generation
	 * listens again for the subscriptions of the server's client session, which already
	 * has the resource.
	 * @param uri the resource's URI
	 * @return completes once the server has taken the subscription
	 */
	Mono<Void> subscribe(String uri);

	/**
	 * Ends a subscription on this generation.
	 * @param uri the resource's URI
	 * @return completes once the server has been told
	 */
	Mono<Void> unsubscribe(String uri);

	/**
	 * Tells the generation's server that the roots changed.
	 * @param previous the roots it was offered
	 * @param roots the roots it is offered now
	 * @return whether it was told: {@code false} when the generation started without
	 * roots (the next one is offered them); {@code true} for a revision that asks for
	 * roots when it needs them
	 */
	Mono<Boolean> changeRoots(List<Root> previous, List<Root> roots);

	/**
	 * Returns the requests of a 2025-11-25 generation, sent on its SDK client.
	 * @param client the generation's initialized client
	 * @return the requests
	 */
	static McpServerRequests of(McpAsyncClient client) {
		return new ClientRequests(client);
	}

}
