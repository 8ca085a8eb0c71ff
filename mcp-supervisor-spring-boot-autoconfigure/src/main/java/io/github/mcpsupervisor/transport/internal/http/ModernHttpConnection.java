package io.github.mcpsupervisor.transport.internal.http;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeoutException;

import io.github.mcpsupervisor.internal.CauseChain;
import io.github.mcpsupervisor.supervisor.McpConnectException;
import io.github.mcpsupervisor.supervisor.McpConnectException.Kind;
import io.github.mcpsupervisor.transport.StreamableHttpServerDefinition;
import io.github.mcpsupervisor.transport.internal.CallTimeouts;
import io.github.mcpsupervisor.transport.internal.ClientConnection.ClientSetup;
import io.github.mcpsupervisor.transport.internal.MessageLimits;
import io.github.mcpsupervisor.transport.internal.modern.ModernConnection;
import io.github.mcpsupervisor.transport.internal.modern.NotModernException;
import io.github.mcpsupervisor.transport.internal.modern.UnsupportedRevisionException;
import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.modern.client.McpResponseLostException;
import io.modelcontextprotocol.modern.client.McpTimeoutException;
import io.modelcontextprotocol.modern.client.transport.HttpClientMcpTransport;
import io.modelcontextprotocol.modern.client.transport.McpHttpAuthorizationErrorHandler;
import io.modelcontextprotocol.modern.client.transport.McpHttpRequestCustomizer;
import io.modelcontextprotocol.modern.client.transport.McpHttpRequestHeaders;
import io.modelcontextprotocol.modern.client.transport.McpHttpStatusException;
import org.jspecify.annotations.Nullable;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;

/**
 * The generation of a Streamable HTTP server that speaks MCP revision 2026-07-28: the
 * SDK's modern HTTP transport over the HTTP client the generations share, each request
 * bounded and kept to the configured origin. There is no session to lose: the generation
 * ends when the server is out (a refused or reset connection, an HTTP 5xx, no answer in
 * time) or refuses the credentials, and the supervisor reconnects it as it does a lost
 * 2025-11-25 session.
 */
final class ModernHttpConnection extends ModernConnection {

	private final StreamableHttpServerDefinition definition;

	private final McpJsonMapper jsonMapper;

	private final GenerationHttpClient generationClient;

	private final HttpAuthorization authorization;

	ModernHttpConnection(StreamableHttpServerDefinition definition, int generation, ClientSetup setup,
			McpJsonMapper jsonMapper, HttpClient httpClient, HttpAuthorization authorization) {
		super(definition.name(), generation, new CallTimeouts(definition.requestTimeout(), definition.toolTimeouts()),
				definition.initializationTimeout(), setup, jsonMapper, "connection closed");
		this.definition = definition;
		this.jsonMapper = jsonMapper;
		this.generationClient = new GenerationHttpClient(httpClient, definition.url(),
				max(new CallTimeouts(definition.requestTimeout(), definition.toolTimeouts()).longest(),
						definition.initializationTimeout()));
		this.authorization = authorization;
	}

	@Override
	public void open() throws McpConnectException {
		URI url = this.definition.url();
		HttpClientMcpTransport transport;
		try {
			HttpClientMcpTransport.Builder builder = HttpClientMcpTransport.builder(url)
				.jsonMapper(this.jsonMapper)
				.clientBuilder(new SharedHttpClientBuilder(this.generationClient))
				.maxResponseSize(MessageLimits.MAX_MESSAGE_BYTES);
			if (this.authorization == HttpAuthorization.NONE) {
				builder.requestCustomizer(McpHttpRequestCustomizer
					.fromSync((request, headers, context) -> this.definition.headers().forEach(headers::set)));
			}
			else {
				builder
					.requestCustomizer((request, headers, context) -> Mono.fromRunnable(() -> withHeaders(headers))
						.subscribeOn(Schedulers.boundedElastic())
						.then())
					.authorizationErrorHandler(McpHttpAuthorizationErrorHandler
						.fromSync((request, response, context) -> this.authorization.refused(response.statusCode(),
								response.headers(), request.headers().firstValue("Authorization").orElse(null))));
			}
			transport = builder.build();
		}
		catch (RuntimeException ex) {
			throw new McpConnectException(Kind.CONFIGURATION,
					"building the MCP client failed: " + CauseChain.rootMessage(ex), null, ex);
		}
		try {
			discover(createClient(transport, this.jsonMapper));
		}
		catch (RuntimeException ex) {
			closeClient();
			throw openFailure(ex);
		}
	}

