package io.github.mcpsupervisor.autoconfigure;

import io.github.mcpsupervisor.autoconfigure.observation.McpObservationAutoConfiguration;
import io.github.mcpsupervisor.internal.McpRequestObserver;
import io.github.mcpsupervisor.observation.DefaultMcpRequestObservationConvention;
import io.github.mcpsupervisor.observation.McpRequestObservationConvention;
import io.github.mcpsupervisor.observation.internal.McpRequestObservations;
import io.micrometer.observation.ObservationRegistry;
import io.micrometer.observation.tck.TestObservationRegistry;
import io.micrometer.observation.tck.TestObservationRegistryAssert;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The auto-configuration of the observations of MCP requests.
 */
class McpObservationAutoConfigurationTests {

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(McpObservationAutoConfiguration.class));

	@Test
	void runWithAnObservationRegistryShouldObserveEachRequestWithIt() {
		this.contextRunner.withBean(ObservationRegistry.class, TestObservationRegistry::create).run((context) -> {
			assertThat(context).hasSingleBean(McpRequestObservations.class);
			context.getBean(McpRequestObserver.class).start("demo", "tools/call", "echo", null).end(null, null);
			TestObservationRegistryAssert.assertThat(context.getBean(TestObservationRegistry.class))
				.hasObservationWithNameEqualTo(DefaultMcpRequestObservationConvention.NAME)
				.that()
				.hasLowCardinalityKeyValue("mcp.supervisor.server", "demo")
				.hasBeenStopped();
		});
	}

	@Test
	void runWithoutAnObservationRegistryShouldObserveWithTheNoopRegistry() {
		this.contextRunner
			.run((context) -> assertThat(context.getBean(McpRequestObservations.class)).extracting("registry")
				.isSameAs(ObservationRegistry.NOOP));
	}

	@Test
	void runWithAConventionShouldNameTheObservationsWithIt() {
		this.contextRunner.withBean(ObservationRegistry.class, TestObservationRegistry::create)
			.withBean(McpRequestObservationConvention.class, () -> new DefaultMcpRequestObservationConvention() {

				@Override
				public String getName() {
					return "custom.mcp";
				}

			})
			.run((context) -> {
				context.getBean(McpRequestObserver.class).start("demo", "tools/list", null, null).end(null, null);
				TestObservationRegistryAssert.assertThat(context.getBean(TestObservationRegistry.class))
					.hasObservationWithNameEqualTo("custom.mcp");
			});
	}

	@Test
	void runWithAnObserverOfTheApplicationShouldBackOff() {
		this.contextRunner.withBean(McpRequestObserver.class, () -> McpRequestObserver.NONE)
			.run((context) -> assertThat(context).doesNotHaveBean(McpRequestObservations.class)
				.hasSingleBean(McpRequestObserver.class));
	}

	@Test
	void runWithoutMicrometerObservationShouldBackOff() {
		this.contextRunner.withClassLoader(new FilteredClassLoader(ObservationRegistry.class))
			.run((context) -> assertThat(context).doesNotHaveBean(McpRequestObserver.class));
	}

}
