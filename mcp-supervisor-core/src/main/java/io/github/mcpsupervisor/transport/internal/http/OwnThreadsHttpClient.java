package io.github.mcpsupervisor.transport.internal.http;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpHeaders;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpResponse.BodyHandler;
import java.net.http.HttpResponse.BodySubscriber;
import java.net.http.HttpResponse.PushPromiseHandler;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Flow;
import java.util.concurrent.Future;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import javax.net.ssl.SSLSession;

import org.jspecify.annotations.Nullable;

/**
 * A view of the JDK client whose {@link #sendAsync asynchronous exchanges} complete on
 * threads of the starter's own, never on a pool the application shares.
 * <p>
 * The JDK's {@code sendAsync} completes its future through {@code CompletableFuture}'s
 * default executor: the common {@code ForkJoinPool} on Java 25 whatever the CPU count (on
 * Java 17 with 3 or more CPUs). An application whose own tasks fill that pool (a parallel
 * stream, a {@code supplyAsync} blocking on a tool call) would hold every answer, error
 * and failed connection of every server back. Here each exchange is sent with the
 * blocking {@code send} on a thread of {@link #senders() a pool of the starter's} until
 * its response's headers have come (connection failures and header timeouts are thrown
 * there). Its body is read by the subscriber the caller's handler makes, as the JDK reads
 * every body: what came with the headers on the sender thread, the rest on the client's
 * own executor; the future completes where that body completes. A thread is held per
 * exchange until its headers (and while it hands on what came with them), none for a body
 * still coming, none while idle. A future completed otherwise than by its exchange
 * (cancelled, or by a timeout of the caller's) ends the exchange: the thread waiting for
 * its headers is interrupted, which makes the JDK abort it, and a body being read is
 * cancelled and failed to its subscriber.
 */
final class OwnThreadsHttpClient extends DelegatingHttpClient {

	/** How long an idle sender thread is kept for the next exchange. */
	static final Duration KEEP_ALIVE = Duration.ofSeconds(30);

	private final ExecutorService senders;

	/**
	 * Creates the view.
	 * @param delegate the JDK client
	 * @param senders the threads the exchanges wait for their headers on
	 */
	OwnThreadsHttpClient(HttpClient delegate, ExecutorService senders) {
		super(delegate);
		this.senders = senders;
	}

	/**
	 * Returns a new pool of sender threads: daemon threads, one per exchange waiting for
	 * its headers, that end {@link #KEEP_ALIVE} after their last exchange.
	 * @return the pool, to shut down with the clients that use it
	 */
	static ThreadPoolExecutor senders() {
		AtomicInteger count = new AtomicInteger();
		return new ThreadPoolExecutor(0, Integer.MAX_VALUE, KEEP_ALIVE.toMillis(), TimeUnit.MILLISECONDS,
				new SynchronousQueue<>(), (task) -> {
					Thread thread = new Thread(task, "mcp-http-send-" + count.incrementAndGet());
					thread.setDaemon(true);
					return thread;
				});
	}

	@Override
	public <T> HttpResponse<T> send(HttpRequest request, BodyHandler<T> handler)
			throws IOException, InterruptedException {
		return this.delegate.send(request, handler);
	}

	@Override
	public <T> CompletableFuture<HttpResponse<T>> sendAsync(HttpRequest request, BodyHandler<T> handler) {
		CompletableFuture<HttpResponse<T>> response = new CompletableFuture<>();
		HeadersFirst<T> exchange = new HeadersFirst<>(handler);
		Future<?> sending;
		try {
			sending = this.senders.submit(() -> exchange.send(this.delegate, request, response));
		}
		catch (RejectedExecutionException ex) {
			return CompletableFuture.failedFuture(new IOException("the HTTP client of the MCP servers is closed", ex));
		}
		// completed otherwise than by the exchange (cancelled, a timeout of the
		// caller's):
		// the exchange ends, and a thread waiting for its headers is freed
		response.whenComplete((result, failure) -> {
			if (!exchange.isAnswered()) {
				sending.cancel(true);
				exchange.cancel();
			}
		});
		return response;
	}

	/**
	 * Push promises are not accepted: MCP servers send none, and the client asks for
	 * none.
	 */
	@Override
	public <T> CompletableFuture<HttpResponse<T>> sendAsync(HttpRequest request, BodyHandler<T> handler,
			PushPromiseHandler<T> pushPromiseHandler) {
		return sendAsync(request, handler);
	}

	/**
	 * One exchange: sent until its headers, its body read by the subscriber the caller's
	 * handler makes, which is told the end of the body once, whether the body ends, fails
	 * or the exchange is cancelled.
	 */
	private static final class HeadersFirst<T> {

