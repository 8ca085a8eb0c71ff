package io.github.mcpsupervisor.autoconfigure;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import java.net.URI;
import java.nio.file.Files;

import jakarta.validation.Constraint;
import jakarta.validation.ConstraintValidator;
import jakarta.validation.ConstraintValidatorContext;
import jakarta.validation.Payload;

import org.springframework.util.StringUtils;

/**
 * The rules of a server that involve more than one property: a stdio server needs a
 * command, a streamable-http server an absolute http(s) URL; a working directory must
 * exist.
 */
@Documented
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@Constraint(validatedBy = ValidServer.Validator.class)
public @interface ValidServer {

	String message() default "invalid MCP server";

	Class<?>[] groups() default {};

	Class<? extends Payload>[] payload() default {};

	/**
	 * Reports each broken rule at the property it concerns.
	 */
	class Validator implements ConstraintValidator<ValidServer, McpSupervisorProperties.Server> {

		@Override
		public boolean isValid(McpSupervisorProperties.Server server, ConstraintValidatorContext context) {
			boolean valid = true;
			context.disableDefaultConstraintViolation();
			if (server.transport() == McpTransportType.STDIO && !StringUtils.hasText(server.command())) {
				valid = violation(context, "command", "is required when transport is stdio");
			}
			if (server.transport() == McpTransportType.STREAMABLE_HTTP) {
				if (server.url() == null) {
					valid = violation(context, "url", "is required when transport is streamable-http");
				}
				else if (!server.url().isAbsolute() || server.url().getHost() == null
						|| !("http".equals(server.url().getScheme()) || "https".equals(server.url().getScheme()))) {
					valid = violation(context, "url", "must be an absolute http or https URL");
				}
			}
			for (int i = 0; i < server.roots().size(); i++) {
				URI root = server.roots().get(i);
				if (!"file".equals(root.getScheme()) || !root.isAbsolute() || root.getPath() == null) {
					valid = violation(context, "roots[" + i + "]",
							"must be an absolute file: URI, e.g. file:///srv/data");
				}
			}
			if (server.workingDirectory() != null && !Files.isDirectory(server.workingDirectory())) {
				valid = violation(context, "workingDirectory", "must be an existing directory");
			}
			return valid;
		}

		static boolean violation(ConstraintValidatorContext context, String property, String message) {
			context.buildConstraintViolationWithTemplate(message).addPropertyNode(property).addConstraintViolation();
			return false;
		}

	}

}
