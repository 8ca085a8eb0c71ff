package io.github.mcpsupervisor.autoconfigure.properties;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import java.util.Map;

import jakarta.validation.Constraint;
import jakarta.validation.ConstraintValidator;
import jakarta.validation.ConstraintValidatorContext;
import jakarta.validation.Payload;
import org.jspecify.annotations.Nullable;

/**
 * The initial reconnect delay of every server, once the defaults are applied, does not
 * exceed its maximum delay.
 */
@Documented
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@Constraint(validatedBy = ValidDelays.Validator.class)
@interface ValidDelays {

	String message() default "must not exceed max-delay";

	Class<?>[] groups() default {};

	Class<? extends Payload>[] payload() default {};

	/**
	 * Reports the rule at the {@code initial-delay} of each server it breaks, or of the
	 * defaults.
	 */
	class Validator implements ConstraintValidator<ValidDelays, McpSupervisorProperties> {

		@Override
		public boolean isValid(McpSupervisorProperties properties, ConstraintValidatorContext context) {
			context.disableDefaultConstraintViolation();
			boolean valid = true;
			McpSupervisorProperties.Reconnect defaults = properties.defaults().reconnect();
			if (exceeds(defaults)) {
				valid = violation(context, defaults, "defaults", null);
			}
			for (Map.Entry<String, McpSupervisorProperties.Reconnect> server : McpServerSettingsResolver
				.reconnects(properties)
				.entrySet()) {
				if (exceeds(server.getValue()) && !exceeds(defaults)) {
					valid = violation(context, server.getValue(), "servers", server.getKey());
				}
			}
			return valid;
		}

		private static boolean exceeds(McpSupervisorProperties.Reconnect reconnect) {
			return reconnect.initialDelay().compareTo(reconnect.maxDelay()) > 0;
		}

		private static boolean violation(ConstraintValidatorContext context,
				McpSupervisorProperties.Reconnect reconnect, String property, @Nullable String server) {
			var builder = context
				.buildConstraintViolationWithTemplate(
						"must not exceed max-delay (" + reconnect.maxDelay().toMillis() + " ms)")
				.addPropertyNode(property);
			if (server != null) {
				builder.addPropertyNode("reconnect")
					.inIterable()
					.atKey(server)
					.addPropertyNode("initialDelay")
					.addConstraintViolation();
			}
			else {
				builder.addPropertyNode("reconnect").addPropertyNode("initialDelay").addConstraintViolation();
			}
			return false;
		}

	}

}
