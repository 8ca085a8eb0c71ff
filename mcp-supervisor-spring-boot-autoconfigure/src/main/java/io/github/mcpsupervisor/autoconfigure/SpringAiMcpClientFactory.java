package io.github.mcpsupervisor.autoconfigure;

import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.function.Supplier;

import io.github.mcpsupervisor.client.ClientSpecs;
import io.github.mcpsupervisor.client.McpClientFactory;
import io.github.mcpsupervisor.client.McpServerSession;
import io.github.mcpsupervisor.event.McpPromptsChangedEvent;
import io.github.mcpsupervisor.event.McpResourcesChangedEvent;
import io.github.mcpsupervisor.event.McpResourcesUpdatedEvent;
import io.modelcontextprotocol.client.McpAsyncClient;
import io.modelcontextprotocol.client.McpClient;
import io.modelcontextprotocol.spec.McpClientTransport;
import io.modelcontextprotocol.spec.McpSchema.ClientCapabilities;
import io.modelcontextprotocol.spec.McpSchema.Prompt;
import io.modelcontextprotocol.spec.McpSchema.Resource;
import io.modelcontextprotocol.spec.McpSchema.ResourceContents;
import org.jspecify.annotations.Nullable;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;

import org.springframework.ai.mcp.annotation.spring.ClientMcpAsyncHandlersRegistry;
import org.springframework.ai.mcp.annotation.spring.ClientMcpSyncHandlersRegistry;
import org.springframework.ai.mcp.customizer.McpClientCustomizer;
import org.springframework.beans.factory.SmartInitializingSingleton;
import org.springframework.context.ApplicationEventPublisher;

/**
 * Builds every generation's client the way Spring AI's MCP client auto-configuration
 * builds its clients, in the same order: the handlers of Spring AI's MCP client
 * annotations for the server's name (with the capabilities they imply), then every
 * {@link McpClientCustomizer} in order, with the server's name. The transport is the
 * generation's own and the timeouts are re-applied after the customizers: both belong to
 * the supervisor. Resource and prompt changes are published as application events.
 */
final class SpringAiMcpClientFactory implements McpClientFactory, SmartInitializingSingleton {

	private final McpClientType type;

	private final Supplier<List<McpClientCustomizer<McpClient.SyncSpec>>> syncCustomizerBeans;

	private final Supplier<List<McpClientCustomizer<McpClient.AsyncSpec>>> asyncCustomizerBeans;

	private final @Nullable ClientMcpSyncHandlersRegistry syncHandlers;

	private final @Nullable ClientMcpAsyncHandlersRegistry asyncHandlers;

	private final ApplicationEventPublisher publisher;

	private volatile @Nullable Customizers customizers;

	// The customizers are looked up once every singleton exists: they often depend on
	// the application's chat model, which depends (through Spring AI's tool calling) on
	// the supervised tools, and so on this factory.
	SpringAiMcpClientFactory(McpClientType type,
			Supplier<List<McpClientCustomizer<McpClient.SyncSpec>>> syncCustomizerBeans,
			Supplier<List<McpClientCustomizer<McpClient.AsyncSpec>>> asyncCustomizerBeans,
			@Nullable ClientMcpSyncHandlersRegistry syncHandlers,
			@Nullable ClientMcpAsyncHandlersRegistry asyncHandlers, ApplicationEventPublisher publisher) {
		this.type = type;
		this.syncCustomizerBeans = syncCustomizerBeans;
		this.asyncCustomizerBeans = asyncCustomizerBeans;
		this.syncHandlers = syncHandlers;
		this.asyncHandlers = asyncHandlers;
		this.publisher = publisher;
	}

	@Override
	public void afterSingletonsInstantiated() {
		customizers();
	}

	// The customizers, looked up and checked once.
	private Customizers customizers() {
		Customizers resolved = this.customizers;
		if (resolved == null) {
			synchronized (this) {
				resolved = this.customizers;
				if (resolved == null) {
					resolved = resolve();
					this.customizers = resolved;
				}
			}
		}
		return resolved;
	}

	private Customizers resolve() {
		List<McpClientCustomizer<McpClient.SyncSpec>> sync = this.syncCustomizerBeans.get();
		List<McpClientCustomizer<McpClient.AsyncSpec>> async = this.asyncCustomizerBeans.get();
		List<String> asyncOnly = classes(async, sync);
		List<String> syncOnly = classes(sync, async);
		if (this.type == McpClientType.SYNC && !asyncOnly.isEmpty()) {
			throw new McpClientTypeMismatchException(this.type, asyncOnly);
		}
		if (this.type == McpClientType.ASYNC && !syncOnly.isEmpty()) {
			throw new McpClientTypeMismatchException(this.type, syncOnly);
		}
		return new Customizers(List.copyOf(sync), List.copyOf(async));
	}

