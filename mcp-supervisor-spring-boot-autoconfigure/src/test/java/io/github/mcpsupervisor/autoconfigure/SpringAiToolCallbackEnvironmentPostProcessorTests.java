package io.github.mcpsupervisor.autoconfigure;

import org.junit.jupiter.api.Test;

import org.springframework.boot.SpringApplication;
import org.springframework.mock.env.MockEnvironment;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link SpringAiToolCallbackEnvironmentPostProcessor}.
 */
class SpringAiToolCallbackEnvironmentPostProcessorTests {

	private static final String SUPERVISOR = McpSupervisorAutoConfiguration.class.getName();

	@Test
	void postProcessWhenTheSupervisorIsEnabledShouldSwitchSpringAisToolCallbacksOff() {
		assertThat(
				postProcess(new MockEnvironment()).getProperty(SpringAiToolCallbackEnvironmentPostProcessor.PROPERTY))
			.isEqualTo("false");
	}

	@Test
	void postProcessWhenTheSupervisorIsDisabledShouldLeaveSpringAisToolCallbacksOn() {
		assertThat(postProcess(new MockEnvironment().withProperty("mcp.enabled", "false"))
			.getProperty(SpringAiToolCallbackEnvironmentPostProcessor.PROPERTY)).isNull();
	}

	@Test
	void postProcessWhenTheSupervisorIsExcludedInACommaListShouldLeaveSpringAisToolCallbacksOn() {
		assertThat(postProcess(new MockEnvironment().withProperty("spring.autoconfigure.exclude",
				"com.example.OtherAutoConfiguration, " + SUPERVISOR))
			.getProperty(SpringAiToolCallbackEnvironmentPostProcessor.PROPERTY)).isNull();
	}

	@Test
	void postProcessWhenTheSupervisorIsExcludedInAnIndexedListShouldLeaveSpringAisToolCallbacksOn() {
		assertThat(postProcess(new MockEnvironment()
			.withProperty("spring.autoconfigure.exclude[0]", "com.example.OtherAutoConfiguration")
			.withProperty("spring.autoconfigure.exclude[1]", SUPERVISOR))
			.getProperty(SpringAiToolCallbackEnvironmentPostProcessor.PROPERTY)).isNull();
	}

	@Test
	void postProcessWhenAnotherAutoConfigurationIsExcludedShouldSwitchSpringAisToolCallbacksOff() {
		assertThat(postProcess(new MockEnvironment().withProperty("spring.autoconfigure.exclude",
				"com.example.OtherAutoConfiguration"))
			.getProperty(SpringAiToolCallbackEnvironmentPostProcessor.PROPERTY)).isEqualTo("false");
	}

	private static MockEnvironment postProcess(MockEnvironment environment) {
		new SpringAiToolCallbackEnvironmentPostProcessor().postProcessEnvironment(environment, new SpringApplication());
		return environment;
	}

}
