package io.github.mcpsupervisor.autoconfigure;

import org.junit.jupiter.api.Test;

import org.springframework.ai.tool.ToolCallbackProvider;
import org.springframework.beans.factory.NoUniqueBeanDefinitionException;
import org.springframework.mock.env.MockEnvironment;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link SpringAiToolCallbackProviderFailureAnalyzer}.
 */
class SpringAiToolCallbackProviderFailureAnalyzerTests {

	private static final NoUniqueBeanDefinitionException PROVIDERS = new NoUniqueBeanDefinitionException(
			ToolCallbackProvider.class, "mcpSupervisorToolCallbackProvider", "mcpToolCallbacks");

	@Test
	void analyzeWhenTheApplicationSetsThePropertyShouldNameIt() {
		MockEnvironment environment = new MockEnvironment()
			.withProperty(SpringAiToolCallbackEnvironmentPostProcessor.PROPERTY, "true");
		assertThat(new SpringAiToolCallbackProviderFailureAnalyzer(environment).analyze(PROVIDERS))
			.satisfies((analysis) -> {
				assertThat(analysis.getDescription()).contains("2 were found: mcpSupervisorToolCallbackProvider")
					.contains("spring.ai.mcp.client.toolcallback.enabled=true");
				assertThat(analysis.getAction()).startsWith("Remove spring.ai.mcp.client.toolcallback.enabled");
			});
	}

	@Test
	void analyzeWhenThePropertyIsNotSetShouldLeaveTheFailureToSpringBoot() {
		assertThat(new SpringAiToolCallbackProviderFailureAnalyzer(new MockEnvironment()).analyze(PROVIDERS)).isNull();
	}

	@Test
	void analyzeWhenAnotherTypeIsAmbiguousShouldLeaveTheFailureToSpringBoot() {
		MockEnvironment environment = new MockEnvironment()
			.withProperty(SpringAiToolCallbackEnvironmentPostProcessor.PROPERTY, "true");
		assertThat(new SpringAiToolCallbackProviderFailureAnalyzer(environment)
			.analyze(new NoUniqueBeanDefinitionException(Runnable.class, "one", "two"))).isNull();
	}

}
