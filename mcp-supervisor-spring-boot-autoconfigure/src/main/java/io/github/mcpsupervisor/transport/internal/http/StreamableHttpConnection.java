package io.github.mcpsupervisor.transport.internal.http;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

import io.github.mcpsupervisor.internal.CauseChain;
import io.github.mcpsupervisor.supervisor.McpConnectException;
import io.github.mcpsupervisor.supervisor.McpConnectException.Kind;
import io.github.mcpsupervisor.transport.StreamableHttpServerDefinition;
import io.github.mcpsupervisor.transport.internal.CallTimeouts;
import io.github.mcpsupervisor.transport.internal.ClientConnection;
import io.github.mcpsupervisor.transport.internal.ClientSetup;
import io.modelcontextprotocol.client.McpAsyncClient;
import io.modelcontextprotocol.client.transport.HttpClientStreamableHttpTransport;
import io.modelcontextprotocol.client.transport.McpHttpClientTransportAuthorizationException;
import io.modelcontextprotocol.client.transport.customizer.DelegatingMcpAsyncHttpClientRequestCustomizer;
import io.modelcontextprotocol.client.transport.customizer.McpAsyncHttpClientRequestCustomizer;
import io.modelcontextprotocol.client.transport.customizer.McpHttpClientTransportAuthorizationErrorHandler;
import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.spec.McpError;
import io.modelcontextprotocol.spec.McpSchema.ErrorCodes;
import io.modelcontextprotocol.spec.McpSchema.JSONRPCResponse.JSONRPCError;
import io.modelcontextprotocol.spec.McpTransportException;
import io.modelcontextprotocol.spec.McpTransportSessionNotFoundException;
import org.jspecify.annotations.Nullable;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;

/**
 * One generation of a Streamable HTTP server: its own client and session. A transport
 * failure (refused or reset connection, lost session) ends the generation at once, so
 * that the supervisor reconnects with a new client and session; an HTTP 401 or 403 is a
 * configuration error. A lost session is seen by the transport itself, before the SDK
 * could re-initialize this client. An answer that is not valid JSON fails its request
 * only. The generations of a server share its one JDK HTTP client, each through a view of
 * its own that keeps requests at the server's origin and ends their exchanges with their
 * calls and with the generation.
 */
final class StreamableHttpConnection extends ClientConnection {

	private static final String SESSION_NOT_FOUND = "session not found (the server forgot it, e.g. after a restart)";

	private final StreamableHttpServerDefinition definition;

	private final McpJsonMapper jsonMapper;

	private final GenerationHttpClient generationClient;

	private final HttpTransportCustomizer customizer;

	private final HttpAuthorization authorization;

	StreamableHttpConnection(StreamableHttpServerDefinition definition, int generation, ClientSetup setup,
			McpJsonMapper jsonMapper, HttpClient httpClient, HttpTransportCustomizer customizer,
			HttpAuthorization authorization) {
		super(definition.name(), generation, new CallTimeouts(definition.requestTimeout(), definition.toolTimeouts()),
				setup, "connection closed");
		this.definition = definition;
		this.jsonMapper = jsonMapper;
		// a response that breaks off is a server that went away: the SDK (2.2.0) no
		// longer
		// fails the request it answered, which would wait for its timeout
		this.generationClient = new GenerationHttpClient(httpClient, definition.url(),
				max(new CallTimeouts(definition.requestTimeout(), definition.toolTimeouts()).longest(),
						definition.initializationTimeout()),
				(ex) -> end("transport failure: " + definition.redact(CauseChain.rootMessage(ex))));
		this.customizer = customizer;
		this.authorization = authorization;
	}

