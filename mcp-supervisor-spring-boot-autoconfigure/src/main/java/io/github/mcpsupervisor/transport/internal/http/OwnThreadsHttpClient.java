package io.github.mcpsupervisor.transport.internal.http;

import java.io.IOException;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpResponse.BodyHandler;
import java.net.http.HttpResponse.PushPromiseHandler;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.Future;
import java.util.concurrent.RejectedExecutionException;

/**
 * A JDK HTTP client whose asynchronous exchanges are handed back on threads of its own,
 * not in the common {@link ForkJoinPool}. The JDK's client completes the future of
 * {@code sendAsync} in the default executor of {@link CompletableFuture}: the common
 * pool, which an application's blocking tasks can fill (since Java 25 also with two CPUs,
 * where the pool has a single thread), and then a response that came, or a connection
 * that failed, reaches nobody until the request times out. Here each exchange is sent
 * with {@code send}, which completes it where its response arrives, on a thread that
 * waits for the response's headers only (the body is read by the client's own callbacks).
 * Cancelling the future aborts the exchange.
 */
final class OwnThreadsHttpClient extends DelegatingHttpClient {

	private final ExecutorService senders;

	/**
	 * Creates the client.
	 * @param delegate sends the requests
	 * @param senders runs each exchange until its response's headers, one thread each
	 */
	OwnThreadsHttpClient(HttpClient delegate, ExecutorService senders) {
		super(delegate);
		this.senders = senders;
	}

	@Override
	public <T> HttpResponse<T> send(HttpRequest request, BodyHandler<T> handler)
			throws IOException, InterruptedException {
		return this.delegate.send(request, handler);
	}

	@Override
	public <T> CompletableFuture<HttpResponse<T>> sendAsync(HttpRequest request, BodyHandler<T> handler) {
		CompletableFuture<HttpResponse<T>> response = new CompletableFuture<>();
		Future<?> sending;
		try {
			sending = this.senders.submit(() -> {
				try {
					response.complete(this.delegate.send(request, handler));
				}
				catch (InterruptedException ex) {
					// cancelled: send has aborted the exchange
					response.completeExceptionally(ex);
				}
				catch (IOException | RuntimeException ex) {
					response.completeExceptionally(asSentAsync(ex));
				}
			});
		}
		catch (RejectedExecutionException ex) {
			return CompletableFuture.failedFuture(new IOException("the HTTP client is closed", ex));
		}
		response.whenComplete((result, failure) -> {
			if (response.isCancelled()) {
				sending.cancel(true);
			}
		});
		return response;
	}

	/**
	 * Sends a request that may bring push promises through the JDK's own asynchronous
	 * path (the servers' requests never accept pushes).
	 */
	@Override
	public <T> CompletableFuture<HttpResponse<T>> sendAsync(HttpRequest request, BodyHandler<T> handler,
			PushPromiseHandler<T> pushPromiseHandler) {
		return this.delegate.sendAsync(request, handler, pushPromiseHandler);
	}

	// send wraps the failure of an exchange in a new exception of its kind with the same
	// message; sendAsync fails with the failure itself
	private static Throwable asSentAsync(Exception ex) {
		Throwable cause = ex.getCause();
		return (cause != null && Objects.equals(ex.getMessage(), cause.getMessage())) ? cause : ex;
	}

}
