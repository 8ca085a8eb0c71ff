package io.github.mcpsupervisor.autoconfigure;

import java.time.Duration;
import java.util.List;

import io.github.mcpsupervisor.actuate.McpEndpoint;
import io.github.mcpsupervisor.actuate.McpEndpointWebExtension;
import io.github.mcpsupervisor.actuate.McpServersHealthIndicator;
import io.github.mcpsupervisor.metrics.McpSupervisorMetrics;
import io.github.mcpsupervisor.supervisor.McpSupervisors;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;

import org.springframework.boot.actuate.autoconfigure.endpoint.EndpointAutoConfiguration;
import org.springframework.boot.actuate.autoconfigure.endpoint.web.WebEndpointAutoConfiguration;
import org.springframework.boot.actuate.endpoint.SecurityContext;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.health.autoconfigure.contributor.HealthContributorAutoConfiguration;
import org.springframework.boot.health.contributor.Status;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Auto-configuration of the health component, the endpoint and the metrics.
 */
class McpActuatorAutoConfigurationTests {

	private static final String MISSING = "/nonexistent/mcp-server";

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(McpSupervisorAutoConfiguration.class,
				McpHealthContributorAutoConfiguration.class, McpEndpointAutoConfiguration.class,
				McpMetricsAutoConfiguration.class, HealthContributorAutoConfiguration.class,
				EndpointAutoConfiguration.class, WebEndpointAutoConfiguration.class))
		.withPropertyValues("mcp.servers[0].name=broken", "mcp.servers[0].command=" + MISSING,
				"mcp.servers[0].env.API_TOKEN=s3cr3t");

	@Test
	void runShouldProvideTheHealthIndicator() {
		this.contextRunner.run((context) -> assertThat(context).hasSingleBean(McpServersHealthIndicator.class)
			.hasBean("mcpHealthIndicator"));
	}

	@Test
	void runWhenTheHealthIndicatorIsDisabledShouldNotProvideIt() {
		this.contextRunner.withPropertyValues("management.health.mcp.enabled=false")
			.run((context) -> assertThat(context).doesNotHaveBean(McpServersHealthIndicator.class));
	}

	@Test
	void runWithAUserDefinedHealthIndicatorShouldBackOff() {
		this.contextRunner
			.withBean("mcpHealthIndicator", McpServersHealthIndicator.class,
					() -> new McpServersHealthIndicator(new McpSupervisors(List.of()), java.time.Clock.systemUTC()))
			.run((context) -> assertThat(context.getBean(McpServersHealthIndicator.class).health().getDetails())
				.isEmpty());
	}

	@Test
	void runWithAnOptionalServerThatFailedShouldBeUpWithTheFailureInTheDetails() {
		this.contextRunner.run((context) -> {
			var health = context.getBean(McpServersHealthIndicator.class).health();
			assertThat(health.getStatus()).isEqualTo(Status.UP);
			assertThat(health.getDetails()).extractingByKey("broken")
				.asString()
				.contains("state=FAILED")
				.contains("required=false")
				.contains(MISSING);
		});
	}

	@Test
	void runWithARequiredServerThatIsNotUpShouldBeDown() {
		this.contextRunner.withPropertyValues("mcp.servers[0].required=true")
			.run((context) -> assertThat(context.getBean(McpServersHealthIndicator.class).health().getStatus())
				.isEqualTo(Status.DOWN));
	}

	@Test
	void runWhenTheEndpointIsNotExposedShouldNotProvideIt() {
		this.contextRunner.run((context) -> assertThat(context).doesNotHaveBean(McpEndpoint.class)
			.doesNotHaveBean(McpEndpointWebExtension.class));
	}

	@Test
	void runWhenTheEndpointIsExposedShouldProvideItAndItsWebExtension() {
		this.contextRunner.withPropertyValues("management.endpoints.web.exposure.include=mcp")
			.run((context) -> assertThat(context).hasSingleBean(McpEndpoint.class)
				.hasSingleBean(McpEndpointWebExtension.class));
	}

	@Test
	void runWhenTheEndpointsAccessIsNoneShouldNotProvideIt() {
		this.contextRunner
			.withPropertyValues("management.endpoints.web.exposure.include=mcp", "management.endpoint.mcp.access=NONE")
			.run((context) -> assertThat(context).doesNotHaveBean(McpEndpoint.class));
	}

	@Test
	void runWithAUserDefinedEndpointShouldBackOff() {
		McpEndpoint mine = new McpEndpoint(new McpSupervisors(List.of()), (name) -> null,
				org.springframework.boot.actuate.endpoint.Show.NEVER, java.util.Set.of(), java.time.Clock.systemUTC());
		this.contextRunner.withPropertyValues("management.endpoints.web.exposure.include=mcp")
			.withBean(McpEndpoint.class, () -> mine)
			.run((context) -> assertThat(context.getBean(McpEndpoint.class)).isSameAs(mine));
	}

	@Test
	void runShouldMaskEnvironmentValuesByDefault() {
		this.contextRunner.withPropertyValues("management.endpoints.web.exposure.include=mcp")
			.run((context) -> assertThat(context.getBean(McpEndpoint.class).server("broken", SecurityContext.NONE))
				.extractingByKey("configuration")
				.asString()
				.contains("env={API_TOKEN=******}")
				.doesNotContain("s3cr3t"));
	}

	@Test
	void runWithShowValuesAlwaysShouldShowEnvironmentValues() {
		this.contextRunner
			.withPropertyValues("management.endpoints.web.exposure.include=mcp",
					"management.endpoint.mcp.show-values=always")
			.run((context) -> assertThat(context.getBean(McpEndpoint.class).server("broken", SecurityContext.NONE))
				.extractingByKey("configuration")
				.asString()
				.contains("env={API_TOKEN=s3cr3t}"));
	}

	@Test
	void runWithAMeterRegistryShouldProvideTheMetrics() {
		this.contextRunner.withBean(MeterRegistry.class, SimpleMeterRegistry::new).run((context) -> {
			assertThat(context).hasSingleBean(McpSupervisorMetrics.class);
			MeterRegistry registry = context.getBean(MeterRegistry.class);
			// notifications follow the first outcome that start() waits for by a moment
			await().atMost(Duration.ofSeconds(10))
				.untilAsserted(() -> assertThat(registry.get("mcp.supervisor.state")
					.tags("server", "broken", "state", "failed")
					.gauge()
					.value()).isEqualTo(1.0));
			assertThat(registry.get("mcp.supervisor.attempts").tag("outcome", "failure").counter().count())
				.isEqualTo(1.0);
		});
	}

	@Test
	void runWithoutAMeterRegistryShouldNotProvideTheMetrics() {
		this.contextRunner.run((context) -> assertThat(context).doesNotHaveBean(McpSupervisorMetrics.class));
	}

	@Test
	void runWithUserDefinedMetricsShouldBackOff() {
		McpSupervisorMetrics mine = new McpSupervisorMetrics(new SimpleMeterRegistry());
		this.contextRunner.withBean(MeterRegistry.class, SimpleMeterRegistry::new)
			.withBean(McpSupervisorMetrics.class, () -> mine)
			.run((context) -> assertThat(context.getBean(McpSupervisorMetrics.class)).isSameAs(mine));
	}

}
