package io.github.mcpsupervisor.autoconfigure;

import java.util.List;
import java.util.Map;

import org.springframework.boot.EnvironmentPostProcessor;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.context.config.ConfigDataEnvironmentPostProcessor;
import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.core.Ordered;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.core.env.MapPropertySource;
import org.springframework.util.ClassUtils;

/**
 * Switches Spring AI's MCP tool callback auto-configuration off by default while the
 * supervisor is enabled and not excluded ({@code spring.autoconfigure.exclude}), so that
 * the supervised tools' provider is the one {@code ToolCallbackProvider} to inject:
 * Spring AI's own provider would hold its clients' tools, and its client may not have
 * connections next to the supervisor's (see {@link SpringAiMcpClientCheck}). A value the
 * application sets wins.
 */
class SpringAiToolCallbackEnvironmentPostProcessor implements EnvironmentPostProcessor, Ordered {

	/** The property that switches Spring AI's MCP tool callback provider on or off. */
	static final String PROPERTY = "spring.ai.mcp.client.toolcallback.enabled";

	/** Spring Boot's property of the auto-configurations to leave out. */
	static final String EXCLUDE = "spring.autoconfigure.exclude";

	/** The name of the property source that holds its default. */
	static final String SOURCE_NAME = "mcpSupervisorSpringAiDefaults";

	/**
	 * Spring AI's MCP tool callback auto-configuration, not a dependency of this module.
	 */
	static final String SPRING_AI_TOOL_CALLBACKS = "org.springframework.ai.mcp.client.common.autoconfigure.McpToolCallbackAutoConfiguration";

	@Override
	public int getOrder() {
		// after application.properties and profiles, which may set mcp.enabled
		return ConfigDataEnvironmentPostProcessor.ORDER + 1;
	}

	@Override
	public void postProcessEnvironment(ConfigurableEnvironment environment, SpringApplication application) {
		Binder binder = Binder.get(environment);
		if (!ClassUtils.isPresent(SPRING_AI_TOOL_CALLBACKS, application.getClassLoader())
				|| !binder.bind("mcp.enabled", Boolean.class).orElse(true)
				|| binder.bind(EXCLUDE, Bindable.listOf(String.class))
					.orElse(List.of())
					.contains(McpSupervisorAutoConfiguration.class.getName())) {
			return;
		}
		environment.getPropertySources().addLast(new MapPropertySource(SOURCE_NAME, Map.of(PROPERTY, "false")));
	}

}
