package io.github.mcpsupervisor.transport.internal.http;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.util.ArrayList;
import java.util.List;

import io.github.mcpsupervisor.internal.Caller;
import io.github.mcpsupervisor.internal.CauseChain;
import io.github.mcpsupervisor.transport.StreamableHttpServerDefinition;
import io.github.mcpsupervisor.transport.internal.GenerationLife;
import io.github.mcpsupervisor.transport.internal.Revision20251125;
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
 * The SDK's 2025-11-25 Streamable HTTP transport over a generation's HTTP client, with
 * the application's customizers: a lost session ends the generation before the SDK could
 * re-initialize the same client, an answer that is not valid JSON fails its own request
 * only, and an event stream that the server closes before its answer is resumed.
 */
final class HttpBinding20251125 implements HttpBinding {

	private final Revision20251125 client;

	private final GenerationLife life;

	private final StreamableHttpServerDefinition definition;

	private final McpJsonMapper jsonMapper;

	private final HttpTransportCustomizer customizer;

	private final HttpAuthorization authorization;

	HttpBinding20251125(Revision20251125 client, GenerationLife life, StreamableHttpServerDefinition definition,
			McpJsonMapper jsonMapper, HttpTransportCustomizer customizer, HttpAuthorization authorization) {
		this.client = client;
		this.life = life;
		this.definition = definition;
		this.jsonMapper = jsonMapper;
		this.customizer = customizer;
		this.authorization = authorization;
	}

	@Override
	public Revision20251125 client() {
		return this.client;
	}

	// A server that acts for each user may keep each session for the identity that
	// opened it: a user's 404 is checked before the SDK ends the session for it.
	@Override
	public HttpClient httpClient(HttpClient shared) {
		HttpClient resuming = new EventStreamResumingHttpClient(shared, this.jsonMapper, this.definition.name());
		return (this.authorization.actsForUsers())
				? new SessionOwnerCheck(resuming, this.definition, this.authorization) : resuming;
	}

	// A response that breaks off is a server that went away: the SDK (2.2.0) no longer
	// fails the request it answered, which would wait for its timeout.
	@Override
	public void responseBroke(Throwable ex) {
		this.life.end("transport failure: " + this.definition.redact(CauseChain.rootMessage(ex)));
	}

	@Override
	public void connect(GenerationHttpClient httpClient) {
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
			requestCustomizers.add((request, method, uri, body, context) -> Mono
				.fromCallable(() -> withAuthorization(request, Caller.of(context)))
				.subscribeOn(Schedulers.boundedElastic()));
		}
		HttpClientStreamableHttpTransport.Builder builder = HttpClientStreamableHttpTransport.builder(base)
			.endpoint(endpoint)
			.addAsyncHttpRequestCustomizer(new DelegatingMcpAsyncHttpClientRequestCustomizer(requestCustomizers));
		this.customizer.transportCustomizers()
			.forEach((customizer) -> customizer.accept(this.definition.name(), builder));
		if (this.authorization != HttpAuthorization.NONE) {
			builder.authorizationErrorHandler(McpHttpClientTransportAuthorizationErrorHandler
				.fromSync((request, response, context) -> this.authorization.refused(response.statusCode(),
						response.headers(), request.headers().firstValue("Authorization").orElse(null),
						Caller.of(context))));
		}
		// the HTTP client is shared by the generations and closed with the context
		HttpClientStreamableHttpTransport sdkTransport = builder.jsonMapper(this.jsonMapper)
			.clientBuilder(new SharedHttpClientBuilder(httpClient))
			.build();
		this.client.connect(new MalformedAnswerTransport(
				new SessionLossTransport(sdkTransport, (ex) -> this.life.end(HttpCarrier.SESSION_NOT_FOUND)),
				this.definition.name(), this.life.number()), httpClient::cancel, this::requestFailure);
	}

	// the caller's token, the application's for a request the supervisor makes on its own
	private HttpRequest.Builder withAuthorization(HttpRequest.Builder request, @Nullable Caller caller) {
		String value = this.authorization.authorization(caller);
		if (value != null) {
			request.setHeader("Authorization", value);
		}
		if (caller != null && caller.user() != null && this.authorization.actsForUsers()) {
			request.setHeader(SessionOwnerCheck.USER_REQUEST, "true");
		}
		return request;
	}

	// The transport's failure quotes the answer: the caller (the model) reads this.
	private RuntimeException requestFailure(RuntimeException ex) {
		if (MalformedAnswerTransport.isMalformedAnswer(ex)) {
			return new McpError(
					new JSONRPCError(ErrorCodes.PARSE_ERROR, MalformedAnswerTransport.message(this.definition.name())));
		}
		return ex;
	}

	// The SDK reports a 401 or a 403 as a refusal of the authorization.
	@Override
	public @Nullable Integer status(Throwable ex) {
		McpHttpClientTransportAuthorizationException denied = CauseChain.cause(ex,
				McpHttpClientTransportAuthorizationException.class);
		return (denied != null) ? denied.getResponseInfo().statusCode() : null;
	}

	@Override
	public Failure failure(Throwable ex) {
		if (MalformedAnswerTransport.isMalformedAnswer(ex)) {
			return Failure.MALFORMED_ANSWER;
		}
		if (CauseChain.cause(ex, McpTransportSessionNotFoundException.class) != null) {
			return Failure.SESSION_LOST;
		}
		if (CauseChain.cause(ex, IOException.class) != null
				|| CauseChain.cause(ex, McpTransportException.class) != null) {
			return Failure.BROKEN;
		}
		return Failure.NONE;
	}

}
