package io.github.mcpsupervisor.autoconfigure.properties;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import java.util.Map;
import java.util.TreeMap;

import jakarta.validation.Constraint;
import jakarta.validation.ConstraintValidator;
import jakarta.validation.ConstraintValidatorContext;
import jakarta.validation.Payload;
import org.jspecify.annotations.Nullable;

/**
 * The initial reconnect delay of every server, once the defaults are applied, does not
 * exceed its maximum delay, nor its initial cooldown its maximum cooldown.
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
			McpSupervisorProperties.Reconnect defaults = properties.effectiveDefaults().reconnect();
			Map<String, McpSupervisorProperties.Reconnect> servers = new TreeMap<>();
			properties.servers().forEach((name, server) -> {
				if (server.isEnabled()) {
					servers.put(name, properties.effective(server).reconnect());
				}
			});
			for (Rule rule : Rule.values()) {
				if (rule.broken(defaults)) {
					valid = violation(context, rule, defaults, null);
				}
				for (Map.Entry<String, McpSupervisorProperties.Reconnect> server : servers.entrySet()) {
					if (rule.broken(server.getValue()) && !rule.broken(defaults)) {
						valid = violation(context, rule, server.getValue(), server.getKey());
					}
				}
			}
			return valid;
		}

		private static boolean violation(ConstraintValidatorContext context, Rule rule,
				McpSupervisorProperties.Reconnect reconnect, @Nullable String server) {
			var builder = context.buildConstraintViolationWithTemplate(rule.message(reconnect))
				.addPropertyNode((server != null) ? "servers" : "defaults");
			var reconnectNode = (server != null)
					? builder.addPropertyNode("reconnect").inIterable().atKey(server).addPropertyNode(rule.node())
					: builder.addPropertyNode("reconnect").addPropertyNode(rule.node());
			if (rule == Rule.COOLDOWN) {
				reconnectNode.addPropertyNode("initial").addConstraintViolation();
			}
			else {
				reconnectNode.addConstraintViolation();
			}
			return false;
		}

	}

	/**
	 * A bound that an initial delay must not exceed.
	 */
	enum Rule {

		/** The backoff's initial delay, against its max delay. */
		BACKOFF,

		/** The cooldown's initial value, against its max. */
		COOLDOWN;

		boolean broken(McpSupervisorProperties.Reconnect reconnect) {
			return (this == BACKOFF) ? reconnect.initialDelay().compareTo(reconnect.maxDelay()) > 0
					: reconnect.cooldown().initial().compareTo(reconnect.cooldown().max()) > 0;
		}

		// the node under reconnect that is reported
		String node() {
			return (this == BACKOFF) ? "initialDelay" : "cooldown";
		}

		String message(McpSupervisorProperties.Reconnect reconnect) {
			return (this == BACKOFF) ? "must not exceed max-delay (" + reconnect.maxDelay().toMillis() + " ms)"
					: "must not exceed cooldown.max (" + reconnect.cooldown().max().toMillis() + " ms)";
		}

	}

}
