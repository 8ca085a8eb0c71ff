package io.github.mcpsupervisor.autoconfigure.properties.internal;

import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

import io.github.mcpsupervisor.autoconfigure.properties.McpSupervisorProperties;
import io.github.mcpsupervisor.internal.CauseChain;
import io.github.mcpsupervisor.internal.ServerText;
import jakarta.validation.ConstraintViolation;
import jakarta.validation.Validation;
import jakarta.validation.Validator;
import org.jspecify.annotations.Nullable;

import org.springframework.boot.context.properties.bind.BindHandler;
import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.bind.handler.NoUnboundElementsBindHandler;
import org.springframework.boot.context.properties.bind.validation.ValidationBindHandler;
import org.springframework.boot.context.properties.source.ConfigurationPropertyName;
import org.springframework.boot.context.properties.source.MapConfigurationPropertySource;
import org.springframework.boot.context.properties.source.UnboundElementsSourceFilter;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.validation.MessageInterpolatorFactory;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.core.env.Environment;
import org.springframework.core.io.ResourceLoader;
import org.springframework.util.ClassUtils;
import org.springframework.validation.beanvalidation.SpringValidatorAdapter;

/**
 * Binds and validates the {@code mcp.*} properties while the application runs, with the
 * rules Spring Boot applies at startup: the server names of {@link McpPropertyKeysCheck},
 * unknown keys refused (but those of environment variables and system properties, which
 * that check reports), and Bean Validation when an implementation is on the class path.
 *
 * @since 0.1.0
 */
public final class McpPropertiesBinder {

	private static final String[] VALIDATION_CLASSES = { "jakarta.validation.Validator",
			"jakarta.validation.ValidatorFactory", "jakarta.validation.bootstrap.GenericBootstrap",
			"org.hibernate.validator.HibernateValidator" };

	private final @Nullable Validator validator;

	/**
	 * Creates a binder that validates when Bean Validation is on the class path.
	 */
	public McpPropertiesBinder() {
		this.validator = validator();
	}

	private static @Nullable Validator validator() {
		ClassLoader classLoader = McpPropertiesBinder.class.getClassLoader();
		for (String type : VALIDATION_CLASSES) {
			if (!ClassUtils.isPresent(type, classLoader)) {
				return null;
			}
		}
		return Validation.byDefaultProvider()
			.configure()
			.messageInterpolator(new MessageInterpolatorFactory().getObject())
			.buildValidatorFactory()
			.getValidator();
	}

	/**
	 * Binds {@code mcp.*} from an environment as it is now.
	 * @param environment the environment
	 * @return the properties
	 * @throws McpServerNameException if binding would change a server's name
	 * @throws org.springframework.boot.context.properties.bind.BindException if a
	 * property is unknown (outside environment variables and system properties), cannot
	 * be converted or is invalid
	 */
	public McpSupervisorProperties bind(ConfigurableEnvironment environment) {
		McpPropertyKeysCheck.check(environment);
		// Spring Boot's rule at startup: environment variables and system properties are
		// exempt, since its check reads a variable bound in the legacy form as unbound
		BindHandler handler = new NoUnboundElementsBindHandler(BindHandler.DEFAULT, new UnboundElementsSourceFilter());
		if (this.validator != null) {
			handler = new ValidationBindHandler(handler, new SpringValidatorAdapter(this.validator));
		}
		return Binder.get(environment).bindOrCreate("mcp", Bindable.of(McpSupervisorProperties.class), handler);
	}

	/**
	 * Describes why {@link #bind} or {@link #readServersFiles} refused the configuration
	 * as the failure of a start describes it: each property by the name it is written
	 * with, its value with its secrets masked, where it is written and the rule it
	 * breaks. No character of a value starts a line of its own.
	 * @param ex what was thrown
	 * @param environment the environment the properties were bound from
	 * @return the description, for a log line
	 */
	public static String describe(RuntimeException ex, Environment environment) {
		if (ex instanceof McpServerNameException) {
			// the keys as written and where, never a value
			return String.valueOf(ex.getMessage());
		}
		if (ex instanceof McpServersFileException) {
			// the file, the entry and the problem, on one line
			return ServerText.forLog(String.valueOf(ex.getMessage()));
		}
		FailureAnalysis analysis = new McpConfigurationFailureAnalyzer(environment).analyze(ex);
		if (analysis != null) {
			return analysis.getDescription() + String.format("%n%n") + analysis.getAction();
		}
		return ServerText.forLog(ex.getClass().getSimpleName() + ": " + CauseChain.rootMessage(ex));
	}

