package io.github.mcpsupervisor.autoconfigure.properties.internal;

import java.net.URI;
import java.net.URISyntaxException;
import java.time.Duration;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import io.github.mcpsupervisor.internal.ConfigurationSanitizer;
import io.github.mcpsupervisor.internal.ServerText;
import org.jspecify.annotations.Nullable;

import org.springframework.boot.context.properties.bind.BindException;
import org.springframework.boot.context.properties.bind.DataObjectPropertyName;
import org.springframework.boot.context.properties.bind.UnboundConfigurationPropertiesException;
import org.springframework.boot.context.properties.bind.validation.BindValidationException;
import org.springframework.boot.context.properties.bind.validation.ValidationErrors;
import org.springframework.boot.context.properties.source.ConfigurationProperty;
import org.springframework.boot.context.properties.source.ConfigurationPropertyName;
import org.springframework.boot.context.properties.source.ConfigurationPropertyName.Form;
import org.springframework.boot.context.properties.source.ConfigurationPropertySource;
import org.springframework.boot.context.properties.source.ConfigurationPropertySources;
import org.springframework.boot.context.properties.source.ConfigurationPropertyState;
import org.springframework.boot.convert.DurationStyle;
import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.core.Ordered;
import org.springframework.core.convert.ConversionFailedException;
import org.springframework.core.env.Environment;
import org.springframework.util.StringUtils;
import org.springframework.validation.FieldError;
import org.springframework.validation.ObjectError;

/**
 * Explains invalid {@code mcp.*} configuration in the user's words: each property by the
 * name it is written with, its value as written with its secrets masked, where it was
 * written, and the rule it breaks. Ordered before Spring Boot's analyzers of binding
 * errors, which name the Java properties of the records instead.
 */
class McpConfigurationFailureAnalyzer extends AbstractFailureAnalyzer<BindException> implements Ordered {

	private static final ConfigurationPropertyName ROOT = ConfigurationPropertyName.of("mcp");

	private static final List<ChronoUnit> UNITS = List.of(ChronoUnit.DAYS, ChronoUnit.HOURS, ChronoUnit.MINUTES,
			ChronoUnit.SECONDS, ChronoUnit.MILLIS);

	private final @Nullable Environment environment;

	McpConfigurationFailureAnalyzer(@Nullable Environment environment) {
		this.environment = environment;
	}

	@Override
	public int getOrder() {
		return Ordered.HIGHEST_PRECEDENCE;
	}

	@Override
	protected @Nullable FailureAnalysis analyze(Throwable rootFailure, BindException cause) {
		if (!ROOT.equals(cause.getName()) && !ROOT.isAncestorOf(cause.getName())) {
			return null;
		}
		List<String> problems = new ArrayList<>();
		String action;
		BindValidationException validation = findCause(cause, BindValidationException.class);
		UnboundConfigurationPropertiesException unbound = findCause(cause,
				UnboundConfigurationPropertiesException.class);
		if (validation != null) {
			ValidationErrors errors = validation.getValidationErrors();
			for (ObjectError error : errors.getAllErrors()) {
				problems.add(validationProblem(errors, error));
			}
			action = "Correct the values above.";
		}
		else if (unbound != null) {
			for (ConfigurationProperty property : unbound.getUnboundProperties()) {
				problems.add(problem(property.getName(), property, null,
						"is not a known property: no setting of the MCP supervisor has this name"));
			}
			action = "Correct or remove the properties above: a server's settings are "
					+ "mcp.servers.<name>.<property>, the settings shared by all servers mcp.defaults.<property>.";
		}
		else {
			ConfigurationProperty property = cause.getProperty();
			ConfigurationPropertyName name = (property != null) ? property.getName() : cause.getName();
			problems.add(problem(name, (property != null) ? property : lookup(name, List.of()), null, rule(cause)));
			action = "Correct the value above.";
		}
		String description = String.format("Invalid MCP supervisor configuration:%n%n%s",
				String.join(String.format("%n%n"), problems));
		return new FailureAnalysis(description, action + " The configuration reference of mcp-supervisor "
				+ "(docs/configuration.md) describes every property and its rule.", cause);
	}

	private String validationProblem(ValidationErrors errors, ObjectError error) {
		ConfigurationPropertyName name = ConfigurationPropertyName.ofIfValid(error.getObjectName());
		Object rejected = null;
		if (error instanceof FieldError fieldError) {
			name = ConfigurationPropertyName
				.ofIfValid(error.getObjectName() + "." + DataObjectPropertyName.toDashedForm(fieldError.getField()));
			rejected = fieldError.getRejectedValue();
		}
		if (name == null) {
			return String.format("    %s%n    Rule: %s", error, error.getDefaultMessage());
		}
		List<ConfigurationProperty> bound = List.copyOf(errors.getBoundProperties());
		ConfigurationProperty property = lookup(name, bound);
		if (property == null && setBelow(name, bound)) {
			// a map, a list or a group: its entries are the values, never shown
			return String.format(
					"    Property: %s%n    Value: set by the properties under it (not shown)%n    Rule: %s",
					ServerText.forLog(written(name)), error.getDefaultMessage());
		}
		return problem(name, property, rejected, String.valueOf(error.getDefaultMessage()));
	}

	private boolean setBelow(ConfigurationPropertyName name, List<ConfigurationProperty> bound) {
		if (bound.stream().anyMatch((property) -> name.isAncestorOf(property.getName()))) {
			return true;
		}
		if (this.environment != null) {
			for (ConfigurationPropertySource source : ConfigurationPropertySources.get(this.environment)) {
				if (source.containsDescendantOf(name) == ConfigurationPropertyState.PRESENT) {
					return true;
				}
			}
		}
		return false;
	}

