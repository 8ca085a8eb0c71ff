package io.github.mcpsupervisor.transport.internal.modern;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import io.github.mcpsupervisor.supervisor.McpConnector.McpServerRequests;
import io.modelcontextprotocol.modern.McpSchema.CompleteReference;
import io.modelcontextprotocol.modern.McpSchema.PromptReference;
import io.modelcontextprotocol.modern.McpSchema.ResourceReference;
import io.modelcontextprotocol.modern.client.McpAsyncClient;
import io.modelcontextprotocol.spec.McpError;
import io.modelcontextprotocol.spec.McpSchema;
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
 * The requests of a 2026-07-28 generation: sent on the SDK's modern client, their answers
 * translated to the 2025-11-25 types through their JSON form; resource subscriptions are
 * the filter of the generation's {@code subscriptions/listen} stream.
 */
final class ModernRequests implements McpServerRequests {

	private final String server;

	private final McpAsyncClient client;

	private final ModernSchema schema;

	private final @Nullable ServerCapabilities capabilities;

	private final Listening listening;

	private final InputAnswers answers;

	ModernRequests(String server, McpAsyncClient client, ModernSchema schema, @Nullable ServerCapabilities capabilities,
			Listening listening, InputAnswers answers) {
		this.server = server;
		this.client = client;
		this.schema = schema;
		this.capabilities = capabilities;
		this.listening = listening;
		this.answers = answers;
	}

	@Override
	public @Nullable ServerCapabilities serverCapabilities() {
		return this.capabilities;
	}

	@Override
	public Mono<ListResourcesResult> listResources(@Nullable String cursor) {
		var request = this.client.resources();
		return ((cursor != null) ? request.cursor(cursor) : request).list()
			.map((page) -> this.schema.convert(page, ListResourcesResult.class));
	}

	@Override
	public Mono<ListResourceTemplatesResult> listResourceTemplates(@Nullable String cursor) {
		var request = this.client.resourceTemplates();
		return ((cursor != null) ? request.cursor(cursor) : request).list()
			.map((page) -> this.schema.convert(page, ListResourceTemplatesResult.class));
	}

	@Override
	public Mono<ReadResourceResult> readResource(String uri) {
		return InputRounds.complete(this.server, "resources/read", this.answers, (round) -> {
			var read = this.client.resource(uri);
			if (!round.responses().isEmpty()) {
				read = read.inputResponses(round.responses());
			}
			return ((round.state() != null) ? read.requestState(round.state()) : read).readOnce();
		}, io.modelcontextprotocol.modern.McpSchema.ReadResourceResult.class)
			.map((result) -> this.schema.convert(result, ReadResourceResult.class));
	}

	@Override
	public Mono<ListPromptsResult> listPrompts(@Nullable String cursor) {
		var request = this.client.prompts();
		return ((cursor != null) ? request.cursor(cursor) : request).list()
			.map((page) -> this.schema.convert(page, ListPromptsResult.class));
	}

	// Prompt arguments are strings in both revisions; the 2025-11-25 client's map takes
	// any value.
	@Override
	public Mono<GetPromptResult> getPrompt(String name, Map<String, Object> arguments) {
		Map<String, String> strings = new LinkedHashMap<>();
		arguments.forEach((key, value) -> strings.put(key, (value != null) ? String.valueOf(value) : null));
		return InputRounds.complete(this.server, "prompts/get", this.answers, (round) -> {
			var prompt = this.client.prompt(name).arguments(strings);
			if (!round.responses().isEmpty()) {
				prompt = prompt.inputResponses(round.responses());
			}
			return ((round.state() != null) ? prompt.requestState(round.state()) : prompt).getOnce();
		}, io.modelcontextprotocol.modern.McpSchema.GetPromptResult.class)
			.map((result) -> this.schema.convert(result, GetPromptResult.class));
	}

	@Override
	public Mono<CompleteResult> complete(CompleteRequest request) {
		CompleteReference reference;
		if (request.ref() instanceof McpSchema.PromptReference prompt) {
			reference = new PromptReference(PromptReference.TYPE, prompt.name(), prompt.title());
		}
		else if (request.ref() instanceof McpSchema.ResourceReference resource) {
			reference = new ResourceReference(resource.uri());
		}
		else {
			return Mono.error(new IllegalArgumentException("Unknown completion reference " + request.ref()));
		}
		var completion = this.client.completion(reference, request.argument().name(), request.argument().value());
		if (request.context() != null && request.context().arguments() != null) {
			completion = completion.context(request.context().arguments());
		}
		if (request.meta() != null) {
			completion = completion.meta(request.meta());
		}
		return completion.complete().map((result) -> this.schema.convert(result, CompleteResult.class));
	}

	// The session has the resource by now: the stream is opened again with it, and the
	// server's acknowledgement says whether it took it.
	@Override
	public Mono<Void> subscribe(String uri) {
		return this.listening.reopen().flatMap((honoured) -> {
			if (honoured.resourceSubscriptionsOrEmpty().contains(uri)) {
				return Mono.empty();
			}
			return Mono.error(
					new McpError(
							new McpSchema.JSONRPCResponse.JSONRPCError(McpSchema.ErrorCodes.INVALID_PARAMS,
									"MCP server '" + this.server
											+ "' did not acknowledge the subscription to resource '" + uri + "'",
									null)));
		});
	}

	@Override
	public Mono<Void> unsubscribe(String uri) {
		return this.listening.reopen().then();
	}

	// The revision has no notification of changed roots: a server asks for them (an
	// input request) when it needs them, and is answered with the roots of the moment.
	@Override
	public Mono<Boolean> changeRoots(List<Root> previous, List<Root> roots) {
		return Mono.just(true);
	}

}
