package io.github.mcpsupervisor.autoconfigure;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import java.util.function.Supplier;

import io.github.mcpsupervisor.autoconfigure.properties.McpClientType;
import io.github.mcpsupervisor.client.internal.ClientHandlers;
import io.github.mcpsupervisor.client.internal.ClientSpecs;
import io.github.mcpsupervisor.client.internal.McpClientFactory;
import io.github.mcpsupervisor.client.internal.McpServerSession;
import io.github.mcpsupervisor.internal.ListenerDispatcher;
import io.github.mcpsupervisor.supervisor.SupervisorListener;
import io.modelcontextprotocol.client.McpAsyncClient;
import io.modelcontextprotocol.client.McpClient;
import io.modelcontextprotocol.spec.McpClientTransport;
import io.modelcontextprotocol.spec.McpSchema.ClientCapabilities;
import io.modelcontextprotocol.spec.McpSchema.LoggingMessageNotification;
import io.modelcontextprotocol.spec.McpSchema.Prompt;
import io.modelcontextprotocol.spec.McpSchema.Resource;
import io.modelcontextprotocol.spec.McpSchema.ResourceContents;
import org.jspecify.annotations.Nullable;
import reactor.core.publisher.Mono;

import org.springframework.ai.mcp.annotation.spring.ClientMcpAsyncHandlersRegistry;
import org.springframework.ai.mcp.annotation.spring.ClientMcpSyncHandlersRegistry;
import org.springframework.ai.mcp.customizer.McpClientCustomizer;
import org.springframework.beans.factory.SmartInitializingSingleton;

/**
 * Builds every generation's client the way Spring AI's MCP client auto-configuration
 * builds its clients, in the same order: the handlers of Spring AI's MCP client
 * annotations for the server's name (with the capabilities they imply), then every
 * {@link McpClientCustomizer} in order, with the server's name. The transport is the
 * generation's own and the timeouts are re-applied after the customizers: both belong to
 * the supervisor. Resource and prompt changes go to the supervisor listeners (among them
 * the one that publishes them as application events), then to the annotated handlers.
 */
final class SpringAiMcpClientFactory implements McpClientFactory, SmartInitializingSingleton {

	private final McpClientType type;

	private final Supplier<List<McpClientCustomizer<McpClient.SyncSpec>>> syncCustomizerBeans;

	private final Supplier<List<McpClientCustomizer<McpClient.AsyncSpec>>> asyncCustomizerBeans;

	private final @Nullable ClientMcpSyncHandlersRegistry syncHandlers;

	private final @Nullable ClientMcpAsyncHandlersRegistry asyncHandlers;

	private final Supplier<List<SupervisorListener>> listenerBeans;

	private final ListenerDispatcher dispatcher;

	private final Map<String, Executor> lanes = new ConcurrentHashMap<>();

	private final Map<String, ClientHandlers> inputHandlers = new ConcurrentHashMap<>();

	private volatile @Nullable Customizers customizers;

	private volatile @Nullable SupervisorListener listener;

	// The customizers are looked up once every singleton exists: they often depend on
	// the application's chat model, which depends (through Spring AI's tool calling) on
	// the supervised tools, and so on this factory.
	SpringAiMcpClientFactory(McpClientType type,
			Supplier<List<McpClientCustomizer<McpClient.SyncSpec>>> syncCustomizerBeans,
			Supplier<List<McpClientCustomizer<McpClient.AsyncSpec>>> asyncCustomizerBeans,
			@Nullable ClientMcpSyncHandlersRegistry syncHandlers,
			@Nullable ClientMcpAsyncHandlersRegistry asyncHandlers, Supplier<List<SupervisorListener>> listenerBeans,
			ListenerDispatcher dispatcher) {
		this.type = type;
		this.syncCustomizerBeans = syncCustomizerBeans;
		this.asyncCustomizerBeans = asyncCustomizerBeans;
		this.syncHandlers = syncHandlers;
		this.asyncHandlers = asyncHandlers;
		this.listenerBeans = listenerBeans;
		this.dispatcher = dispatcher;
	}

	@Override
	public void afterSingletonsInstantiated() {
		customizers();
		listener();
	}