		private final BodyHandler<T> handler;

		private volatile CompletionStage<T> body = CompletableFuture.failedStage(new IOException("no response"));

		private volatile @Nullable BodySubscriber<T> reader;

		private volatile Flow.@Nullable Subscription subscription;

		private volatile boolean cancelled;

		/**
		 * Whether the exchange itself completed the response, with its answer or failure.
		 */
		private volatile boolean answered;

		/** Whether the reader was told the end of the body. */
		private final AtomicBoolean ended = new AtomicBoolean();

		HeadersFirst(BodyHandler<T> handler) {
			this.handler = handler;
		}

		void send(HttpClient client, HttpRequest request, CompletableFuture<HttpResponse<T>> response) {
			try {
				HttpResponse<Void> headers = client.send(request, (info) -> {
					BodySubscriber<T> created = this.handler.apply(info);
					this.reader = created;
					this.body = created.getBody();
					return new BodyReader<>(created, this);
				});
				this.body.whenComplete((value, failure) -> {
					this.answered = true;
					if (failure != null) {
						response.completeExceptionally(failure);
					}
					else {
						response.complete(new Response<>(headers, value));
					}
				});
			}
			catch (InterruptedException ex) {
				response.cancel(true);
			}
			catch (IOException | RuntimeException ex) {
				this.answered = true;
				response.completeExceptionally(ex);
			}
		}

		boolean isAnswered() {
			return this.answered;
		}

		void cancel() {
			this.cancelled = true;
			Flow.Subscription current = this.subscription;
			if (current != null) {
				current.cancel();
			}
			BodySubscriber<T> currentReader = this.reader;
			if (currentReader != null && ends()) {
				// as the JDK fails the body of an exchange it aborts
				currentReader.onError(new IOException("the exchange was cancelled"));
			}
		}

		void subscribed(Flow.Subscription subscription) {
			this.subscription = subscription;
			if (this.cancelled) {
				subscription.cancel();
			}
		}

		boolean hasEnded() {
			return this.ended.get();
		}

		// Whether the end of the body is still to be told, which it then is by the
		// caller.
		boolean ends() {
			return this.ended.compareAndSet(false, true);
		}

	}

	/**
	 * Hands the body to the caller's subscriber, and tells the JDK the response is
	 * complete at its headers.
	 */
	private static final class BodyReader<T> implements BodySubscriber<Void> {

		private final BodySubscriber<T> reader;

		private final HeadersFirst<T> exchange;

		BodyReader(BodySubscriber<T> reader, HeadersFirst<T> exchange) {
			this.reader = reader;
			this.exchange = exchange;
		}

		@Override
		public CompletionStage<Void> getBody() {
			return CompletableFuture.completedStage(null);
		}

		@Override
		public void onSubscribe(Flow.Subscription subscription) {
			this.reader.onSubscribe(subscription);
			this.exchange.subscribed(subscription);
		}

		@Override
		public void onNext(List<ByteBuffer> item) {
			if (!this.exchange.hasEnded()) {
				this.reader.onNext(item);
			}
		}

		@Override
		public void onError(Throwable throwable) {
			if (this.exchange.ends()) {
				this.reader.onError(throwable);
			}
		}

		@Override
		public void onComplete() {
			if (this.exchange.ends()) {
				this.reader.onComplete();
			}
		}

	}

	/**
	 * A response: the JDK's, with the body the caller's subscriber made of it. The JDK
	 * follows no redirect for the starter, so there is never a previous response.
	 */
	private static final class Response<T> implements HttpResponse<T> {

		private final HttpResponse<Void> head;

		private final T body;

		Response(HttpResponse<Void> head, T body) {
			this.head = head;
			this.body = body;
		}

		@Override
		public int statusCode() {
			return this.head.statusCode();
		}

		@Override
		public HttpRequest request() {
			return this.head.request();
		}

		@Override
		public Optional<HttpResponse<T>> previousResponse() {
			return Optional.empty();
		}

		@Override
		public HttpHeaders headers() {
			return this.head.headers();
		}

		@Override
		public T body() {
			return this.body;
		}

		@Override
		public Optional<SSLSession> sslSession() {
			return this.head.sslSession();
		}

		@Override
		public URI uri() {
			return this.head.uri();
		}

		@Override
		public HttpClient.Version version() {
			return this.head.version();
		}

		@Override
		public String toString() {
			// as the JDK's: never the body
			return "(" + request().method() + " " + uri() + ") " + statusCode();
		}

	}

}
