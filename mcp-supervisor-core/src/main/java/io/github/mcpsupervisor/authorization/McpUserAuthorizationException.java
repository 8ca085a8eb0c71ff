package io.github.mcpsupervisor.authorization;

import java.util.Optional;

import org.jspecify.annotations.Nullable;

/**
 * A request to a server that acts for each user failed on that user's authorization: the
 * user has not connected their account (or must connect it again, or give it more
 * scopes), the server refuses the user's token, or the request was made for no user. The
 * server is up and serves the other users; the request was not sent, or was refused.
 * <p>
 * Its message is for the user and the model: it names the server and what the user can
 * do, never a token nor the authorization URL. A tool call answers the model with
 * {@link #forModel()}; the application shows the user the {@linkplain #getRequest()
 * request}'s URL, which only that user can complete.
 *
 * @since 0.1.0
 */
public class McpUserAuthorizationException extends RuntimeException {

	private static final long serialVersionUID = 1L;

	private final String server;

	private final transient @Nullable McpAuthorizationRequest request;

	private final boolean linkToModel;

	/**
	 * Creates the failure of a user's request.
	 * @param server the server's name
	 * @param message what happened, and what the user can do
	 * @param request the authorization the user must give, if any
	 * @param linkToModel whether the model is given the request's URL
	 */
	public McpUserAuthorizationException(String server, String message, @Nullable McpAuthorizationRequest request,
			boolean linkToModel) {
		super(message);
		this.server = server;
		this.request = request;
		this.linkToModel = linkToModel;
	}

	/**
	 * Returns the name of the server.
	 * @return the server's name
	 */
	public String getServer() {
		return this.server;
	}

	/**
	 * Returns the authorization the user must give for the request to succeed: to connect
	 * their account, again, or with more scopes.
	 * @return the request, empty when no authorization helps (a refusal, no user)
	 */
	public Optional<McpAuthorizationRequest> getRequest() {
		return Optional.ofNullable(this.request);
	}

	/**
	 * Returns what a tool call answers the model: the message, and the URL that connects
	 * the account only where the server's configuration gives it to the model
	 * ({@code mcp.servers.<name>.oauth.link-to-model}).
	 * @return the answer
	 */
	public String forModel() {
		return (this.linkToModel && this.request != null) ? getMessage() + ": " + this.request.authorizationUri()
				: String.valueOf(getMessage());
	}

}
