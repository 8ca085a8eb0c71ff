package io.github.mcpsupervisor.autoconfigure;

import java.time.Duration;
import java.util.List;

import io.github.mcpsupervisor.client.ClientSpecs;
import io.github.mcpsupervisor.client.McpClientFactory;
import io.github.mcpsupervisor.client.McpClientSession;
import io.github.mcpsupervisor.event.McpPromptsChangedEvent;
import io.github.mcpsupervisor.event.McpResourcesChangedEvent;
import io.github.mcpsupervisor.event.McpResourcesUpdatedEvent;
import io.modelcontextprotocol.client.McpAsyncClient;
import io.modelcontextprotocol.client.McpClient;
import io.modelcontextprotocol.spec.McpClientTransport;
import io.modelcontextprotocol.spec.McpSchema.ClientCapabilities;
import org.jspecify.annotations.Nullable;
import reactor.core.publisher.Mono;

import org.springframework.ai.mcp.annotation.spring.ClientMcpAsyncHandlersRegistry;
import org.springframework.ai.mcp.annotation.spring.ClientMcpSyncHandlersRegistry;
import org.springframework.ai.mcp.customizer.McpClientCustomizer;
import org.springframework.context.ApplicationEventPublisher;

/**
 * Builds every generation's client the way Spring AI's MCP client auto-configuration
 * builds its clients, in the same order: the handlers of Spring AI's MCP client
 * annotations for the server's name (with the capabilities they imply), then every
 * {@link McpClientCustomizer} in order, with the server's name. The transport is the
 * generation's own and the timeouts are re-applied after the customizers: both belong to
 * the supervisor. Resource and prompt changes are published as application events.
 */
final class SpringAiMcpClientFactory implements McpClientFactory {

	private final McpClientType type;

	private final List<McpClientCustomizer<McpClient.SyncSpec>> syncCustomizers;

	private final List<McpClientCustomizer<McpClient.AsyncSpec>> asyncCustomizers;

	private final @Nullable ClientMcpSyncHandlersRegistry syncHandlers;

	private final @Nullable ClientMcpAsyncHandlersRegistry asyncHandlers;

	private final ApplicationEventPublisher publisher;

	SpringAiMcpClientFactory(McpClientType type, List<McpClientCustomizer<McpClient.SyncSpec>> syncCustomizers,
			List<McpClientCustomizer<McpClient.AsyncSpec>> asyncCustomizers,
			@Nullable ClientMcpSyncHandlersRegistry syncHandlers,
			@Nullable ClientMcpAsyncHandlersRegistry asyncHandlers, ApplicationEventPublisher publisher) {
		// a bean whose generic type cannot be resolved (a raw lambda) is in both lists:
		// it belongs to the configured type
		long asyncOnly = asyncCustomizers.stream().filter((async) -> !containsSame(syncCustomizers, async)).count();
		long syncOnly = syncCustomizers.stream().filter((sync) -> !containsSame(asyncCustomizers, sync)).count();
		if (type == McpClientType.SYNC && asyncOnly > 0) {
			throw new IllegalStateException(mismatch(asyncOnly, "AsyncSpec", type, "async"));
		}
		if (type == McpClientType.ASYNC && syncOnly > 0) {
			throw new IllegalStateException(mismatch(syncOnly, "SyncSpec", type, "sync"));
		}
		this.type = type;
		this.syncCustomizers = List.copyOf(syncCustomizers);
		this.asyncCustomizers = List.copyOf(asyncCustomizers);
		this.syncHandlers = syncHandlers;
		this.asyncHandlers = asyncHandlers;
		this.publisher = publisher;
	}

	private static boolean containsSame(List<?> list, Object element) {
		return list.stream().anyMatch((candidate) -> candidate == element);
	}

	private static String mismatch(long count, String spec, McpClientType type, String other) {
		return count + " McpClientCustomizer<McpClient." + spec + "> bean(s) cannot be applied: mcp.client-type is "
				+ type.name().toLowerCase() + ". Set mcp.client-type=" + other
				+ " (as spring.ai.mcp.client.type chooses for Spring AI's clients), or customize the other spec.";
	}

