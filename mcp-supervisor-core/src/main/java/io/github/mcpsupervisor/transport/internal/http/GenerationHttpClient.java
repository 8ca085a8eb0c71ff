package io.github.mcpsupervisor.transport.internal.http;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpResponse.BodyHandler;
import java.net.http.HttpResponse.BodySubscriber;
import java.net.http.HttpResponse.PushPromiseHandler;
import java.net.http.HttpResponse.ResponseInfo;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Flow;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Consumer;

import org.jspecify.annotations.Nullable;

/**
 * The HTTP client of one generation of a Streamable HTTP server, through which every
 * request of the generation is sent: to the server's own origin (the scheme, host and
 * port of its configured URL) or not at all, waiting for its response's headers a bounded
 * time, and as an exchange that ends, with its connection, when the JSON-RPC request it
 * carries is cancelled or the generation ends.
 * <p>
 * The bound is the JDK's request timeout, which ends at the response's headers: the body
 * of an event stream (the answer of a POST that takes long, the GET stream of the
 * server's notifications) is not bounded by it, it ends with its request or its
 * generation. The bound is longer than the time a call waits for its answer, so that a
 * call that takes too long fails as a timed-out call, not as a broken transport.
 */
final class GenerationHttpClient extends DelegatingHttpClient {

	/** How much longer than its call a request may wait for its response's headers. */
	static final Duration GRACE = Duration.ofSeconds(1);

	private final URI origin;

	private final Duration timeout;

	private final Set<Exchange<?>> exchanges = ConcurrentHashMap.newKeySet();

	private volatile boolean closed;

	/**
	 * Responses and chunks of their bodies that have come: signs of the server's life.
	 */
	private final LongAdder received = new LongAdder();

	private final Consumer<Throwable> broken;

	/**
	 * Creates the client of a generation.
	 * @param delegate sends the requests
	 * @param url the server's configured URL, whose origin every request must have
	 * @param requestBound the longest time a request of the generation is waited for
	 */
	GenerationHttpClient(HttpClient delegate, URI url, Duration requestBound) {
		this(delegate, url, requestBound, (ex) -> {
		});
	}

	/**
	 * Creates the client of a generation that is told when a response breaks off.
	 * @param delegate sends the requests
	 * @param url the server's configured URL, whose origin every request must have
	 * @param requestBound the longest time a request of the generation is waited for
	 * @param broken told when the body of the response to a JSON-RPC request fails while
	 * it is read (a server that went away), other than by a cancellation of the
	 * generation's own
	 */
	GenerationHttpClient(HttpClient delegate, URI url, Duration requestBound, Consumer<Throwable> broken) {
		super(delegate);
		this.origin = url;
		this.timeout = requestBound.plus(GRACE);
		this.broken = broken;
	}

	@Override
	public <T> CompletableFuture<HttpResponse<T>> sendAsync(HttpRequest request, BodyHandler<T> handler) {
		return exchange(request, handler, null);
	}

	@Override
	public <T> CompletableFuture<HttpResponse<T>> sendAsync(HttpRequest request, BodyHandler<T> handler,
			PushPromiseHandler<T> pushPromiseHandler) {
		return exchange(request, handler, pushPromiseHandler);
	}

	@Override
	public <T> HttpResponse<T> send(HttpRequest request, BodyHandler<T> handler)
			throws IOException, InterruptedException {
		requireOrigin(request.uri());
		return this.delegate.send(bounded(request), handler);
	}

	/**
	 * Cancels the exchange that carries a JSON-RPC request, if it is still going on: its
	 * connection is closed.
	 * @param requestId the request's id
	 */
	void cancel(Object requestId) {
		this.exchanges.stream().filter((exchange) -> requestId.equals(exchange.requestId)).forEach(Exchange::cancel);
	}

	/**
	 * Ends the exchanges of the generation, except the request that ends its session
	 * (DELETE), which is bounded by its timeout; no request but that one is sent any
	 * more.
	 */
	void close() {
		this.closed = true;
		this.exchanges.stream().filter((exchange) -> !exchange.endsSession).forEach(Exchange::cancel);
	}

	/**
	 * Returns how many answers to JSON-RPC requests the server has sent whole: successful
	 * (2xx) responses to the requests of the generation, counted as their bodies end,
	 * whatever of this JVM reads them next. A server that sent the answer to a request
	 * that is still waiting for it is alive: something local holds the answer back.
	 * Refusals (4xx, 5xx, as a proxy answers for a server that is down), the session's
	 * own event stream and answers that break off are not counted.
	 * @return the count
	 */
	long received() {
		return this.received.sum();
	}

	/**
	 * Returns how many exchanges are going on.
	 * @return the number of exchanges
	 */
	int exchanges() {
		return this.exchanges.size();
	}

	private <T> CompletableFuture<HttpResponse<T>> exchange(HttpRequest request, BodyHandler<T> handler,
			@Nullable PushPromiseHandler<T> pushPromiseHandler) {
		try {
			requireOrigin(request.uri());
		}
		catch (ForeignOriginException ex) {
			return CompletableFuture.failedFuture(ex);
		}
		boolean endsSession = "DELETE".equals(request.method());
		if (this.closed && !endsSession) {
			return CompletableFuture.failedFuture(new IOException("the generation has ended"));
		}
		HttpRequest bounded = bounded(request);
		Exchange<T> exchange = new Exchange<>(JsonRpcRequestBody.requestId(request), endsSession, handler);
		this.exchanges.add(exchange);
		CompletableFuture<HttpResponse<T>> response;
		try {
			response = (pushPromiseHandler != null)
					? this.delegate.sendAsync(bounded, exchange::subscriber, pushPromiseHandler)
					: this.delegate.sendAsync(bounded, exchange::subscriber);
		}
		catch (RuntimeException ex) {
			exchange.end(); // refused before it was sent
			throw ex;
		}
		exchange.started(response);
		if (this.closed && !endsSession) {
			exchange.cancel();
		}
		return response;
	}

