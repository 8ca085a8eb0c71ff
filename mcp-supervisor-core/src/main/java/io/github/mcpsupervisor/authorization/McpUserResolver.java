package io.github.mcpsupervisor.authorization;

import java.security.Principal;

import org.jspecify.annotations.Nullable;

import org.springframework.ai.chat.model.ToolContext;

/**
 * Tells on whose behalf a request to an MCP server is made, for the servers that act for
 * each user ({@code mcp.servers.<name>.oauth.acts-for=user}): the name of the principal
 * under which that user's tokens are kept in the application's
 * {@code OAuth2AuthorizedClientService}.
 * <p>
 * Asked on the thread that makes the request, before the request leaves it: a tool call
 * with its {@link ToolContext}, a resource read or a prompt with none. An application
 * bean of this type replaces {@link #DEFAULT}, and may delegate to it.
 *
 * @since 0.1.0
 */
@FunctionalInterface
public interface McpUserResolver {

	/**
	 * The key of the {@link ToolContext} entry that names the user a tool call acts for:
	 * a {@link String}, the principal's name, a {@link Principal} (such as Spring
	 * Security's {@code Authentication}), or Spring Security's
	 * {@code AuthenticatedPrincipal} or {@code UserDetails}. The entry is never sent to a
	 * server in a call's {@code _meta}.
	 */
	String TOOL_CONTEXT_KEY = "mcp.user";

	/**
	 * The user named by the tool context's {@link #TOOL_CONTEXT_KEY} entry, otherwise the
	 * authenticated, non-anonymous {@code Authentication} of the calling thread's Spring
	 * Security context, otherwise none.
	 */
	McpUserResolver DEFAULT = new DefaultMcpUserResolver();

	/**
	 * Returns the user a request acts for.
	 * @param toolContext the tool context of a tool call, {@code null} for other requests
	 * (and tool calls made without one)
	 * @return the user's principal name, or {@code null} when the request is made for no
	 * user (a scheduled job)
	 */
	@Nullable String resolve(@Nullable ToolContext toolContext);

	/**
	 * Returns the user that a tool context names.
	 * @param toolContext the tool context, if any
	 * @return the principal name of its {@link #TOOL_CONTEXT_KEY} entry, or {@code null}
	 * when it has none (an anonymous or unauthenticated {@code Authentication}, or a
	 * blank name, is none)
	 * @throws IllegalArgumentException if the entry is of another type, whose text is no
	 * principal's name
	 */
	static @Nullable String fromToolContext(@Nullable ToolContext toolContext) {
		if (toolContext == null) {
			return null;
		}
		Object user = toolContext.getContext().get(TOOL_CONTEXT_KEY);
		if (user == null || user instanceof String) {
			return named((String) user);
		}
		if (DefaultMcpUserResolver.SPRING_SECURITY && SecurityContextUser.isAuthentication(user)) {
			// an anonymous or unauthenticated one is no user: its name would be shared
			return named(SecurityContextUser.nameOf(user));
		}
		if (user instanceof Principal principal) {
			return named(principal.getName());
		}
		String name = (DefaultMcpUserResolver.SPRING_SECURITY) ? named(SecurityContextUser.nameOf(user)) : null;
		if (name == null) {
			throw new IllegalArgumentException("the tool context's " + TOOL_CONTEXT_KEY + " entry is a "
					+ user.getClass().getName() + ": give the user's principal name, a Principal, an"
					+ " AuthenticatedPrincipal or a UserDetails");
		}
		return name;
	}

	private static @Nullable String named(@Nullable String name) {
		return (name != null && !name.isBlank()) ? name : null;
	}

}