	@Override
	public void open() throws McpConnectException {
		URI url = this.definition.url();
		// The endpoint is the whole URL, which the SDK takes as it is: resolved against
		// the base, a path such as //host/mcp would name another host.
		String base = url.getScheme() + "://" + url.getRawAuthority();
		String endpoint = url.toString();
		List<McpAsyncHttpClientRequestCustomizer> requestCustomizers = new ArrayList<>();
		requestCustomizers.add(McpAsyncHttpClientRequestCustomizer.fromSync((request, method, uri, body, context) -> {
			this.definition.headers().forEach(request::header);
			JsonRpcRequestBody tagged = ("POST".equals(method) && body != null)
					? JsonRpcRequestBody.of(this.jsonMapper, body) : null;
			if (tagged != null) {
				request.POST(tagged);
			}
		}));
		requestCustomizers.addAll(this.customizer.requestCustomizers());
		if (this.authorization != HttpAuthorization.NONE) {
			// last: the token is the supervisor's, whatever a customizer set
			requestCustomizers
				.add((request, method, uri, body, context) -> Mono.fromCallable(() -> withAuthorization(request))
					.subscribeOn(Schedulers.boundedElastic()));
		}
		McpAsyncClient created;
		try {
			HttpClientStreamableHttpTransport.Builder builder = HttpClientStreamableHttpTransport.builder(base)
				.endpoint(endpoint)
				.addAsyncHttpRequestCustomizer(new DelegatingMcpAsyncHttpClientRequestCustomizer(requestCustomizers));
			this.customizer.transportCustomizers()
				.forEach((customizer) -> customizer.accept(this.definition.name(), builder));
			if (this.authorization != HttpAuthorization.NONE) {
				builder.authorizationErrorHandler(McpHttpClientTransportAuthorizationErrorHandler
					.fromSync((request, response, context) -> this.authorization.refused(response.statusCode(),
							response.headers(), request.headers().firstValue("Authorization").orElse(null))));
			}
			// the HTTP client is shared by the generations and closed with the context
			HttpClientStreamableHttpTransport sdkTransport = builder.jsonMapper(this.jsonMapper)
				.clientBuilder(new SharedHttpClientBuilder(this.generationClient))
				.build();
			MalformedAnswerTransport transport = new MalformedAnswerTransport(
					new SessionLossTransport(sdkTransport, (ex) -> end(SESSION_NOT_FOUND)), this.definition.name(),
					generation());
			created = createClient(transport, this.definition.initializationTimeout());
		}
		catch (RuntimeException ex) {
			throw clientBuildFailure(ex, true);
		}
		this.client = created;
		try {
			initialize(created);
		}
		catch (RuntimeException ex) {
			closeClient();
			McpHttpClientTransportAuthorizationException denied = CauseChain.cause(ex,
					McpHttpClientTransportAuthorizationException.class);
			McpConnectException credentials = AuthorizationFailures.of(ex,
					(denied != null) ? denied.getResponseInfo().statusCode() : null, this.authorization,
					this.definition.maskedUrl());
			if (credentials != null) {
				throw credentials;
			}
			ForeignOriginException foreign = CauseChain.cause(ex, ForeignOriginException.class);
			if (foreign != null) {
				throw new McpConnectException(Kind.CONFIGURATION,
						foreign.getMessage() + ": a request customizer changed the request's URL", null, ex);
			}
			McpConnectException otherRevision = otherRevision(ex);
			if (otherRevision != null) {
				throw otherRevision;
			}
			throw new McpConnectException(Kind.TRANSIENT, "cannot connect to " + this.definition.maskedUrl() + ": "
					+ this.definition.redact(CauseChain.rootMessage(ex)), null, ex);
		}
	}

	@Override
	public <T> @Nullable T request(String method, Function<McpAsyncClient, Mono<T>> request) {
		try {
			return super.request(method, request);
		}
		catch (RuntimeException ex) {
			if (!(ex instanceof McpError) && MalformedAnswerTransport.isMalformedAnswer(ex)) {
				// the transport's failure quotes the answer: the caller (the model) reads
				// this
				throw new McpError(new JSONRPCError(ErrorCodes.PARSE_ERROR,
						MalformedAnswerTransport.message(this.definition.name())));
			}
			throw ex;
		}
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
	protected void requestCancelled(Object requestId) {
		this.generationClient.cancel(requestId);
	}

	@Override
	protected void afterClose() {
		this.generationClient.close();
	}

	private HttpRequest.Builder withAuthorization(HttpRequest.Builder request) {
		String value = this.authorization.authorization();
		if (value != null) {
			request.setHeader("Authorization", value);
		}
		return request;
	}

	private static Duration max(Duration first, Duration second) {
		return (first.compareTo(second) >= 0) ? first : second;
	}

	@Override
	protected void callFailed(RuntimeException ex) {
		endIfTransportFailed(ex);
	}

	@Override
	protected void pingFailed(RuntimeException ex) {
		endIfTransportFailed(ex);
	}

	// Ends the generation when the failure is the transport's: a refused or reset
	// connection, a lost session, a refusal of the credentials.
	private void endIfTransportFailed(RuntimeException ex) {
		McpHttpClientTransportAuthorizationException denied = CauseChain.cause(ex,
				McpHttpClientTransportAuthorizationException.class);
		if (CauseChain.cause(ex, AuthorizationRequiredException.class) != null
				|| CauseChain.cause(ex, AuthorizationConfigurationException.class) != null) {
			end("the server needs an authorization");
		}
		else if (denied != null && denied.getResponseInfo().statusCode() == 403 && this.authorization.obtainsTokens()) {
			// a scope the token lacks fails this call only: the others still work
		}
		else if (denied != null) {
			end("HTTP " + denied.getResponseInfo().statusCode() + " from " + this.definition.maskedUrl());
		}
		else if (MalformedAnswerTransport.isMalformedAnswer(ex)) {
			// a bad message, not a dead transport: it failed its own request only
		}
		else if (CauseChain.cause(ex, McpTransportSessionNotFoundException.class) != null) {
			end(SESSION_NOT_FOUND);
		}
		else if (CauseChain.cause(ex, IOException.class) != null
				|| CauseChain.cause(ex, McpTransportException.class) != null) {
			end("transport failure: " + this.definition.redact(CauseChain.rootMessage(ex)));
		}
	}

	@Override
	protected String redact(String text) {
		return this.definition.redact(text);
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
