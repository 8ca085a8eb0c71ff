package io.github.mcpsupervisor.transport.internal.http;

import java.io.IOException;

import io.github.mcpsupervisor.internal.Caller;
import io.github.mcpsupervisor.internal.CauseChain;
import io.github.mcpsupervisor.transport.StreamableHttpServerDefinition;
import io.github.mcpsupervisor.transport.internal.MessageLimits;
import io.github.mcpsupervisor.transport.internal.modern.Revision20260728;
import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.modern.client.McpResponseLostException;
import io.modelcontextprotocol.modern.client.transport.HttpClientMcpTransport;
import io.modelcontextprotocol.modern.client.transport.McpHttpAuthorizationErrorHandler;
import io.modelcontextprotocol.modern.client.transport.McpHttpRequestCustomizer;
import io.modelcontextprotocol.modern.client.transport.McpHttpRequestHeaders;
import io.modelcontextprotocol.modern.client.transport.McpHttpStatusException;
import org.jspecify.annotations.Nullable;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;

/**
 * The SDK's 2026-07-28 HTTP transport over a generation's HTTP client: there is no
 * session to lose, and a server that is out answers with an HTTP status or breaks the
 * connection.
 */
final class HttpBinding20260728 implements HttpBinding {

	private final Revision20260728 client;

	private final StreamableHttpServerDefinition definition;

	private final McpJsonMapper jsonMapper;

	private final HttpAuthorization authorization;

	HttpBinding20260728(Revision20260728 client, StreamableHttpServerDefinition definition, McpJsonMapper jsonMapper,
			HttpAuthorization authorization) {
		this.client = client;
		this.definition = definition;
		this.jsonMapper = jsonMapper;
		this.authorization = authorization;
	}

	@Override
	public Revision20260728 client() {
		return this.client;
	}

	@Override
	public void connect(GenerationHttpClient httpClient) {
		HttpClientMcpTransport.Builder builder = HttpClientMcpTransport.builder(this.definition.url())
			.jsonMapper(this.jsonMapper)
			.clientBuilder(new SharedHttpClientBuilder(httpClient))
			.maxResponseSize(MessageLimits.MAX_MESSAGE_BYTES);
		if (this.authorization == HttpAuthorization.NONE) {
			builder.requestCustomizer(McpHttpRequestCustomizer
				.fromSync((request, headers, context) -> this.definition.headers().forEach(headers::set)));
		}
		else {
			builder
				.requestCustomizer(
						(request, headers, context) -> Mono.fromRunnable(() -> withHeaders(headers, Caller.of(context)))
							.subscribeOn(Schedulers.boundedElastic())
							.then())
				.authorizationErrorHandler(McpHttpAuthorizationErrorHandler
					.fromSync((request, response, context) -> this.authorization.refused(response.statusCode(),
							response.headers(), request.headers().firstValue("Authorization").orElse(null),
							Caller.of(context))));
		}
		this.client.connect(builder.build());
	}

	// the caller's token, the application's for a request the supervisor makes on its own
	private void withHeaders(McpHttpRequestHeaders headers, @Nullable Caller caller) {
		this.definition.headers().forEach(headers::set);
		String value = this.authorization.authorization(caller);
		if (value != null) {
			headers.set("Authorization", value);
		}
	}

	@Override
	public @Nullable Integer status(Throwable ex) {
		McpHttpStatusException status = CauseChain.cause(ex, McpHttpStatusException.class);
		return (status != null) ? status.statusCode() : null;
	}

	// A timeout is not an outage: a slow tool is told apart by the liveness probe.
	@Override
	public Failure failure(Throwable ex) {
		if (CauseChain.cause(ex, IOException.class) != null
				|| CauseChain.cause(ex, McpResponseLostException.class) != null) {
			return Failure.BROKEN;
		}
		return Failure.NONE;
	}

}
