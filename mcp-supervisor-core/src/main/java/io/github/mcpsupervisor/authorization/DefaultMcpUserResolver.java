package io.github.mcpsupervisor.authorization;

import org.jspecify.annotations.Nullable;

import org.springframework.ai.chat.model.ToolContext;
import org.springframework.util.ClassUtils;

/**
 * The default {@link McpUserResolver}: the tool context's entry, then Spring Security's
 * user of the calling thread when Spring Security is on the class path.
 */
final class DefaultMcpUserResolver implements McpUserResolver {

	static final boolean SPRING_SECURITY = ClassUtils.isPresent(
			"org.springframework.security.core.context.SecurityContextHolder", McpUserResolver.class.getClassLoader());

	@Override
	public @Nullable String resolve(@Nullable ToolContext toolContext) {
		String named = McpUserResolver.fromToolContext(toolContext);
		if (named != null) {
			return named;
		}
		return (SPRING_SECURITY) ? SecurityContextUser.current() : null;
	}

	@Override
	public String toString() {
		return "McpUserResolver.DEFAULT";
	}

}
