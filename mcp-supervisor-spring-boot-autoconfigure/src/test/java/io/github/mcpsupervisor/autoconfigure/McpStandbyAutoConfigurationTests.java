package io.github.mcpsupervisor.autoconfigure;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import io.github.mcpsupervisor.actuate.McpEndpoint.McpServerDetails.Standby;
import io.github.mcpsupervisor.actuate.McpServersHealthContributor;
import io.github.mcpsupervisor.autoconfigure.health.McpHealthContributorAutoConfiguration;
import io.github.mcpsupervisor.autoconfigure.internal.McpConnectorFactory;
import io.github.mcpsupervisor.autoconfigure.metrics.McpMetricsAutoConfiguration;
import io.github.mcpsupervisor.supervisor.FakeConnector;
import io.github.mcpsupervisor.supervisor.McpServerState;
import io.github.mcpsupervisor.supervisor.McpServerSupervisor;
import io.github.mcpsupervisor.supervisor.McpStandbyStatus.McpStandbyState;
import io.github.mcpsupervisor.supervisor.McpSupervisors;
import io.github.mcpsupervisor.tool.McpSupervisorToolCallbackProvider;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.health.autoconfigure.contributor.HealthContributorAutoConfiguration;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.boot.test.context.assertj.AssertableApplicationContext;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * {@code standby.enabled} through the auto-configuration: the server keeps a ready spare
 * that serves at once when the serving generation is lost, shown in health and counted by
 * the metrics; a server without it keeps none.
 */
class McpStandbyAutoConfigurationTests {

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withConfiguration(
				AutoConfigurations.of(McpSupervisorAutoConfiguration.class, McpHealthContributorAutoConfiguration.class,
						McpMetricsAutoConfiguration.class, HealthContributorAutoConfiguration.class))
		.withUserConfiguration(FakeServers.class)
		.withPropertyValues("mcp.servers.files.command=files", "mcp.servers.web.command=web",
				"mcp.defaults.standby.enabled=true", "mcp.servers.web.standby.enabled=false");

	@Test
	void runWithAStandbyShouldPromoteTheReadySpareWhenTheServingGenerationIsLost() {
		this.contextRunner.run((context) -> {
			McpServerSupervisor files = context.getBean(McpSupervisors.class).supervisor("files");
			await().atMost(Duration.ofSeconds(30))
				.until(() -> files.status().standby(), (standby) -> standby.state() == McpStandbyState.READY);
			int serving = files.status().generation();
			int spare = files.status().standby().generation();
			Standby standby = standby(context, "files");
			assertThat(standby).isNotNull();
			assertThat(standby.state()).isEqualTo(McpStandbyState.READY);
			assertThat(standby.generation()).isEqualTo(spare);
			context.getBean(FakeServers.class).connectors.get("files").generation(serving).crash(137);
			await().atMost(Duration.ofSeconds(30)).until(() -> files.status().standby().promotions() == 1);
			assertThat(files.state()).isEqualTo(McpServerState.UP);
			assertThat(files.status().generation()).isEqualTo(spare);
			assertThat(context.getBean(McpSupervisorToolCallbackProvider.class).getToolCallbacks())
				.extracting((callback) -> callback.getToolDefinition().name())
				.containsExactly("files_read", "files_search", "web_read", "web_search");
			assertThat(context.getBean(MeterRegistry.class)
				.get("mcp.supervisor.promotions")
				.tags("server", "files")
				.counter()
				.count()).isOne();
		});
	}

	@Test
	void runWithAServerThatTurnsTheStandbyOffShouldKeepNoSpareOfIt() {
		this.contextRunner.run((context) -> {
			McpServerSupervisor web = context.getBean(McpSupervisors.class).supervisor("web");
			await().atMost(Duration.ofSeconds(30)).until(web::state, (state) -> state == McpServerState.UP);
			assertThat(web.status().standby()).isNull();
			assertThat(standby(context, "web")).isNull();
			assertThat(context.getBean(FakeServers.class).connectors.get("web").last().generation()).isOne();
		});
	}

	private static @Nullable Standby standby(AssertableApplicationContext context, String server) {
		HealthIndicator health = (HealthIndicator) context.getBean(McpServersHealthContributor.class)
			.getContributor(server);
		assertThat(health).isNotNull();
		return (Standby) health.health().getDetails().get("standby");
	}

	/** Servers named after their command, each with a read and a search tool. */
	@Configuration(proxyBeanMethods = false)
	static class FakeServers {

		final Map<String, FakeConnector> connectors = new ConcurrentHashMap<>();

		@Bean
		MeterRegistry meterRegistry() {
			return new SimpleMeterRegistry();
		}

		@Bean
		McpConnectorFactory fakeConnectors() {
			return (server) -> {
				FakeConnector connector = new FakeConnector();
				connector.serverTools = List.of(FakeConnector.tool("read"), FakeConnector.tool("search"));
				this.connectors.put(server.name(), connector);
				return connector;
			};
		}

	}

}
