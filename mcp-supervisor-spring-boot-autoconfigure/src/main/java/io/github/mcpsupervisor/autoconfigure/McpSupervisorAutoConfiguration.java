package io.github.mcpsupervisor.autoconfigure;

import java.time.Duration;
import java.util.List;

import io.github.mcpsupervisor.event.McpSupervisorEventPublisher;
import io.github.mcpsupervisor.supervisor.McpServerSupervisor;
import io.github.mcpsupervisor.supervisor.McpSupervisors;
import io.github.mcpsupervisor.supervisor.McpSupervisors.SupervisedServer;
import io.github.mcpsupervisor.supervisor.SupervisorListener;
import io.github.mcpsupervisor.supervisor.SupervisorScheduler;
import io.github.mcpsupervisor.supervisor.ThreadPoolSupervisorScheduler;
import io.github.mcpsupervisor.tool.McpSupervisorToolCallbackProvider;
import io.github.mcpsupervisor.tool.ToolCallObserver;
import io.modelcontextprotocol.client.McpSyncClient;

import org.springframework.ai.mcp.SyncMcpToolCallbackProvider;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.ApplicationEventPublisher;
import org.springframework.context.annotation.Bean;
import org.springframework.core.env.Environment;

/**
 * Auto-configuration of supervised MCP servers: one supervisor per enabled entry of
 * {@code mcp.servers}, run with the application context, and a tool callback provider
 * over all of them.
 */
@AutoConfiguration
@ConditionalOnClass({ McpSyncClient.class, SyncMcpToolCallbackProvider.class })
@ConditionalOnBooleanProperty(name = "mcp.enabled", matchIfMissing = true)
@EnableConfigurationProperties(McpSupervisorProperties.class)
public final class McpSupervisorAutoConfiguration {

	/** Margin over the bounded steps of an attempt or a termination. */
	private static final Duration MARGIN = Duration.ofSeconds(3);

	@Bean
	static SpringAiMcpClientCheck mcpSpringAiClientCheck(Environment environment) {
		return new SpringAiMcpClientCheck(environment);
	}

	@Bean(destroyMethod = "close")
	@ConditionalOnMissingBean(SupervisorScheduler.class)
	ThreadPoolSupervisorScheduler mcpSupervisorScheduler() {
		return new ThreadPoolSupervisorScheduler();
	}

	@Bean
	@ConditionalOnMissingBean
	McpConnectorFactory mcpConnectorFactory(SupervisorScheduler scheduler) {
		return new DefaultMcpConnectorFactory(scheduler);
	}

	@Bean
	@ConditionalOnMissingBean
	McpSupervisorEventPublisher mcpSupervisorEventPublisher(ApplicationEventPublisher eventPublisher) {
		return new McpSupervisorEventPublisher(eventPublisher);
	}

	@Bean
	@ConditionalOnMissingBean
	McpSupervisors mcpSupervisors(McpSupervisorProperties properties, SupervisorScheduler scheduler,
			McpConnectorFactory connectorFactory, ObjectProvider<SupervisorListener> listeners) {
		SupervisorListener listener = SupervisorListener.composite(listeners.orderedStream().toList());
		List<SupervisedServer> servers = properties.effectiveServers().stream().map((server) -> {
			McpServerSupervisor supervisor = McpServerSupervisor
				.builder(server.name(), connectorFactory.create(server), scheduler)
				.reconnect(server.reconnect().toPolicy())
				.calls(server.call().toPolicy())
				.healthCheck(server.healthCheck().toPolicy())
				.listener(listener)
				.build();
			Duration stop = server.terminationGracePeriod().plus(MARGIN);
			// the first attempt: spawn, initialize, list the tools, or fail and be
			// terminated
			Duration startup = server.initializationTimeout().plus(server.requestTimeout()).plus(stop);
			return new SupervisedServer(supervisor, server.required(), server.failOnStartupError(), startup, stop);
		}).toList();
		return new McpSupervisors(servers);
	}

	@Bean
	@ConditionalOnMissingBean
	McpSupervisorToolCallbackProvider mcpSupervisorToolCallbackProvider(McpSupervisors supervisors,
			ObjectProvider<ToolCallObserver> observers) {
		List<ToolCallObserver> all = observers.orderedStream().toList();
		return new McpSupervisorToolCallbackProvider(supervisors, (server, tool, outcome, duration) -> all
			.forEach((observer) -> observer.called(server, tool, outcome, duration)));
	}

}
