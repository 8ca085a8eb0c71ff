package io.github.mcpsupervisor.autoconfigure;

import java.util.Collection;

import io.github.mcpsupervisor.tool.McpSupervisorToolCallbackProvider;
import org.jspecify.annotations.Nullable;

import org.springframework.ai.tool.ToolCallbackProvider;
import org.springframework.beans.factory.NoUniqueBeanDefinitionException;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.core.Ordered;
import org.springframework.core.env.Environment;

/**
 * Explains a single {@link ToolCallbackProvider} that cannot be injected because the
 * application sets {@value SpringAiToolCallbackEnvironmentPostProcessor#PROPERTY} to
 * {@code true}, which brings Spring AI's MCP tool callback provider back next to the
 * supervised tools' one. Ordered before Spring Boot's analyzer of the same failure, which
 * cannot name the property.
 */
class SpringAiToolCallbackProviderFailureAnalyzer extends AbstractFailureAnalyzer<NoUniqueBeanDefinitionException>
		implements Ordered {

	private final @Nullable Environment environment;

	SpringAiToolCallbackProviderFailureAnalyzer(@Nullable Environment environment) {
		this.environment = environment;
	}

	@Override
	public int getOrder() {
		return Ordered.HIGHEST_PRECEDENCE;
	}

	@Override
	protected @Nullable FailureAnalysis analyze(Throwable rootFailure, NoUniqueBeanDefinitionException cause) {
		Class<?> type = cause.getBeanType();
		// the type both providers are: ToolCallbackProvider
		if (this.environment == null || type == null || !ToolCallbackProvider.class.isAssignableFrom(type)
				|| !type.isAssignableFrom(McpSupervisorToolCallbackProvider.class)
				|| !Binder.get(this.environment)
					.bind(SpringAiToolCallbackEnvironmentPostProcessor.PROPERTY, Boolean.class)
					.orElse(false)) {
			return null;
		}
		Collection<String> names = cause.getBeanNamesFound();
		String found = (names != null) ? ": " + String.join(", ", names) : "";
		String description = String.format("A single %s is required, but %d were found%s.%n"
				+ "The application sets %s=true, which brings back Spring AI's MCP tool callback provider next to "
				+ "mcp-supervisor's. Spring AI's holds no tools: its MCP client has no connections next to "
				+ "mcp.servers.", type.getSimpleName(), cause.getNumberOfBeansFound(), found,
				SpringAiToolCallbackEnvironmentPostProcessor.PROPERTY);
		String action = String.format(
				"Remove %s (mcp-supervisor sets it to false while mcp.enabled is not "
						+ "false), or set it to false; or inject %s instead of %s.",
				SpringAiToolCallbackEnvironmentPostProcessor.PROPERTY,
				McpSupervisorToolCallbackProvider.class.getSimpleName(), type.getSimpleName());
		return new FailureAnalysis(description, action, cause);
	}

}
