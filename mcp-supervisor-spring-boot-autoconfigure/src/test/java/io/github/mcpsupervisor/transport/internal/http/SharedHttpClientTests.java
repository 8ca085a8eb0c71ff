package io.github.mcpsupervisor.transport.internal.http;

import java.io.IOException;
import java.io.InputStream;
import java.net.ConnectException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpResponse.BodyHandlers;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.TimeUnit;

import com.sun.net.httpserver.HttpServer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link SharedHttpClient}: its exchanges reach their callers whatever the
 * application does with the common {@link ForkJoinPool}.
 */
class SharedHttpClientTests {

	private static final Duration PATIENCE = Duration.ofSeconds(10);

	private final SharedHttpClient client = new SharedHttpClient();

	private final CountDownLatch releaseCommonPool = new CountDownLatch(1);

	@AfterEach
	void close() {
		this.releaseCommonPool.countDown();
		this.client.close();
	}

	@Test
	void aResponseReachesItsCallerWhileTheApplicationFillsTheCommonPool() throws Exception {
		HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
		server.createContext("/", (exchange) -> {
			byte[] body = "{}".getBytes(StandardCharsets.UTF_8);
			exchange.sendResponseHeaders(200, body.length);
			exchange.getResponseBody().write(body);
			exchange.close();
		});
		server.start();
		try {
			fillTheCommonPool();
			CompletableFuture<HttpResponse<String>> response = this.client.httpClient()
				.sendAsync(request(server.getAddress().getPort()), BodyHandlers.ofString());
			assertThat(response).succeedsWithin(PATIENCE).extracting(HttpResponse::body).isEqualTo("{}");
		}
		finally {
			server.stop(0);
		}
	}

	@Test
	void aRefusedConnectionReachesItsCallerWhileTheApplicationFillsTheCommonPool() throws Exception {
		int closedPort;
		try (ServerSocket socket = new ServerSocket(0, 0, InetAddress.getLoopbackAddress())) {
			closedPort = socket.getLocalPort();
		}
		fillTheCommonPool();
		CompletableFuture<HttpResponse<String>> response = this.client.httpClient()
			.sendAsync(request(closedPort), BodyHandlers.ofString());
		assertThat(response).failsWithin(PATIENCE)
			.withThrowableThat()
			.havingCause()
			.isInstanceOf(ConnectException.class);
	}

	@Test
	void cancellingTheFutureOfAnExchangeClosesItsConnection() throws Exception {
		try (ServerSocket listener = new ServerSocket(0, 0, InetAddress.getLoopbackAddress())) {
			CountDownLatch requested = new CountDownLatch(1);
			CountDownLatch closedByTheClient = new CountDownLatch(1);
			Thread silentServer = new Thread(() -> {
				try (Socket connection = listener.accept(); InputStream in = connection.getInputStream()) {
					// never answers: reads until the client closes the connection
					if (in.read() >= 0) {
						requested.countDown();
					}
					while (in.read() >= 0) {
						// the request
					}
					closedByTheClient.countDown();
				}
				catch (IOException ex) {
					closedByTheClient.countDown();
				}
			});
			silentServer.start();
			CompletableFuture<HttpResponse<String>> response = this.client.httpClient()
				.sendAsync(request(listener.getLocalPort()), BodyHandlers.ofString());
			assertThat(requested.await(PATIENCE.toMillis(), TimeUnit.MILLISECONDS)).isTrue();
			response.cancel(true);
			assertThat(closedByTheClient.await(PATIENCE.toMillis(), TimeUnit.MILLISECONDS)).isTrue();
			silentServer.join(PATIENCE.toMillis());
		}
	}

	// what an application does that blocks tasks of the common pool (parallel streams,
	// CompletableFuture.supplyAsync of a blocking call): every thread of it waits
	private void fillTheCommonPool() throws InterruptedException {
		int threads = ForkJoinPool.getCommonPoolParallelism();
		CountDownLatch blocked = new CountDownLatch(threads);
		for (int i = 0; i < threads; i++) {
			ForkJoinPool.commonPool().execute(() -> {
				blocked.countDown();
				try {
					this.releaseCommonPool.await();
				}
				catch (InterruptedException ex) {
					Thread.currentThread().interrupt();
				}
			});
		}
		assertThat(blocked.await(PATIENCE.toMillis(), TimeUnit.MILLISECONDS)).isTrue();
	}

	private static HttpRequest request(int port) {
		return HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/mcp"))
			.POST(HttpRequest.BodyPublishers.ofString("{}"))
			.build();
	}

}
