package io.github.mcpsupervisor.autoconfigure;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BiConsumer;

import io.github.mcpsupervisor.authorization.McpUserResolver;
import io.github.mcpsupervisor.autoconfigure.internal.McpConnectorFactory;
import io.github.mcpsupervisor.autoconfigure.properties.McpClientType;
import io.github.mcpsupervisor.autoconfigure.properties.McpSupervisorProperties;
import io.github.mcpsupervisor.autoconfigure.properties.internal.McpPropertyKeysCheck;
import io.github.mcpsupervisor.autoconfigure.properties.internal.McpServerSettingsResolver;
import io.github.mcpsupervisor.client.McpServerClients;
import io.github.mcpsupervisor.client.internal.McpClientFactory;
import io.github.mcpsupervisor.client.internal.McpServerSessions;
import io.github.mcpsupervisor.event.internal.McpSupervisorEventPublisher;
import io.github.mcpsupervisor.internal.ListenerDispatcher;
import io.github.mcpsupervisor.internal.McpRequestObserver;
import io.github.mcpsupervisor.supervisor.McpSupervisors;
import io.github.mcpsupervisor.supervisor.McpSupervisors.SupervisedServer;
import io.github.mcpsupervisor.supervisor.SupervisorListener;
import io.github.mcpsupervisor.supervisor.SupervisorScheduler;
import io.github.mcpsupervisor.supervisor.ThreadPoolSupervisorScheduler;
import io.github.mcpsupervisor.supervisor.internal.ChangeableMcpSupervisors;
import io.github.mcpsupervisor.tool.McpSupervisorToolCallbackProvider;
import io.github.mcpsupervisor.tool.McpToolNaming;
import io.github.mcpsupervisor.tool.ToolCallObserver;
import io.github.mcpsupervisor.transport.internal.http.HttpAuthorizations;
import io.github.mcpsupervisor.transport.internal.http.HttpTransportCustomizer;
import io.github.mcpsupervisor.transport.internal.http.SharedHttpClients;
import io.github.mcpsupervisor.transport.internal.stdio.ProcessRecords;
import io.github.mcpsupervisor.transport.internal.stdio.StartGate;
import io.modelcontextprotocol.client.McpClient;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.client.transport.HttpClientStreamableHttpTransport;
import io.modelcontextprotocol.client.transport.customizer.McpAsyncHttpClientRequestCustomizer;
import io.modelcontextprotocol.client.transport.customizer.McpSyncHttpClientRequestCustomizer;
import org.jspecify.annotations.Nullable;

import org.springframework.ai.mcp.DefaultMcpToolNamePrefixGenerator;
import org.springframework.ai.mcp.McpToolFilter;
import org.springframework.ai.mcp.McpToolNamePrefixGenerator;
import org.springframework.ai.mcp.SyncMcpToolCallbackProvider;
import org.springframework.ai.mcp.ToolContextToMcpMetaConverter;
import org.springframework.ai.mcp.annotation.spring.ClientMcpAsyncHandlersRegistry;
import org.springframework.ai.mcp.annotation.spring.ClientMcpSyncHandlersRegistry;
import org.springframework.ai.mcp.customizer.McpClientCustomizer;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.io.ApplicationResourceLoader;
import org.springframework.boot.ssl.SslBundles;
import org.springframework.cloud.context.environment.EnvironmentChangeEvent;
import org.springframework.context.ApplicationEventPublisher;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.ImportRuntimeHints;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.core.env.Environment;

/**
 * Auto-configuration of supervised MCP servers: one supervisor per enabled entry of
 * {@code mcp.servers}, run with the application context, and a tool callback provider
 * over all of them.
 *
 * @since 0.1.0
 */
@AutoConfiguration
@ConditionalOnClass({ McpSyncClient.class, SyncMcpToolCallbackProvider.class })
@ConditionalOnBooleanProperty(name = "mcp.enabled", matchIfMissing = true)
@EnableConfigurationProperties(McpSupervisorProperties.class)
@ImportRuntimeHints(McpSupervisorRuntimeHints.class)
public final class McpSupervisorAutoConfiguration {

	@Bean
	static SpringAiMcpClientCheck mcpSpringAiClientCheck(Environment environment) {
		return new SpringAiMcpClientCheck(environment);
	}

	@Bean
	static McpPropertyKeysCheck mcpPropertyKeysCheck(Environment environment) {
		return new McpPropertyKeysCheck(environment);
	}

	@Bean(destroyMethod = "close")
	@ConditionalOnMissingBean(SupervisorScheduler.class)
	ThreadPoolSupervisorScheduler mcpSupervisorScheduler() {
		return new ThreadPoolSupervisorScheduler();
	}

	@Bean(destroyMethod = "close")
	@ConditionalOnMissingBean
	ListenerDispatcher mcpListenerDispatcher() {
		return new ListenerDispatcher();
	}

	@Bean
	@ConditionalOnMissingBean
	@ConditionalOnProperty(name = "mcp.client-type", havingValue = "sync", matchIfMissing = true)
	static ClientMcpSyncHandlersRegistry clientMcpSyncHandlersRegistry() {
		return new ClientMcpSyncHandlersRegistry();
	}