	private void withHeaders(McpHttpRequestHeaders headers) {
		this.definition.headers().forEach(headers::set);
		String value = this.authorization.authorization();
		if (value != null) {
			headers.set("Authorization", value);
		}
	}

	private McpConnectException openFailure(RuntimeException ex) {
		McpHttpStatusException status = CauseChain.cause(ex, McpHttpStatusException.class);
		boolean refusal = status != null && (status.statusCode() == 401 || status.statusCode() == 403);
		McpConnectException credentials = AuthorizationFailures.of(ex, refusal ? status.statusCode() : null,
				this.authorization, this.definition.maskedUrl());
		if (credentials != null) {
			return credentials;
		}
		ForeignOriginException foreign = CauseChain.cause(ex, ForeignOriginException.class);
		if (foreign != null) {
			return new McpConnectException(Kind.CONFIGURATION,
					foreign.getMessage() + ": a request customizer changed the request's URL", null, ex);
		}
		String message = (ex instanceof NotModernException notModern && notModern.isAnswered())
				? NotModernException
					.configurationMessage(this.definition.redact(String.valueOf(notModern.getMessage())))
				: "cannot connect to " + this.definition.maskedUrl() + ": "
						+ this.definition.redact(CauseChain.rootMessage(ex));
		if (ex instanceof UnsupportedRevisionException
				|| (ex instanceof NotModernException notModern && notModern.isAnswered())) {
			return new McpConnectException(Kind.CONFIGURATION, message, null, ex);
		}
		return new McpConnectException(Kind.TRANSIENT, message, null, ex);
	}

	@Override
	protected void callFailed(RuntimeException ex) {
		endIfOut(ex);
	}

	@Override
	protected void pingFailed(RuntimeException ex, boolean timedOut) {
		endIfOut(ex);
	}

	// An open stream that breaks is the first sign of a server that went away, as the
	// GET stream of a 2025-11-25 session is.
	@Override
	protected void streamFailed(Throwable ex) {
		if (ex instanceof RuntimeException failure) {
			endIfOut(failure);
		}
		else {
			end("transport failure: " + this.definition.redact(CauseChain.rootMessage(ex)));
		}
	}

	// Ends the generation when the server is out or refuses the credentials; an answered
	// error or a bad message fails its own request only.
	private void endIfOut(RuntimeException ex) {
		McpHttpStatusException status = CauseChain.cause(ex, McpHttpStatusException.class);
		if (CauseChain.cause(ex, AuthorizationRequiredException.class) != null
				|| CauseChain.cause(ex, AuthorizationConfigurationException.class) != null) {
			end("the server needs an authorization");
		}
		else if (status != null && status.statusCode() == 403 && this.authorization.obtainsTokens()) {
			// a scope the token lacks fails this call only: the others still work
		}
		else if (status != null) {
			if (status.statusCode() >= 500 || status.statusCode() == 401 || status.statusCode() == 403) {
				end("HTTP " + status.statusCode() + " from " + this.definition.maskedUrl());
			}
		}
		else if (CauseChain.cause(ex, IOException.class) != null
				|| CauseChain.cause(ex, McpResponseLostException.class) != null) {
			end("transport failure: " + this.definition.redact(CauseChain.rootMessage(ex)));
		}
		else if (CauseChain.cause(ex, McpTimeoutException.class) != null
				|| CauseChain.cause(ex, TimeoutException.class) != null) {
			// a slow tool is not an outage: the liveness probe tells them apart
		}
	}

	@Override
	protected void closeTransport() {
		this.generationClient.close();
	}

	@Override
	public boolean terminate() {
		end("closed by the supervisor");
		return true;
	}

	@Override
	public @Nullable Long pid() {
		return null;
	}

	@Override
	public List<String> stderrTail() {
		return List.of();
	}

	@Override
	protected String redact(String text) {
		return this.definition.redact(text);
	}

	private static Duration max(Duration first, Duration second) {
		return (first.compareTo(second) >= 0) ? first : second;
	}

	/**
	 * Counts the answers to requests the server sent whole, before anything of this JVM
	 * reads them: an answer that something local holds back is still a sign of life.
	 */
	@Override
	public long messagesReceived() {
		return this.generationClient.received();
	}

}
