package io.github.mcpsupervisor.transport.internal.http;

import java.io.IOException;
import java.net.http.HttpClient;
import java.net.http.HttpHeaders;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpResponse.BodyHandler;
import java.net.http.HttpResponse.BodySubscriber;
import java.net.http.HttpResponse.BodySubscribers;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Flow;

import io.github.mcpsupervisor.internal.ServerText;
import io.modelcontextprotocol.json.McpJsonMapper;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;
import reactor.adapter.JdkFlowAdapter;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * Hands the SDK an event stream of a server as one stream, whatever the connections it
 * takes. The stream of a request that the server closes before the answer is resumed as
 * the MCP specification asks: after the server's {@code retry} interval, with a GET that
 * carries the id of the last event as {@code Last-Event-ID}. Other streams are only read
 * through an {@link EventStreamScanner}.
 *
 * @param <T> the type of the SDK's body
 */
final class ResumingEventStreamSubscriber<T> implements BodySubscriber<T> {

	/**
	 * Resumed connections in a row that may bring no new event before the stream fails.
	 */
	static final int MAX_IDLE_RESUMPTIONS = 3;

	private static final Log logger = LogFactory.getLog(ResumingEventStreamSubscriber.class);

	private static final BodyHandler<Flow.@Nullable Publisher<List<ByteBuffer>>> EVENT_STREAM = (
			info) -> (info.statusCode() == 200 && isEventStream(info.headers())) ? BodySubscribers.ofPublisher()
					: BodySubscribers.replacing(null);

	private final BodySubscriber<Flow.Publisher<List<ByteBuffer>>> firstConnection = BodySubscribers.ofPublisher();

	private final BodySubscriber<T> reader;

	private final EventStreamScanner scanner;

	private final HttpRequest request;

	private final HttpClient client;

	private final String server;

	private final boolean resumable;

	/**
	 * Creates the subscriber of one event stream.
	 * @param reader the SDK's subscriber
	 * @param request the request the stream answers
	 * @param client the client that resumes it
	 * @param jsonMapper reads the events' data
	 * @param server the server's name
	 * @param resumable whether the stream is resumed until it brings an answer (the
	 * stream of a request)
	 */
	ResumingEventStreamSubscriber(BodySubscriber<T> reader, HttpRequest request, HttpClient client,
			McpJsonMapper jsonMapper, String server, boolean resumable) {
		this.reader = reader;
		this.scanner = new EventStreamScanner(jsonMapper, resumable);
		this.request = request;
		this.client = client;
		this.server = server;
		this.resumable = resumable;
	}

	static boolean isEventStream(HttpHeaders headers) {
		return headers.firstValue("Content-Type").orElse("").toLowerCase().contains("text/event-stream");
	}

	@Override
	public void onSubscribe(Flow.Subscription subscription) {
		this.firstConnection.onSubscribe(subscription);
		this.firstConnection.getBody()
			.thenAccept((body) -> JdkFlowAdapter.publisherToFlowPublisher(connection(body, 0)).subscribe(this.reader));
	}

	@Override
	public void onNext(List<ByteBuffer> item) {
		this.firstConnection.onNext(item);
	}

	@Override
	public void onError(Throwable throwable) {
		this.firstConnection.onError(throwable);
	}

	@Override
	public void onComplete() {
		this.firstConnection.onComplete();
	}

	@Override
	public CompletionStage<T> getBody() {
		return this.reader.getBody();
	}

	// The events of one connection, then those of the connections that resume it.
	private Flux<List<ByteBuffer>> connection(Flow.Publisher<List<ByteBuffer>> body, int idleResumptions) {
		return Flux.defer(() -> {
			String idBefore = this.scanner.lastEventId();
			return JdkFlowAdapter.flowPublisherToFlux(body)
				.map(this.scanner::scan)
				.concatWith(Flux.defer(() -> afterConnection(
						Objects.equals(idBefore, this.scanner.lastEventId()) ? idleResumptions + 1 : 0)))
				.filter((buffers) -> !buffers.isEmpty());
		});
	}

	private Flux<List<ByteBuffer>> afterConnection(int idleResumptions) {
		List<ByteBuffer> rest = this.scanner.endOfConnection();
		String lastEventId = this.scanner.lastEventId();
		if (!this.resumable || this.scanner.answered() || lastEventId == null) {
			return Flux.just(rest);
		}
		if (idleResumptions >= MAX_IDLE_RESUMPTIONS) {
			return Flux.error(new IOException("the server closed the event stream of a request " + MAX_IDLE_RESUMPTIONS
					+ " times in a row without sending an event"));
		}
		Duration retry = this.scanner.retry();
		logger.debug("MCP server '" + this.server + "' closed the event stream of a request before the answer: "
				+ "resuming it in " + retry.toMillis() + " ms after event '" + ServerText.forLog(lastEventId) + "'");
		HttpRequest resumption = HttpRequest
			.newBuilder(this.request, (name, value) -> !"Content-Type".equalsIgnoreCase(name))
			.GET()
			.setHeader("Accept", "text/event-stream")
			.setHeader("Last-Event-ID", lastEventId)
			.build();
		return Mono.delay(retry)
			.then(Mono.fromFuture(() -> this.client.sendAsync(resumption, EVENT_STREAM)))
			.flatMapMany((response) -> {
				Flow.Publisher<List<ByteBuffer>> body = response.body();
				return (body != null) ? connection(body, idleResumptions) : Flux.error(refused(response));
			});
	}

	private static IOException refused(HttpResponse<?> response) {
		return new IOException("the server answered the resumption of an event stream with HTTP "
				+ response.statusCode() + ((response.statusCode() == 200) ? ", not an event stream" : ""));
	}

}