	private void requireOrigin(URI uri) throws ForeignOriginException {
		if (!this.origin.getScheme().equalsIgnoreCase(Objects.toString(uri.getScheme(), ""))
				|| !this.origin.getHost().equalsIgnoreCase(Objects.toString(uri.getHost(), ""))
				|| port(this.origin) != port(uri)) {
			throw new ForeignOriginException(uri, this.origin);
		}
	}

	private static int port(URI uri) {
		if (uri.getPort() >= 0) {
			return uri.getPort();
		}
		return "https".equals(Objects.toString(uri.getScheme(), "").toLowerCase(Locale.ROOT)) ? 443 : 80;
	}

	private HttpRequest bounded(HttpRequest request) {
		if (request.timeout().isPresent() && request.timeout().get().compareTo(this.timeout) <= 0) {
			return request;
		}
		return HttpRequest.newBuilder(request, (name, value) -> true).timeout(this.timeout).build();
	}

	/**
	 * One request and its response: cancelled, it aborts the request if the response has
	 * not come, or else stops reading the response's body and fails it to its reader.
	 */
	private final class Exchange<T> {

		private final @Nullable Object requestId;

		private final boolean endsSession;

		private final BodyHandler<T> handler;

		private @Nullable CompletableFuture<?> response;

		private Flow.@Nullable Subscription subscription;

		private @Nullable BodySubscriber<T> reader;

		private boolean cancelled;

		private boolean done;

		private volatile boolean successful;

		Exchange(@Nullable Object requestId, boolean endsSession, BodyHandler<T> handler) {
			this.requestId = requestId;
			this.endsSession = endsSession;
			this.handler = handler;
		}

		synchronized void started(CompletableFuture<?> response) {
			this.response = response;
			response.whenComplete((result, failure) -> {
				if (failure != null) {
					end();
				}
			});
			if (this.cancelled) {
				response.cancel(true);
			}
		}

		BodySubscriber<T> subscriber(ResponseInfo info) {
			this.successful = info.statusCode() >= 200 && info.statusCode() < 300;
			BodySubscriber<T> created = this.handler.apply(info);
			synchronized (this) {
				this.reader = created;
			}
			return new TrackedSubscriber(created);
		}

		void cancel() {
			Flow.Subscription current;
			BodySubscriber<T> failed = null;
			synchronized (this) {
				if (this.cancelled) {
					return;
				}
				this.cancelled = true;
				if (this.response != null) {
					this.response.cancel(true);
				}
				current = this.subscription;
				if (current != null && !this.done) {
					this.done = true;
					failed = this.reader;
				}
			}
			if (current != null) {
				current.cancel();
			}
			if (failed != null) {
				synchronized (this) {
					failed.onError(new IOException("the request was cancelled"));
				}
			}
			end();
		}

		private void end() {
			GenerationHttpClient.this.exchanges.remove(this);
		}

		/**
		 * The reader of the response's body, that the exchange can end.
		 */
		private final class TrackedSubscriber implements BodySubscriber<T> {

			private final BodySubscriber<T> reader;

			TrackedSubscriber(BodySubscriber<T> reader) {
				this.reader = reader;
			}

			@Override
			public void onSubscribe(Flow.Subscription subscription) {
				boolean cancelNow;
				synchronized (Exchange.this) {
					Exchange.this.subscription = subscription;
					cancelNow = Exchange.this.cancelled;
					this.reader.onSubscribe(subscription);
				}
				if (cancelNow) {
					subscription.cancel();
					fail(new IOException("the request was cancelled"));
				}
			}

			@Override
			public void onNext(List<ByteBuffer> item) {
				synchronized (Exchange.this) {
					if (!Exchange.this.done) {
						this.reader.onNext(item);
					}
				}
			}

			@Override
			public void onError(Throwable throwable) {
				boolean ours;
				synchronized (Exchange.this) {
					ours = Exchange.this.cancelled || Exchange.this.done;
				}
				fail(throwable);
				// the response to a request: the session's own event stream (GET) is the
				// SDK's to open again
				if (!ours && Exchange.this.requestId != null && !GenerationHttpClient.this.closed) {
					GenerationHttpClient.this.broken.accept(throwable);
				}
			}

			@Override
			public void onComplete() {
				synchronized (Exchange.this) {
					if (Exchange.this.done) {
						return;
					}
					Exchange.this.done = true;
					if (Exchange.this.requestId != null && Exchange.this.successful) {
						GenerationHttpClient.this.received.increment();
					}
					this.reader.onComplete();
				}
				end();
			}

			@Override
			public CompletionStage<T> getBody() {
				return this.reader.getBody();
			}

			private void fail(Throwable throwable) {
				synchronized (Exchange.this) {
					if (Exchange.this.done) {
						return;
					}
					Exchange.this.done = true;
					this.reader.onError(throwable);
				}
				end();
			}

		}

	}

}
