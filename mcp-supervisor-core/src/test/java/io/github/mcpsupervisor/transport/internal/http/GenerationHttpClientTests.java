package io.github.mcpsupervisor.transport.internal.http;

import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpResponse.BodyHandler;
import java.net.http.HttpResponse.BodyHandlers;
import java.net.http.HttpResponse.PushPromiseHandler;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import com.sun.net.httpserver.HttpServer;
import io.modelcontextprotocol.json.McpJsonDefaults;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/**
 * Tests for {@link GenerationHttpClient}.
 */
class GenerationHttpClientTests {

	private static final URI URL = URI.create("http://127.0.0.1:8080/mcp");

	@Test
	void aRequestThatTheHttpClientRefusesAtOnceLeavesNoExchangeBehind() {
		GenerationHttpClient client = new GenerationHttpClient(new RefusingHttpClient(), URL, Duration.ofSeconds(1));
		HttpRequest request = HttpRequest.newBuilder(URL).POST(HttpRequest.BodyPublishers.ofString("{}")).build();
		for (int i = 0; i < 3; i++) {
			assertThatIllegalArgumentException().isThrownBy(() -> client.sendAsync(request, BodyHandlers.ofString()))
				.withMessage("refused");
		}
		assertThat(client.exchanges()).as("exchanges going on").isZero();
	}

	@Test
	void answersToRequestsAreCountedAsTheyEndButNotRefusalsNorTheEventStream() throws Exception {
		HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
		server.createContext("/mcp", (exchange) -> {
			byte[] body = "{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{}}".getBytes(StandardCharsets.UTF_8);
			// a proxy's answer for a server that is down: a refusal, not a sign of life
			int status = (exchange.getRequestURI().getQuery() != null) ? 502 : 200;
			exchange.sendResponseHeaders(status, body.length);
			try (OutputStream out = exchange.getResponseBody()) {
				out.write(body);
			}
		});
		server.start();
		try {
			URI url = URI.create("http://127.0.0.1:" + server.getAddress().getPort() + "/mcp");
			GenerationHttpClient client = new GenerationHttpClient(HttpClient.newHttpClient(), url,
					Duration.ofSeconds(5));
			String ping = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}";
			HttpRequest request = HttpRequest.newBuilder(url)
				.POST(JsonRpcRequestBody.of(McpJsonDefaults.getMapper(), ping))
				.build();
			client.sendAsync(request, BodyHandlers.ofString()).get(5, TimeUnit.SECONDS);
			assertThat(client.received()).isOne();
			HttpRequest refused = HttpRequest.newBuilder(URI.create(url + "?down"))
				.POST(JsonRpcRequestBody.of(McpJsonDefaults.getMapper(), ping))
				.build();
			assertThat(client.sendAsync(refused, BodyHandlers.ofString()).get(5, TimeUnit.SECONDS).statusCode())
				.isEqualTo(502);
			client.sendAsync(HttpRequest.newBuilder(url).build(), BodyHandlers.ofString()).get(5, TimeUnit.SECONDS);
			assertThat(client.received()).as("a refusal and the event stream (GET) are no answers").isOne();
		}
		finally {
			server.stop(0);
		}
	}

	/**
	 * An HTTP client that refuses every request as it is sent, as the JDK's does a
	 * request it cannot send.
	 */
	private static final class RefusingHttpClient extends DelegatingHttpClient {

		RefusingHttpClient() {
			super(HttpClient.newBuilder().build());
		}

		@Override
		public <T> HttpResponse<T> send(HttpRequest request, BodyHandler<T> handler) {
			throw new IllegalArgumentException("refused");
		}

		@Override
		public <T> CompletableFuture<HttpResponse<T>> sendAsync(HttpRequest request, BodyHandler<T> handler) {
			throw new IllegalArgumentException("refused");
		}

		@Override
		public <T> CompletableFuture<HttpResponse<T>> sendAsync(HttpRequest request, BodyHandler<T> handler,
				PushPromiseHandler<T> pushPromiseHandler) {
			throw new IllegalArgumentException("refused");
		}

	}

}