	@Bean
	@ConditionalOnMissingBean
	@ConditionalOnProperty(name = "mcp.client-type", havingValue = "async")
	static ClientMcpAsyncHandlersRegistry clientMcpAsyncHandlersRegistry() {
		return new ClientMcpAsyncHandlersRegistry();
	}

	@Bean
	@ConditionalOnMissingBean
	McpServerSessions mcpServerSessions(McpSupervisorProperties properties, SupervisorScheduler scheduler) {
		return new McpServerSessions(McpServerSettingsResolver.resolve(properties)
			.stream()
			.map((server) -> McpServerFactory.session(server, scheduler))
			.toList());
	}

	@Bean
	@ConditionalOnMissingBean
	McpClientFactory mcpClientFactory(McpSupervisorProperties properties,
			ObjectProvider<McpClientCustomizer<McpClient.SyncSpec>> syncCustomizers,
			ObjectProvider<McpClientCustomizer<McpClient.AsyncSpec>> asyncCustomizers,
			ObjectProvider<ClientMcpSyncHandlersRegistry> syncHandlers,
			ObjectProvider<ClientMcpAsyncHandlersRegistry> asyncHandlers, ObjectProvider<SupervisorListener> listeners,
			ListenerDispatcher listenerDispatcher) {
		boolean sync = properties.clientType() == McpClientType.SYNC;
		return new SpringAiMcpClientFactory(properties.clientType(), () -> syncCustomizers.orderedStream().toList(),
				() -> asyncCustomizers.orderedStream().toList(), sync ? syncHandlers.getIfAvailable() : null,
				sync ? null : asyncHandlers.getIfAvailable(), () -> listeners.orderedStream().toList(),
				listenerDispatcher);
	}

	@Bean
	AnnotatedToolListChangedHandlers mcpAnnotatedToolListChangedHandlers(McpSupervisorProperties properties,
			ObjectProvider<ClientMcpSyncHandlersRegistry> syncHandlers,
			ObjectProvider<ClientMcpAsyncHandlersRegistry> asyncHandlers) {
		boolean sync = properties.clientType() == McpClientType.SYNC;
		return new AnnotatedToolListChangedHandlers(sync ? syncHandlers.getIfAvailable() : null,
				sync ? null : asyncHandlers.getIfAvailable());
	}

	@Bean
	@ConditionalOnMissingBean
	McpConnectorFactory mcpConnectorFactory(SupervisorScheduler scheduler, McpClientFactory clientFactory,
			McpServerSessions sessions, ObjectProvider<McpSyncHttpClientRequestCustomizer> syncRequestCustomizers,
			ObjectProvider<McpAsyncHttpClientRequestCustomizer> asyncRequestCustomizers,
			ObjectProvider<McpClientCustomizer<HttpClientStreamableHttpTransport.Builder>> transportCustomizers,
			McpSupervisorProperties properties, Environment environment,
			ObjectProvider<HttpAuthorizations> authorizations, SharedHttpClients httpClients) {
		// as Spring AI orders them: sync request customizers, then async ones
		List<McpAsyncHttpClientRequestCustomizer> requestCustomizers = new ArrayList<>();
		syncRequestCustomizers.orderedStream()
			.map(McpAsyncHttpClientRequestCustomizer::fromSync)
			.forEach(requestCustomizers::add);
		asyncRequestCustomizers.orderedStream().forEach(requestCustomizers::add);
		List<BiConsumer<String, HttpClientStreamableHttpTransport.Builder>> builders = transportCustomizers
			.orderedStream().<BiConsumer<String, HttpClientStreamableHttpTransport
					.Builder>>map((customizer) -> customizer::customize)
			.toList();
		Path runtimeDirectory = McpServerSettingsResolver.runtimeDirectory(properties, environment);
		return new DefaultMcpConnectorFactory(scheduler, clientFactory, sessions,
				new HttpTransportCustomizer(requestCustomizers, builders),
				authorizations.getIfAvailable(() -> HttpAuthorizations.NONE),
				() -> ProcessRecords.open(runtimeDirectory), httpClients,
				StartGate.atMost(properties.maxConcurrentStarts()));
	}

	@Bean(destroyMethod = "close")
	static SharedHttpClients mcpHttpClients(ObjectProvider<SslBundles> sslBundles) {
		return new SharedHttpClients(new SslBundleHttpTls(sslBundles.getIfAvailable()));
	}

	@Bean
	@ConditionalOnMissingBean
	McpSupervisorEventPublisher mcpSupervisorEventPublisher(ApplicationEventPublisher eventPublisher) {
		return new McpSupervisorEventPublisher(eventPublisher);
	}

	@Bean
	McpServerFactory mcpServerFactory(SupervisorScheduler scheduler, McpConnectorFactory connectorFactory,
			McpServerSessions sessions, ObjectProvider<SupervisorListener> listeners,
			ListenerDispatcher listenerDispatcher, ObjectProvider<McpRequestObserver> requestObserver,
			ObjectProvider<McpUserResolver> users) {
		// the application's listeners may call the server they hear from: never on the
		// thread that reads it, nor in a supervisor's step
		SupervisorListener listener = SupervisorListener
			.dispatched(SupervisorListener.composite(listeners.orderedStream().toList()), listenerDispatcher);
		return new McpServerFactory(scheduler, connectorFactory, sessions, listener,
				requestObserver.getIfUnique(() -> McpRequestObserver.NONE),
				users.getIfAvailable(() -> McpUserResolver.DEFAULT));
	}