	@Override
	public McpAsyncClient create(McpClientSession session, McpClientTransport transport, Duration requestTimeout,
			Duration initializationTimeout) {
		return (this.type == McpClientType.SYNC) ? sync(session, transport, requestTimeout, initializationTimeout)
				: async(session, transport, requestTimeout, initializationTimeout);
	}

	private McpAsyncClient sync(McpClientSession session, McpClientTransport transport, Duration requestTimeout,
			Duration initializationTimeout) {
		String server = session.server();
		McpClient.SyncSpec spec = McpClient.sync(transport)
			.clientInfo(ClientSpecs.clientInfo(server))
			.roots(session.roots())
			.resourcesUpdateConsumer(
					(contents) -> this.publisher.publishEvent(new McpResourcesUpdatedEvent(server, contents)))
			.resourcesChangeConsumer(
					(resources) -> this.publisher.publishEvent(new McpResourcesChangedEvent(server, resources)))
			.promptsChangeConsumer(
					(prompts) -> this.publisher.publishEvent(new McpPromptsChangedEvent(server, prompts)));
		ClientCapabilities declared = null;
		ClientMcpSyncHandlersRegistry handlers = this.syncHandlers;
		if (handlers != null) {
			spec.sampling((request) -> handlers.handleSampling(server, request))
				.elicitation((request) -> handlers.handleElicitation(server, request))
				.loggingConsumer((notification) -> handlers.handleLogging(server, notification))
				.progressConsumer((notification) -> handlers.handleProgress(server, notification))
				.promptsChangeConsumer((prompts) -> handlers.handlePromptListChanged(server, prompts))
				.resourcesChangeConsumer((resources) -> handlers.handleResourceListChanged(server, resources));
			declared = handlers.getCapabilities(server);
		}
		spec.capabilities(ClientSpecs.capabilities(session, declared));
		this.syncCustomizers.forEach((customizer) -> customizer.customize(server, spec));
		spec.requestTimeout(requestTimeout).initializationTimeout(initializationTimeout);
		return SyncClients.asyncOf(spec.build());
	}

	private McpAsyncClient async(McpClientSession session, McpClientTransport transport, Duration requestTimeout,
			Duration initializationTimeout) {
		String server = session.server();
		McpClient.AsyncSpec spec = McpClient.async(transport)
			.clientInfo(ClientSpecs.clientInfo(server))
			.roots(session.roots())
			.resourcesUpdateConsumer((contents) -> Mono
				.fromRunnable(() -> this.publisher.publishEvent(new McpResourcesUpdatedEvent(server, contents))))
			.resourcesChangeConsumer((resources) -> Mono
				.fromRunnable(() -> this.publisher.publishEvent(new McpResourcesChangedEvent(server, resources))))
			.promptsChangeConsumer((prompts) -> Mono
				.fromRunnable(() -> this.publisher.publishEvent(new McpPromptsChangedEvent(server, prompts))));
		ClientCapabilities declared = null;
		ClientMcpAsyncHandlersRegistry handlers = this.asyncHandlers;
		if (handlers != null) {
			spec.sampling((request) -> handlers.handleSampling(server, request))
				.elicitation((request) -> handlers.handleElicitation(server, request))
				.loggingConsumer((notification) -> handlers.handleLogging(server, notification))
				.progressConsumer((notification) -> handlers.handleProgress(server, notification))
				.promptsChangeConsumer((prompts) -> handlers.handlePromptListChanged(server, prompts))
				.resourcesChangeConsumer((resources) -> handlers.handleResourceListChanged(server, resources));
			declared = handlers.getCapabilities(server);
		}
		spec.capabilities(ClientSpecs.capabilities(session, declared));
		this.asyncCustomizers.forEach((customizer) -> customizer.customize(server, spec));
		spec.requestTimeout(requestTimeout).initializationTimeout(initializationTimeout);
		return spec.build();
	}

}