	// The classes of the customizers that are not also in the other list: a bean whose
	// generic type cannot be resolved (a raw lambda) is in both, and belongs to the
	// configured type.
	private static List<String> classes(List<?> customizers, List<?> others) {
		return customizers.stream()
			.filter((customizer) -> others.stream().noneMatch((other) -> other == customizer))
			.map((customizer) -> customizer.getClass().getName())
			.toList();
	}

	@Override
	public McpAsyncClient create(McpServerSession session, McpClientTransport transport, Duration requestTimeout,
			Duration initializationTimeout) {
		return (this.type == McpClientType.SYNC) ? sync(session, transport, requestTimeout, initializationTimeout)
				: async(session, transport, requestTimeout, initializationTimeout);
	}

	private McpAsyncClient sync(McpServerSession session, McpClientTransport transport, Duration requestTimeout,
			Duration initializationTimeout) {
		String server = session.server();
		McpClient.SyncSpec spec = McpClient.sync(transport)
			.clientInfo(ClientSpecs.clientInfo(server))
			.roots(session.roots())
			.resourcesUpdateConsumer((contents) -> updated(session, contents));
		ClientCapabilities declared = null;
		ClientMcpSyncHandlersRegistry handlers = this.syncHandlers;
		if (handlers != null) {
			spec.sampling((request) -> handlers.handleSampling(server, request))
				.elicitation((request) -> handlers.handleElicitation(server, request))
				.loggingConsumer((notification) -> handlers.handleLogging(server, notification))
				.progressConsumer((notification) -> handlers.handleProgress(server, notification));
			declared = handlers.getCapabilities(server);
		}
		spec.capabilities(ClientSpecs.capabilities(session, declared));
		customizers().sync().forEach((customizer) -> customizer.customize(server, spec));
		spec.requestTimeout(requestTimeout).initializationTimeout(initializationTimeout);
		return SyncClients.asyncOf(spec.build());
	}

	private McpAsyncClient async(McpServerSession session, McpClientTransport transport, Duration requestTimeout,
			Duration initializationTimeout) {
		String server = session.server();
		McpClient.AsyncSpec spec = McpClient.async(transport)
			.clientInfo(ClientSpecs.clientInfo(server))
			.roots(session.roots())
			.resourcesUpdateConsumer((contents) -> offTheReader(() -> updated(session, contents)));
		ClientCapabilities declared = null;
		ClientMcpAsyncHandlersRegistry handlers = this.asyncHandlers;
		if (handlers != null) {
			spec.sampling((request) -> handlers.handleSampling(server, request))
				.elicitation((request) -> handlers.handleElicitation(server, request))
				.loggingConsumer((notification) -> handlers.handleLogging(server, notification))
				.progressConsumer((notification) -> handlers.handleProgress(server, notification));
			declared = handlers.getCapabilities(server);
		}
		spec.capabilities(ClientSpecs.capabilities(session, declared));
		customizers().async().forEach((customizer) -> customizer.customize(server, spec));
		spec.requestTimeout(requestTimeout).initializationTimeout(initializationTimeout);
		return spec.build();
	}

	@Override
	public void resourcesChanged(McpServerSession session, List<Resource> resources) {
		this.publisher.publishEvent(new McpResourcesChangedEvent(session.server(), resources));
		if (this.syncHandlers != null) {
			this.syncHandlers.handleResourceListChanged(session.server(), resources);
		}
		if (this.asyncHandlers != null) {
			this.asyncHandlers.handleResourceListChanged(session.server(), resources).block();
		}
	}

	@Override
	public void promptsChanged(McpServerSession session, List<Prompt> prompts) {
		this.publisher.publishEvent(new McpPromptsChangedEvent(session.server(), prompts));
		if (this.syncHandlers != null) {
			this.syncHandlers.handlePromptListChanged(session.server(), prompts);
		}
		if (this.asyncHandlers != null) {
			this.asyncHandlers.handlePromptListChanged(session.server(), prompts).block();
		}
	}

	// Application listeners may call the server: never on the thread that reads its
	// answers (the SDK moves sync consumers off it the same way).
	private static Mono<Void> offTheReader(Runnable listener) {
		return Mono.<Void>fromRunnable(listener).subscribeOn(Schedulers.boundedElastic());
	}

	// An update is published for a resource the application subscribed to only: a server
	// cannot make it hear about others.
	private void updated(McpServerSession session, List<ResourceContents> contents) {
		Set<String> subscriptions = session.subscriptions();
		List<ResourceContents> subscribed = contents.stream()
			.filter((content) -> subscriptions.contains(content.uri()))
			.toList();
		if (!subscribed.isEmpty()) {
			this.publisher.publishEvent(new McpResourcesUpdatedEvent(session.server(), subscribed));
		}
	}

	private record Customizers(List<McpClientCustomizer<McpClient.SyncSpec>> sync,
			List<McpClientCustomizer<McpClient.AsyncSpec>> async) {

	}

}