	@Bean
	@ConditionalOnMissingBean
	McpSupervisors mcpSupervisors(McpSupervisorProperties properties, McpServerFactory serverFactory) {
		List<SupervisedServer> servers = McpServerSettingsResolver.resolve(properties)
			.stream()
			.map(serverFactory::create)
			.toList();
		return new ChangeableMcpSupervisors(servers, serverFactory.listener());
	}

	@Bean
	@ConditionalOnMissingBean
	McpServerRegistry mcpServerRegistry(McpSupervisors supervisors, McpServerFactory serverFactory,
			McpServerSessions sessions, McpSupervisorProperties properties, Environment environment) {
		return new McpServerRegistry(supervisors, serverFactory, sessions, properties, environment);
	}

	@Bean
	McpServersReload mcpServersReload(McpServerRegistry registry, ConfigurableEnvironment environment) {
		return new McpServersReload(registry, environment, ApplicationResourceLoader.get());
	}

	@Bean
	@ConditionalOnBooleanProperty(name = "mcp.reload.enabled", matchIfMissing = true)
	McpServersFileWatch mcpServersFileWatch(McpServersReload reload, ConfigurableEnvironment environment,
			SupervisorScheduler scheduler, McpSupervisorProperties properties) {
		return new McpServersFileWatch(reload::apply, environment, ApplicationResourceLoader.get(), scheduler,
				properties.reload().interval());
	}

	// The observers of every tool call, told in their order; none at all costs a call
	// nothing, not even the time taken.
	private static ToolCallObserver observer(List<ToolCallObserver> all) {
		if (all.isEmpty()) {
			return ToolCallObserver.NONE;
		}
		if (all.size() == 1) {
			return all.get(0);
		}
		return (server, serverTool, tool, outcome, duration) -> {
			for (ToolCallObserver observer : all) {
				observer.called(server, serverTool, tool, outcome, duration);
			}
		};
	}

	// Spring AI's DefaultMcpToolNamePrefixGenerator renames a tool it sees again in a new
	// generation (alt_<n>_<name>, by the order of its calls): its names are given
	// deterministically instead, the same it gives a tool the first time.
	private static @Nullable McpToolNamePrefixGenerator deterministic(@Nullable McpToolNamePrefixGenerator generator) {
		return (generator == null || generator.getClass() == DefaultMcpToolNamePrefixGenerator.class) ? null
				: generator;
	}

	@Bean
	@ConditionalOnMissingBean
	McpServerClients mcpServerClients(McpSupervisors supervisors, McpServerSessions sessions) {
		return new McpServerClients(supervisors, sessions);
	}

	@Bean
	@ConditionalOnMissingBean
	McpSupervisorToolCallbackProvider mcpSupervisorToolCallbackProvider(McpSupervisorProperties properties,
			McpSupervisors supervisors, ObjectProvider<ToolCallObserver> observers,
			ObjectProvider<McpToolFilter> filter, ObjectProvider<McpToolNamePrefixGenerator> nameGenerator,
			ObjectProvider<ToolContextToMcpMetaConverter> metaConverter, ConfigurableListableBeanFactory beanFactory,
			McpServerRegistry registry, ObjectProvider<McpUserResolver> users) {
		List<ToolCallObserver> all = observers.orderedStream().toList();
		Map<String, McpToolNaming> toolNames = new LinkedHashMap<>();
		McpServerSettingsResolver.resolve(properties)
			.forEach((server) -> toolNames.put(server.name(), server.toolNames()));
		McpToolNamePrefixGenerator generator = McpToolNamingCheck.generator(toolNames,
				beanFactory.getBeanNamesForType(McpToolNamePrefixGenerator.class), nameGenerator.getIfUnique(),
				beanFactory);
		McpSupervisorToolCallbackProvider provider = new McpSupervisorToolCallbackProvider(supervisors, observer(all),
				filter.getIfUnique(() -> (connection, tool) -> true), deterministic(generator),
				metaConverter.getIfUnique(ToolContextToMcpMetaConverter::defaultConverter), registry::toolNames);
		provider.setUserResolver(users.getIfAvailable(() -> McpUserResolver.DEFAULT));
		return provider;
	}

	// Spring Cloud's refresh (/actuator/refresh): a change of mcp.* applied to the
	// servers
	@Configuration(proxyBeanMethods = false)
	@ConditionalOnClass(EnvironmentChangeEvent.class)
	@ConditionalOnBooleanProperty(name = "mcp.reload.enabled", matchIfMissing = true)
	static class SpringCloudRefreshConfiguration {

		@Bean
		McpServersRefreshListener mcpServersRefreshListener(McpServersReload reload) {
			return new McpServersRefreshListener(reload);
		}

	}

}
