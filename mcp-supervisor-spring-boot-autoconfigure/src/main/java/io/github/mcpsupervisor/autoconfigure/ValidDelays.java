package io.github.mcpsupervisor.autoconfigure;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

import jakarta.validation.Constraint;
import jakarta.validation.ConstraintValidator;
import jakarta.validation.ConstraintValidatorContext;
import jakarta.validation.Payload;

/**
 * The initial reconnect delay does not exceed the maximum delay.
 */
@Documented
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@Constraint(validatedBy = ValidDelays.Validator.class)
public @interface ValidDelays {

	String message() default "must not exceed max-delay";

	Class<?>[] groups() default {};

	Class<? extends Payload>[] payload() default {};

	/**
	 * Reports the rule at {@code initial-delay}.
	 */
	class Validator implements ConstraintValidator<ValidDelays, McpSupervisorProperties.Reconnect> {

		@Override
		public boolean isValid(McpSupervisorProperties.Reconnect reconnect, ConstraintValidatorContext context) {
			if (reconnect.initialDelay() == null || reconnect.maxDelay() == null
					|| reconnect.initialDelay().compareTo(reconnect.maxDelay()) <= 0) {
				return true;
			}
			context.disableDefaultConstraintViolation();
			context
				.buildConstraintViolationWithTemplate(
						"must not exceed max-delay (" + reconnect.maxDelay().toMillis() + " ms)")
				.addPropertyNode("initialDelay")
				.addConstraintViolation();
			return false;
		}

	}

}
