package io.github.mcpsupervisor.transport.internal.http;

import java.net.http.HttpClient;
import java.time.Duration;
import java.util.List;

import io.github.mcpsupervisor.authorization.McpUserAuthorizationException;
import io.github.mcpsupervisor.internal.Caller;
import io.github.mcpsupervisor.internal.CauseChain;
import io.github.mcpsupervisor.supervisor.McpConnector.McpConnectException;
import io.github.mcpsupervisor.supervisor.McpConnector.McpConnectException.Kind;
import io.github.mcpsupervisor.transport.StreamableHttpServerDefinition;
import io.github.mcpsupervisor.transport.internal.CallTimeouts;
import io.github.mcpsupervisor.transport.internal.Carrier;
import io.github.mcpsupervisor.transport.internal.GenerationLife;
import io.github.mcpsupervisor.transport.internal.RevisionClient;
import io.github.mcpsupervisor.transport.internal.RevisionClient.Refusal;
import org.jspecify.annotations.Nullable;

/**
 * The exchanges of one generation of a Streamable HTTP server, whichever revision it
 * speaks: sent through a view of the HTTP client the generations share that keeps them at
 * the server's origin and ends them with their calls and with the generation. The
 * generation ends when the server is out (a refused or reset connection, a lost session,
 * an HTTP 5xx) or refuses the credentials, so that the supervisor reconnects with a new
 * client; an HTTP 401 or 403 at the start is a configuration error, or an authorization
 * to wait for.
 */
final class HttpCarrier implements Carrier {

	static final String SESSION_NOT_FOUND = "session not found (the server forgot it, e.g. after a restart)";

	private final GenerationLife life;

	private final StreamableHttpServerDefinition definition;

	private final HttpAuthorization authorization;

	private final HttpBinding binding;

	private final GenerationHttpClient generationClient;

	HttpCarrier(GenerationLife life, StreamableHttpServerDefinition definition, HttpAuthorization authorization,
			HttpClient httpClient, HttpBinding binding) {
		this.life = life;
		this.definition = definition;
		this.authorization = authorization;
		this.binding = binding;
		this.generationClient = new GenerationHttpClient(binding.httpClient(httpClient), definition.url(),
				max(new CallTimeouts(definition.requestTimeout(), definition.toolTimeouts()).longest(),
						definition.initializationTimeout()),
				binding::responseBroke);
	}

	@Override
	public void open() throws McpConnectException {
		try {
			this.binding.connect(this.generationClient);
		}
		catch (RuntimeException ex) {
			throw Carrier.clientBuildFailure(ex, true);
		}
		RevisionClient client = this.binding.client();
		try {
			client.open(this::streamFailed);
		}
		catch (RuntimeException ex) {
			this.life.closeClient();
			throw openFailure(client, ex);
		}
	}

	private McpConnectException openFailure(RevisionClient client, RuntimeException ex) {
		Integer status = this.binding.status(ex);
		boolean refused = status != null && (status == 401 || status == 403);
		McpConnectException credentials = AuthorizationFailures.of(ex, refused ? status : null, this.authorization,
				this.definition.maskedUrl());
		if (credentials != null) {
			return credentials;
		}
		ForeignOriginException foreign = CauseChain.cause(ex, ForeignOriginException.class);
		if (foreign != null) {
			return new McpConnectException(Kind.CONFIGURATION,
					foreign.getMessage() + ": a request customizer changed the request's URL", null, ex);
		}
		String message = "cannot connect to " + this.definition.maskedUrl() + ": "
				+ this.definition.redact(CauseChain.rootMessage(ex));
		Refusal refusal = client.refusal(ex);
		if (refusal != null) {
			return new McpConnectException(Kind.CONFIGURATION,
					(refusal.message() != null) ? refusal.message() : message, null, ex);
		}
		return new McpConnectException(Kind.TRANSIENT, message, null, ex);
	}

	@Override
	public RuntimeException callFailed(RuntimeException ex) {
		Caller caller = Caller.current();
		if (caller != null && caller.user() != null && this.authorization.actsForUsers()) {
			RuntimeException own = usersOwn(ex, caller);
			if (own != null) {
				return own;
			}
		}
		endIfOut(ex);
		return ex;
	}

	// A request made with a user's token that failed on that token, or on a session that
	// the server keeps for the identity that opened it (SessionOwnerCheck): the user's
	// failure, and the generation serves the others.
	private @Nullable RuntimeException usersOwn(RuntimeException ex, Caller caller) {
		McpUserAuthorizationException refused = CauseChain.cause(ex, McpUserAuthorizationException.class);
		if (refused != null) {
			return refused;
		}
		Integer status = this.binding.status(ex);
		if (status != null && (status == 401 || status == 403)) {
			return this.authorization.refusedFor(status, caller);
		}
		return null;
	}

	@Override
	public void pingFailed(RuntimeException ex) {
		endIfOut(ex);
	}

	// An open stream that breaks is the first sign of a server that went away.
	@Override
	public void streamFailed(Throwable ex) {
		if (ex instanceof RuntimeException failure) {
			endIfOut(failure);
		}
		else {
			this.life.end("transport failure: " + this.definition.redact(CauseChain.rootMessage(ex)));
		}
	}

	// Ends the generation when the server is out or refuses the credentials; an answered
	// error, a timeout or a bad message fails its own request only.
	private void endIfOut(RuntimeException ex) {
		if (CauseChain.cause(ex, AuthorizationRequiredException.class) != null
				|| CauseChain.cause(ex, AuthorizationConfigurationException.class) != null) {
			this.life.end("the server needs an authorization");
			return;
		}
		Integer status = this.binding.status(ex);
		if (status != null) {
			if (status == 403 && this.authorization.obtainsTokens()) {
				return; // a scope the token lacks fails this call only: the others work
			}
			if (status >= 500 || status == 401 || status == 403) {
				this.life.end("HTTP " + status + " from " + this.definition.maskedUrl());
			}
			return;
		}
		switch (this.binding.failure(ex)) {
			case SESSION_LOST -> this.life.end(SESSION_NOT_FOUND);
			case BROKEN -> this.life.end("transport failure: " + this.definition.redact(CauseChain.rootMessage(ex)));
			default -> {
				// the request's own failure
			}
		}
	}

	@Override
	public void close() {
		this.generationClient.close();
	}

	@Override
	public boolean terminate() {
		this.life.end("closed by the supervisor");
		return true;
	}

	/**
	 * Counts the answers to requests the server sent whole, before anything of this JVM
	 * reads them: an answer that something local holds back is still a sign of life.
	 */
	@Override
	public long messagesReceived() {
		return this.generationClient.received();
	}

	@Override
	public @Nullable Long pid() {
		return null;
	}

	@Override
	public List<String> stderrTail() {
		return List.of();
	}

	private static Duration max(Duration first, Duration second) {
		return (first.compareTo(second) >= 0) ? first : second;
	}

}
