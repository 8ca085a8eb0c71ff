package io.github.mcpsupervisor.autoconfigure;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import jakarta.validation.Constraint;
import jakarta.validation.ConstraintValidator;
import jakarta.validation.ConstraintValidatorContext;
import jakarta.validation.Payload;

/**
 * The servers' names are unique.
 */
@Documented
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@Constraint(validatedBy = UniqueServerNames.Validator.class)
public @interface UniqueServerNames {

	String message() default "must be unique";

	Class<?>[] groups() default {};

	Class<? extends Payload>[] payload() default {};

	/**
	 * Reports each repeated name at its own index.
	 */
	class Validator implements ConstraintValidator<UniqueServerNames, McpSupervisorProperties> {

		@Override
		public boolean isValid(McpSupervisorProperties properties, ConstraintValidatorContext context) {
			List<McpSupervisorProperties.Server> servers = properties.servers();
			Map<String, Integer> firstIndex = new HashMap<>();
			boolean valid = true;
			context.disableDefaultConstraintViolation();
			for (int i = 0; i < servers.size(); i++) {
				String name = servers.get(i).name();
				if (name == null) {
					continue;
				}
				Integer first = firstIndex.putIfAbsent(name, i);
				if (first != null) {
					valid = false;
					context
						.buildConstraintViolationWithTemplate(
								"must be unique, but servers[" + first + "] has the same name")
						.addPropertyNode("servers")
						.addPropertyNode("name")
						.inIterable()
						.atIndex(i)
						.addConstraintViolation();
				}
			}
			return valid;
		}

	}

}
