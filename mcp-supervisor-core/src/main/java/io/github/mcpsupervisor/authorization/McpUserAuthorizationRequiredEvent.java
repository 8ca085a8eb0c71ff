package io.github.mcpsupervisor.authorization;

import org.springframework.context.ApplicationEvent;

/**
 * Published when a user must connect their account to a server that acts for each user:
 * at the user's first request without a token, when the user's refresh token was refused,
 * and when the server asks for scopes the user's token lacks. Only that user can complete
 * the {@linkplain #getRequest() request}, through
 * {@link McpServerAuthorizations#complete}; the server serves the other users meanwhile.
 * <p>
 * The request names the user ({@link McpAuthorizationRequest#user()}): show its URL to
 * that user only.
 *
 * @since 0.1.0
 */
public class McpUserAuthorizationRequiredEvent extends ApplicationEvent {

	private static final long serialVersionUID = 1L;

	private final transient McpAuthorizationRequest request;

	public McpUserAuthorizationRequiredEvent(Object source, McpAuthorizationRequest request) {
		super(source);
		this.request = request;
	}

	/**
	 * Returns the authorization the user must give.
	 * @return the request
	 */
	public McpAuthorizationRequest getRequest() {
		return this.request;
	}

}
