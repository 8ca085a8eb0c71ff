package io.github.mcpsupervisor.autoconfigure.properties.internal;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import org.springframework.beans.factory.config.BeanFactoryPostProcessor;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.ConfigurationPropertyName;
import org.springframework.core.Ordered;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.core.env.Environment;

/**
 * Checks the keys of the {@code mcp.*} configuration before it is bound: fails the start
 * when binding would change the name of a server as it is written, or mix up the tools of
 * {@code call.timeouts} written without brackets, and warns of each {@code MCP_*}
 * environment variable and {@code mcp.*} system property that binds to nothing, which
 * Spring Boot would ignore without a word.
 *
 * @since 0.1.0
 */
public final class McpPropertyKeysCheck implements BeanFactoryPostProcessor, Ordered {

	private static final Log logger = LogFactory.getLog(McpPropertyKeysCheck.class);

	private final Environment environment;

	/**
	 * Creates the check of an environment.
	 * @param environment the environment
	 */
	public McpPropertyKeysCheck(Environment environment) {
		this.environment = environment;
	}

	@Override
	public int getOrder() {
		return Ordered.HIGHEST_PRECEDENCE + 10;
	}

	@Override
	public void postProcessBeanFactory(ConfigurableListableBeanFactory beanFactory) {
		if (this.environment instanceof ConfigurableEnvironment configurable) {
			check(configurable).forEach(logger::warn);
		}
	}

	/**
	 * Checks the keys of an environment.
	 * @param environment the environment
	 * @return a warning for each variable or system property that binds to nothing
	 * @throws McpServerNameException if binding would change a server's name or mix up
	 * the tools of {@code call.timeouts}
	 */
	static List<String> check(ConfigurableEnvironment environment) {
		McpServerNames names = McpServerNames.of(environment);
		List<String> problems = new ArrayList<>(names.problems());
		problems.addAll(McpToolTimeoutKeys.problems(environment));
		if (!problems.isEmpty()) {
			throw new McpServerNameException(problems);
		}
		List<Pattern> inherited = inherited(environment, names);
		return new UnboundMcpVariables(names.bound()).warnings(environment,
				(variable) -> inherited.stream().anyMatch((pattern) -> pattern.matcher(variable).matches()));
	}

	// the inherit-env entries of mcp.defaults and of each server: a variable a server
	// inherits is used
	private static List<Pattern> inherited(ConfigurableEnvironment environment, McpServerNames names) {
		Binder binder = Binder.get(environment);
		List<ConfigurationPropertyName> properties = new ArrayList<>();
		properties.add(ConfigurationPropertyName.of("mcp.defaults.inherit-env"));
		names.entries().forEach((entry) -> properties.add(entry.append("inherit-env")));
		List<Pattern> patterns = new ArrayList<>();
		for (ConfigurationPropertyName property : properties) {
			try {
				binder.bind(property, Bindable.listOf(String.class))
					.orElse(List.of())
					.forEach((entry) -> patterns.add(glob(entry)));
			}
			catch (RuntimeException ex) {
				// the binding of the properties reports it
			}
		}
		return patterns;
	}

	private static Pattern glob(String entry) {
		return Pattern.compile(Stream.of(entry.split("\\*", -1)).map(Pattern::quote).collect(Collectors.joining(".*")));
	}

}
