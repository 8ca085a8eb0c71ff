package io.github.mcpsupervisor.transport.internal.http;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpResponse.BodyHandlers;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

import com.sun.net.httpserver.HttpServer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Tests for {@link OwnThreadsHttpClient}: every asynchronous exchange completes on the
 * starter's threads, never on {@code CompletableFuture}'s default executor (the common
 * pool an application's tasks can fill).
 */
class OwnThreadsHttpClientTests {

	private static final Duration PATIENCE = Duration.ofSeconds(10);

	private final ExecutorService serverThreads = Executors.newCachedThreadPool();

	private final HttpServer server = server(this.serverThreads);

	private final CountDownLatch answer = new CountDownLatch(1);

	private final CountDownLatch rest = new CountDownLatch(1);

	private final ThreadPoolExecutor senders = OwnThreadsHttpClient.senders();

	private final ThreadPoolExecutor callbacks = SharedHttpClient.callbackExecutor();

	private final HttpClient client = new OwnThreadsHttpClient(HttpClient.newBuilder().executor(this.callbacks).build(),
			this.senders);

	@AfterEach
	void stop() {
		this.answer.countDown();
		this.rest.countDown();
		this.server.stop(0);
		this.serverThreads.shutdownNow();
		this.senders.shutdownNow();
		this.callbacks.shutdownNow();
	}

	@Test
	void aResponseCompletesOnTheStartersThreads() throws Exception {
		this.server.createContext("/", (exchange) -> {
			awaitLatch(this.answer);
			byte[] body = "hello".getBytes(StandardCharsets.UTF_8);
			exchange.sendResponseHeaders(200, body.length);
			try (OutputStream out = exchange.getResponseBody()) {
				out.write(body);
			}
		});
		CompletableFuture<HttpResponse<String>> response = this.client.sendAsync(request(), BodyHandlers.ofString());
		CompletableFuture<String> completedOn = response.thenApply((ignored) -> Thread.currentThread().getName());
		this.answer.countDown();
		// waiting on the response itself could run its dependents on this thread
		assertThat(completedOn.get(PATIENCE.toSeconds(), TimeUnit.SECONDS)).startsWith("mcp-http-");
		assertThat(response.get().body()).isEqualTo("hello");
		assertThat(response.get().statusCode()).isEqualTo(200);
		assertThat(response.get().uri()).isEqualTo(request().uri());
	}

	@Test
	void anExchangeThatFailsBeforeItsHeadersFailsOnTheStartersThreads() throws Exception {
		try (ServerSocket silent = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
			// connected by the system's backlog, answered by nothing until accepted
			CompletableFuture<HttpResponse<String>> response = this.client.sendAsync(
					HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + silent.getLocalPort() + "/")).build(),
					BodyHandlers.ofString());
			CompletableFuture<String> failedOn = response.handle((result, failure) -> {
				assertThat(failure).isInstanceOf(IOException.class);
				return Thread.currentThread().getName();
			});
			// then every connection is closed unanswered (the JDK tries a GET once more)
			Thread closer = new Thread(() -> {
				while (!silent.isClosed()) {
					try {
						silent.accept().close();
					}
					catch (IOException ex) {
						return;
					}
				}
			});
			closer.setDaemon(true);
			closer.start();
			assertThat(failedOn.get(PATIENCE.toSeconds(), TimeUnit.SECONDS)).startsWith("mcp-http-send-");
		}
	}

	@Test
	void aBodyIsReadAfterItsHeadersWithoutHoldingASenderThread() throws Exception {
		serveTheFirstChunkThenTheRest();
		CompletableFuture<HttpResponse<String>> response = this.client.sendAsync(request(), BodyHandlers.ofString());
		awaitTheHeadersHandedOn();
		assertThat(response).isNotDone();
		this.rest.countDown();
		assertThat(response.get(PATIENCE.toSeconds(), TimeUnit.SECONDS).body()).isEqualTo("first last");
	}

	@Test
	void cancellingAnExchangeWaitingForItsHeadersFreesItsThread() throws Exception {
		CountDownLatch received = new CountDownLatch(1);
		this.server.createContext("/", (exchange) -> {
			received.countDown();
			awaitLatch(this.answer);
			exchange.sendResponseHeaders(204, -1);
			exchange.close();
		});
		CompletableFuture<HttpResponse<String>> response = this.client.sendAsync(request(), BodyHandlers.ofString());
		assertThat(received.await(PATIENCE.toSeconds(), TimeUnit.SECONDS)).isTrue();
		assertThat(this.senders.getActiveCount()).isOne();
		response.cancel(true);
		// interrupted, the JDK's send aborts the exchange instead of waiting for the
		// server
		await().atMost(PATIENCE).until(() -> this.senders.getActiveCount() == 0);
		assertThat(response).isCancelled();
	}

	@Test
	void aTimeoutOfTheCallersEndsAnExchangeWaitingForItsHeaders() throws Exception {
		CountDownLatch received = new CountDownLatch(1);
		this.server.createContext("/", (exchange) -> {
			received.countDown();
			awaitLatch(this.answer);
			exchange.sendResponseHeaders(204, -1);
			exchange.close();
		});
		CompletableFuture<HttpResponse<String>> response = this.client.sendAsync(request(), BodyHandlers.ofString())
			.orTimeout(200, TimeUnit.MILLISECONDS);
		assertThat(received.await(PATIENCE.toSeconds(), TimeUnit.SECONDS)).isTrue();
		assertThat(response).failsWithin(PATIENCE);
		await().atMost(PATIENCE).until(() -> this.senders.getActiveCount() == 0);
	}

	@Test
	void cancellingAnExchangeWhoseBodyIsComingFailsTheBodyToItsReader() throws Exception {
		serveTheFirstChunkThenTheRest();
		CompletableFuture<Throwable> readerFailure = new CompletableFuture<>();
		CompletableFuture<HttpResponse<String>> response = this.client.sendAsync(request(), (info) -> {
			HttpResponse.BodySubscriber<String> reader = HttpResponse.BodySubscribers.ofString(StandardCharsets.UTF_8);
			reader.getBody().whenComplete((body, failure) -> readerFailure.complete(failure));
			return reader;
		});
		awaitTheHeadersHandedOn();
		response.cancel(true);
		// ours, or the JDK's own when the cancel makes it fail the body at once (Java 25)
		assertThat(readerFailure.get(PATIENCE.toSeconds(), TimeUnit.SECONDS)).isInstanceOf(IOException.class);
	}

	// headers and a first chunk at once, the rest of the body once released
	private void serveTheFirstChunkThenTheRest() {
		this.server.createContext("/", (exchange) -> {
			exchange.sendResponseHeaders(200, 0);
			try (OutputStream out = exchange.getResponseBody()) {
				out.write("first ".getBytes(StandardCharsets.UTF_8));
				out.flush();
				awaitLatch(this.rest);
				out.write("last".getBytes(StandardCharsets.UTF_8));
			}
		});
	}

	// the headers have come once the one exchange's sender is free again
	private void awaitTheHeadersHandedOn() {
		await().atMost(PATIENCE)
			.until(() -> this.senders.getCompletedTaskCount() == 1 && this.senders.getActiveCount() == 0);
	}

	private HttpRequest request() {
		return HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + this.server.getAddress().getPort() + "/"))
			.build();
	}

	private static HttpServer server(ExecutorService threads) {
		try {
			HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
			server.setExecutor(threads);
			server.start();
			return server;
		}
		catch (IOException ex) {
			throw new IllegalStateException(ex);
		}
	}

	private static int closedPort() throws IOException {
		try (ServerSocket socket = new ServerSocket(0, 0, InetAddress.getLoopbackAddress())) {
			return socket.getLocalPort();
		}
	}

	private static void awaitLatch(CountDownLatch latch) {
		try {
			latch.await(30, TimeUnit.SECONDS);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}

}
