package io.github.mcpsupervisor.authorization;

import org.springframework.context.ApplicationEvent;

/**
 * Published when a server needs a person to authorize it (the authorization code flow):
 * at its first attempt without a token, when its refresh token was refused, and when it
 * asks for scopes its token lacks. The server is {@code NEEDS_AUTHORIZATION} until the
 * request is completed through {@link McpServerAuthorizations#complete}, and then
 * connects on its own.
 *
 * @since 0.1.0
 */
public class McpAuthorizationRequiredEvent extends ApplicationEvent {

	private static final long serialVersionUID = 1L;

	private final transient McpAuthorizationRequest request;

	public McpAuthorizationRequiredEvent(Object source, McpAuthorizationRequest request) {
		super(source);
		this.request = request;
	}

	/**
	 * Returns the authorization to give.
	 * @return the request
	 */
	public McpAuthorizationRequest getRequest() {
		return this.request;
	}

}
