package io.github.mcpsupervisor.transport.internal.http;

import java.io.IOException;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpResponse.BodyHandler;
import java.net.http.HttpResponse.PushPromiseHandler;
import java.util.concurrent.CompletableFuture;

import io.modelcontextprotocol.json.McpJsonMapper;

/**
 * A server's JDK HTTP client, through which the SDK's transport reads server-sent events
 * as the standard and the MCP specification define them: the event stream answering a
 * POST that the server closes before the answer is resumed after the server's
 * {@code retry} interval with a GET carrying {@code Last-Event-ID}, and fields the SDK
 * does not know (such as {@code retry}) are not handed to it. Everything else is the
 * delegate's.
 */
final class EventStreamResumingHttpClient extends DelegatingHttpClient {

	private final McpJsonMapper jsonMapper;

	private final String server;

	EventStreamResumingHttpClient(HttpClient delegate, McpJsonMapper jsonMapper, String server) {
		super(delegate);
		this.jsonMapper = jsonMapper;
		this.server = server;
	}

	@Override
	public <T> CompletableFuture<HttpResponse<T>> sendAsync(HttpRequest request, BodyHandler<T> handler) {
		return this.delegate.sendAsync(request, eventStreams(request, handler));
	}

	@Override
	public <T> CompletableFuture<HttpResponse<T>> sendAsync(HttpRequest request, BodyHandler<T> handler,
			PushPromiseHandler<T> pushPromiseHandler) {
		return this.delegate.sendAsync(request, eventStreams(request, handler), pushPromiseHandler);
	}

	@Override
	public <T> HttpResponse<T> send(HttpRequest request, BodyHandler<T> handler)
			throws IOException, InterruptedException {
		return this.delegate.send(request, eventStreams(request, handler));
	}

	// The handler, with the successful event streams read through a scanner; those that
	// answer a POST are resumed.
	private <T> BodyHandler<T> eventStreams(HttpRequest request, BodyHandler<T> handler) {
		return (info) -> {
			if (info.statusCode() != 200 || !ResumingEventStreamSubscriber.isEventStream(info.headers())) {
				return handler.apply(info);
			}
			return new ResumingEventStreamSubscriber<>(handler.apply(info), request, this.delegate, this.jsonMapper,
					this.server, "POST".equals(request.method()));
		};
	}

}