	/**
	 * Reads the files of {@code mcp.servers-configuration} again and puts their servers
	 * in the environment in place of those read before, as at startup.
	 * @param environment the environment
	 * @param resources loads the files
	 * @return puts back what the files gave before, for a reading that is refused later
	 * @throws McpServersFileException if a file cannot be read or is invalid; the
	 * environment is then left as it was
	 */
	public static Runnable readServersFiles(ConfigurableEnvironment environment, ResourceLoader resources) {
		return McpServersFileEnvironmentPostProcessor.install(environment, resources);
	}

	/**
	 * Returns the contents of the files of {@code mcp.servers-configuration} that the
	 * servers of the environment were read from, as they were read: what a watch of the
	 * files compares them with.
	 * @param environment the environment
	 * @return the content of each file, by its location as configured
	 */
	public static Map<String, byte[]> serversFilesContents(ConfigurableEnvironment environment) {
		return McpServersFileEnvironmentPostProcessor.contents(environment);
	}

	/**
	 * Returns the locations of {@code mcp.servers-configuration}.
	 * @param environment the environment
	 * @return the locations, as configured
	 */
	public static List<String> serversFiles(ConfigurableEnvironment environment) {
		return McpServersFileEnvironmentPostProcessor.locations(environment);
	}

	/**
	 * Binds a server from its properties as they are written under
	 * {@code mcp.servers.<name>}, e.g. {@code command}, {@code args[0]},
	 * {@code env.TOKEN}, {@code reconnect.max-attempts}: the way to give the API that
	 * adds servers at runtime a server without writing every component of
	 * {@link McpSupervisorProperties.Server}. Unknown keys are refused.
	 * @param properties the server's properties
	 * @return the server, not yet validated
	 * @throws org.springframework.boot.context.properties.bind.BindException if a
	 * property is unknown or cannot be converted
	 * @throws IllegalArgumentException if a tool name of {@code call.timeouts} is written
	 * without the brackets it needs
	 */
	public static McpSupervisorProperties.Server server(Map<String, ?> properties) {
		Map<String, Object> prefixed = new LinkedHashMap<>();
		properties.forEach((key, value) -> {
			String problem = McpToolTimeoutKeys.problem(key);
			if (problem != null) {
				throw new IllegalArgumentException(key + ": " + problem);
			}
			prefixed.put("server." + key, value);
		});
		return new Binder(new MapConfigurationPropertySource(prefixed)).bindOrCreate("server",
				Bindable.of(McpSupervisorProperties.Server.class),
				new NoUnboundElementsBindHandler(BindHandler.DEFAULT));
	}

	/**
	 * Checks one server as if it were configured as {@code mcp.servers.<name>} next to
	 * the others: its name, its settings, and those it inherits from the defaults.
	 * @param name the server's name
	 * @param server the server
	 * @param properties the bound properties, for the defaults
	 * @throws IllegalArgumentException naming each broken rule
	 */
	public void validate(String name, McpSupervisorProperties.Server server, McpSupervisorProperties properties) {
		if (!name.matches(McpSupervisorProperties.SERVER_NAME)) {
			throw new IllegalArgumentException(
					"Invalid MCP server name '" + name + "': must be 1 to 32 letters, digits, '_' or '-'");
		}
		if (!server.isEnabled()) {
			throw new IllegalArgumentException("MCP server '" + name + "' is disabled: remove it instead");
		}
		if (this.validator == null) {
			return;
		}
		McpSupervisorProperties candidate = new McpSupervisorProperties(true, properties.defaults(),
				Map.of(name, server), properties.serversConfiguration(), properties.clientType(),
				properties.runtimeDirectory(), properties.reload(), properties.authorization(),
				properties.maxConcurrentStarts());
		Set<ConstraintViolation<McpSupervisorProperties>> violations = this.validator.validate(candidate);
		if (!violations.isEmpty()) {
			throw new IllegalArgumentException("Invalid MCP server '" + name + "': "
					+ violations.stream()
						.map((violation) -> violation.getPropertyPath() + " " + violation.getMessage())
						.sorted(Comparator.naturalOrder())
						.collect(Collectors.joining("; ")));
		}
	}

	/**
	 * Returns whether two server names are one name to Spring Boot's relaxed binding
	 * ({@code my-server} and {@code My_Server}), so that both cannot be configured.
	 * @param name a name
	 * @param other another name
	 * @return whether they are one name
	 */
	public static boolean sameName(String name, String other) {
		return ConfigurationPropertyName.adapt(McpServerNames.key(name), '.')
			.equals(ConfigurationPropertyName.adapt(McpServerNames.key(other), '.'));
	}

}
