package io.github.mcpsupervisor.e2e;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;

/**
 * An HTTP proxy on a loopback port in front of a loopback HTTP server, that can be
 * switched between passing every request on (streamed responses included), answering
 * every new request with an HTTP error status itself (responses already streaming go on),
 * and leaving every request unanswered and every stream silent: what a client sees of a
 * server behind a gateway when the server is out or hangs.
 */
final class SwitchableHttpProxy implements AutoCloseable {

	// what java.net.http sets itself, and what the proxy's own framing decides
	private static final Set<String> UNFORWARDED = Set.of("connection", "content-length", "expect", "host", "upgrade",
			"transfer-encoding", "keep-alive");

	private final URI target;

	private final HttpServer server;

	private final ExecutorService executor = Executors.newCachedThreadPool();

	private final HttpClient client = HttpClient.newBuilder()
		.version(HttpClient.Version.HTTP_1_1)
		.connectTimeout(Duration.ofSeconds(5))
		.build();

	private final Set<InputStream> streaming = ConcurrentHashMap.newKeySet();

	private final AtomicInteger failed = new AtomicInteger();

	private final AtomicInteger unanswered = new AtomicInteger();

	private volatile Mode mode = Mode.PASS;

	private volatile int failureStatus;

	private volatile CountDownLatch released = new CountDownLatch(0);

	/**
	 * Starts a proxy that passes requests to the given server.
	 * @param target the server's origin, {@code http://127.0.0.1:<port>}
	 * @throws IOException if no loopback port can be bound
	 */
	SwitchableHttpProxy(URI target) throws IOException {
		this.target = target;
		this.server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
		this.server.setExecutor(this.executor);
		this.server.createContext("/", this::handle);
		this.server.start();
	}

	/** The URL of the given path through the proxy. */
	URI url(String path) {
		return URI.create("http://127.0.0.1:" + this.server.getAddress().getPort() + path);
	}

	/** Passes every new request on, and lets go the requests left unanswered. */
	void pass() {
		this.mode = Mode.PASS;
		this.released.countDown();
	}

	/** Answers every new request with the given status, with no body. */
	void fail(int status) {
		this.failureStatus = status;
		this.mode = Mode.FAIL;
	}

	/** Leaves every new request unanswered until {@link #pass()} or {@link #close()}. */
	void hang() {
		this.released = new CountDownLatch(1);
		this.mode = Mode.HANG;
	}

	/** How many requests the proxy answered with its failure status. */
	int failedRequests() {
		return this.failed.get();
	}

	/** How many requests the proxy left unanswered. */
	int unansweredRequests() {
		return this.unanswered.get();
	}

	private void handle(HttpExchange exchange) throws IOException {
		try (exchange) {
			switch (this.mode) {
				case FAIL -> {
					this.failed.incrementAndGet();
					exchange.sendResponseHeaders(this.failureStatus, -1);
				}
				case HANG -> {
					this.unanswered.incrementAndGet();
					await(this.released);
				}
				case PASS -> forward(exchange);
			}
		}
	}

	private void forward(HttpExchange exchange) throws IOException {
		HttpRequest.Builder request = HttpRequest.newBuilder(this.target.resolve(exchange.getRequestURI()))
			.method(exchange.getRequestMethod(),
					HttpRequest.BodyPublishers.ofByteArray(exchange.getRequestBody().readAllBytes()));
		exchange.getRequestHeaders().forEach((name, values) -> {
			if (!UNFORWARDED.contains(name.toLowerCase())) {
				values.forEach((value) -> request.header(name, value));
			}
		});
		HttpResponse<InputStream> response;
		try {
			response = this.client.send(request.build(), HttpResponse.BodyHandlers.ofInputStream());
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IOException(ex);
		}
		for (Map.Entry<String, List<String>> header : response.headers().map().entrySet()) {
			if (!UNFORWARDED.contains(header.getKey().toLowerCase()) && !header.getKey().startsWith(":")) {
				exchange.getResponseHeaders().put(header.getKey(), header.getValue());
			}
		}
		long length = response.headers().firstValueAsLong("content-length").orElse(-1);
		InputStream body = response.body();
		this.streaming.add(body);
		try (body; OutputStream out = exchange.getResponseBody()) {
			exchange.sendResponseHeaders(response.statusCode(), (length == 0) ? -1 : 0);
			byte[] buffer = new byte[8192];
			for (int read = body.read(buffer); read >= 0; read = body.read(buffer)) {
				// a hung server sends nothing on its open streams either
				while (this.mode == Mode.HANG) {
					await(this.released);
				}
				out.write(buffer, 0, read);
				out.flush();
			}
		}
		finally {
			this.streaming.remove(body);
		}
	}

	private static void await(CountDownLatch latch) {
		try {
			latch.await();
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}

	@Override
	public void close() {
		this.released.countDown();
		this.server.stop(0);
		for (InputStream body : this.streaming) {
			try {
				body.close();
			}
			catch (IOException ex) {
				// closed already
			}
		}
		this.executor.shutdownNow();
	}

	private enum Mode {

		PASS, FAIL, HANG

	}

}