	// the property as the user wrote it: bound by this binding, or else looked up in the
	// environment
	private @Nullable ConfigurationProperty lookup(ConfigurationPropertyName name, List<ConfigurationProperty> bound) {
		for (ConfigurationProperty property : bound) {
			if (property.getName().equals(name)) {
				return property;
			}
		}
		if (this.environment != null) {
			for (ConfigurationPropertySource source : ConfigurationPropertySources.get(this.environment)) {
				ConfigurationProperty property = source.getConfigurationProperty(name);
				if (property != null) {
					return property;
				}
			}
		}
		return null;
	}

	private static String problem(ConfigurationPropertyName name, @Nullable ConfigurationProperty property,
			@Nullable Object inEffect, String rule) {
		StringBuilder problem = new StringBuilder(String.format("    Property: %s", ServerText.forLog(written(name))));
		if (property != null) {
			problem.append(String.format("%n    Value: %s", masked(name, property.getValue())));
			if (property.getOrigin() != null) {
				problem.append(String.format("%n    Origin: %s", property.getOrigin()));
			}
		}
		else if (inEffect != null) {
			problem.append(String.format("%n    Value: not set (in effect: %s)",
					masked(name, (inEffect instanceof Duration) ? format(inEffect) : inEffect)));
		}
		else {
			problem.append(String.format("%n    Value: not set"));
		}
		problem.append(String.format("%n    Rule: %s", rule));
		return problem.toString();
	}

	// A value as it may be shown, on the line of its property: headers and environment
	// variables are masked whole (their values are credentials), URLs and arguments as
	// everywhere else, any value whose key looks like a credential's, and no character
	// of it can start a line of its own.
	private static String masked(ConfigurationPropertyName name, @Nullable Object value) {
		for (int i = 0; i < name.getNumberOfElements(); i++) {
			String element = name.getElement(i, Form.UNIFORM);
			if (element.equals("headers") || element.equals("env")) {
				return ConfigurationSanitizer.MASK;
			}
		}
		String last = name.getLastElement(Form.ORIGINAL);
		if (ConfigurationSanitizer.isLikelyCredential(last)) {
			return ConfigurationSanitizer.MASK;
		}
		if (value instanceof Collection<?> values) {
			// the arguments of a command line: a key and its value may be two elements
			return ServerText.forLog(String.valueOf(ConfigurationSanitizer
				.sanitizeArgs(values.stream().map(String::valueOf).toList(), ConfigurationSanitizer.MASK_ALL)));
		}
		if (value instanceof Map<?, ?> entries) {
			Map<String, String> shown = new LinkedHashMap<>();
			entries.forEach((key, entry) -> shown.put(String.valueOf(key),
					ConfigurationSanitizer.isLikelyCredential(String.valueOf(key)) ? ConfigurationSanitizer.MASK
							: masked(String.valueOf(entry))));
			return ServerText.forLog(shown.toString());
		}
		return ServerText.forLog(masked(String.valueOf(value)));
	}

	private static String masked(String text) {
		if (text.contains("://") || text.contains("@")) {
			try {
				return ConfigurationSanitizer.sanitizeUrl(new URI(text), ConfigurationSanitizer.MASK_ALL);
			}
			catch (URISyntaxException ex) {
				return ConfigurationSanitizer.MASK; // not a URL after all: maybe a secret
			}
		}
		return ConfigurationSanitizer.sanitizeArgs(List.of(text), ConfigurationSanitizer.MASK_ALL).get(0);
	}

	// mcp.servers.files.request-timeout rather than mcp.servers[files].request-timeout
	private static String written(ConfigurationPropertyName name) {
		List<String> elements = new ArrayList<>();
		for (int i = 0; i < name.getNumberOfElements(); i++) {
			String element = name.getElement(i, Form.ORIGINAL);
			elements.add((element.contains(".")) ? "[" + element + "]" : element);
		}
		return String.join(".", elements).replace(".[", "[");
	}

	private static String format(Object value) {
		if (value instanceof Duration duration) {
			for (ChronoUnit unit : UNITS) {
				// truncatedTo rather than toNanos, which overflows past 292 years
				if (duration.truncatedTo(unit).equals(duration)) {
					return DurationStyle.SIMPLE.print(duration, unit);
				}
			}
		}
		return String.valueOf(value);
	}

	private String rule(BindException cause) {
		ConversionFailedException conversion = findCause(cause, ConversionFailedException.class);
		Throwable root = cause;
		while (root.getCause() != null) {
			root = root.getCause();
		}
		String reason = (StringUtils.hasText(root.getMessage())) ? root.getMessage() : root.getClass().getName();
		// a converter's message may quote the value, which is shown masked above
		ConfigurationProperty property = cause.getProperty();
		if (property != null && property.getValue() != null) {
			reason = ConfigurationSanitizer.redact(reason, List.of(String.valueOf(property.getValue())));
		}
		reason = ServerText.forLog(reason);
		if (conversion == null) {
			return String.valueOf(reason);
		}
		Class<?> type = conversion.getTargetType().getType();
		if (type.isEnum()) {
			return "must be one of " + Stream.of(type.getEnumConstants())
				.map((constant) -> ((Enum<?>) constant).name().toLowerCase(Locale.ROOT).replace('_', '-'))
				.collect(Collectors.joining(", "));
		}
		if (type == Duration.class) {
			return "must be a duration such as 500ms, 20s or 1m";
		}
		if (type == Integer.class || type == int.class || type == Long.class || type == long.class) {
			return "must be a whole number";
		}
		if (type == Double.class || type == double.class) {
			return "must be a number";
		}
		if (type == Boolean.class || type == boolean.class) {
			return "must be true or false";
		}
		return "must be a valid " + type.getSimpleName() + " (" + reason + ")";
	}

}
