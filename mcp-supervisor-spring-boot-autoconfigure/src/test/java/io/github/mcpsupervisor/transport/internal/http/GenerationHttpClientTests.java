package io.github.mcpsupervisor.transport.internal.http;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpResponse.BodyHandler;
import java.net.http.HttpResponse.BodyHandlers;
import java.net.http.HttpResponse.PushPromiseHandler;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;

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