	// The listeners, looked up once: like the customizers, they may depend on what
	// depends on this factory.
	private SupervisorListener listener() {
		SupervisorListener resolved = this.listener;
		if (resolved == null) {
			resolved = SupervisorListener.composite(this.listenerBeans.get());
			this.listener = resolved;
		}
		return resolved;
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
			.roots(session.roots());
		ClientCapabilities declared = null;
		ClientMcpSyncHandlersRegistry handlers = this.syncHandlers;
		if (handlers != null) {
			Executor lane = lane(server);
			spec.sampling((request) -> handlers.handleSampling(server, request))
				.elicitation((request) -> handlers.handleElicitation(server, request))
				.loggingConsumer((notification) -> lane.execute(() -> handlers.handleLogging(server, notification)))
				.progressConsumer((notification) -> lane.execute(() -> handlers.handleProgress(server, notification)));
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
			.roots(session.roots());
		ClientCapabilities declared = null;
		ClientMcpAsyncHandlersRegistry handlers = this.asyncHandlers;
		if (handlers != null) {
			Executor lane = lane(server);
			// the SDK calls asynchronous consumers on the thread that reads the server
			spec.sampling((request) -> handlers.handleSampling(server, request))
				.elicitation((request) -> handlers.handleElicitation(server, request))
				.loggingConsumer((notification) -> dispatched(lane,
						() -> handlers.handleLogging(server, notification).subscribe()))
				.progressConsumer((notification) -> dispatched(lane,
						() -> handlers.handleProgress(server, notification).subscribe()));
			declared = handlers.getCapabilities(server);
		}
		spec.capabilities(ClientSpecs.capabilities(session, declared));
		customizers().async().forEach((customizer) -> customizer.customize(server, spec));
		spec.requestTimeout(requestTimeout).initializationTimeout(initializationTimeout);
		return spec.build();
	}

	@Override
	public ClientHandlers handlers(McpServerSession session) {
		// the handlers a 2025-11-25 client gets from the annotated handlers and the
		// customizers, read once per server off a client built the same way and never
		// connected
		return this.inputHandlers.computeIfAbsent(session.server(), (server) -> {
			Duration unused = Duration.ofSeconds(1);
			return ClientHandlerFields.of(create(session, new ClientHandlerFields.Unconnected(), unused, unused));
		});
	}

	// As the client of the configured type hands its log messages to the annotated
	// handlers (customizers' logging consumers belong to a 2025-11-25 client only).
	@Override
	public void logged(McpServerSession session, LoggingMessageNotification notification) {
		String server = session.server();
		ClientMcpSyncHandlersRegistry sync = this.syncHandlers;
		ClientMcpAsyncHandlersRegistry async = this.asyncHandlers;
		if (this.type == McpClientType.SYNC && sync != null) {
			lane(server).execute(() -> sync.handleLogging(server, notification));
		}
		else if (this.type == McpClientType.ASYNC && async != null) {
			lane(server).execute(() -> async.handleLogging(server, notification).subscribe());
		}
	}

	@Override
	public void resourcesChanged(McpServerSession session, List<Resource> resources) {
		String server = session.server();
		lane(server).execute(() -> {
			listener().resourcesChanged(server, resources);
			if (this.syncHandlers != null) {
				this.syncHandlers.handleResourceListChanged(server, resources);
			}
			if (this.asyncHandlers != null) {
				this.asyncHandlers.handleResourceListChanged(server, resources).subscribe();
			}
		});
	}

	@Override
	public void promptsChanged(McpServerSession session, List<Prompt> prompts) {
		String server = session.server();
		lane(server).execute(() -> {
			listener().promptsChanged(server, prompts);
			if (this.syncHandlers != null) {
				this.syncHandlers.handlePromptListChanged(server, prompts);
			}
			if (this.asyncHandlers != null) {
				this.asyncHandlers.handlePromptListChanged(server, prompts).subscribe();
			}
		});
	}

	// Published while the resource is still subscribed to only; the contents are those
	// of the resource read, whatever URIs the server gave them.
	@Override
	public void resourceUpdated(McpServerSession session, String uri, List<ResourceContents> contents) {
		lane(session.server()).execute(() -> {
			if (session.subscriptions().contains(uri)) {
				listener().resourceUpdated(session.server(), uri, contents);
			}
		});
	}

	private Executor lane(String server) {
		return this.lanes.computeIfAbsent(server, this.dispatcher::lane);
	}

	private static Mono<Void> dispatched(Executor lane, Runnable callback) {
		lane.execute(callback);
		return Mono.empty();
	}

	private record Customizers(List<McpClientCustomizer<McpClient.SyncSpec>> sync,
			List<McpClientCustomizer<McpClient.AsyncSpec>> async) {

	}

}
