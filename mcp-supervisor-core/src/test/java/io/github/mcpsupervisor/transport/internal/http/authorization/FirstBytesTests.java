package io.github.mcpsupervisor.transport.internal.http.authorization;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.Flow;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link FirstBytes}.
 */
class FirstBytesTests {

	@Test
	void aBodyWithinTheLimitIsReadWhole() {
		FirstBytes body = new FirstBytes(16);
		Subscription subscription = new Subscription();
		body.onSubscribe(subscription);
		body.onNext(List.of(bytes("{\"a\":"), bytes("1}")));
		body.onComplete();
		assertThat(text(body)).isEqualTo("{\"a\":1}");
		assertThat(subscription.cancelled).isFalse();
	}

	@Test
	void aLargerBodyIsCutAtTheLimitAndNotReadFurther() {
		FirstBytes body = new FirstBytes(4);
		Subscription subscription = new Subscription();
		body.onSubscribe(subscription);
		body.onNext(List.of(bytes("abc"), bytes("defgh")));
		assertThat(text(body)).isEqualTo("abcd");
		assertThat(subscription.cancelled).isTrue();
	}

	@Test
	void aFailedBodyFails() {
		FirstBytes body = new FirstBytes(4);
		body.onSubscribe(new Subscription());
		body.onError(new IOException("reset"));
		assertThat(body.getBody().toCompletableFuture()).isCompletedExceptionally();
	}

	private static String text(FirstBytes body) {
		return new String(body.getBody().toCompletableFuture().getNow(new byte[0]), StandardCharsets.UTF_8);
	}

	private static ByteBuffer bytes(String text) {
		return ByteBuffer.wrap(text.getBytes(StandardCharsets.UTF_8));
	}

	private static final class Subscription implements Flow.Subscription {

		boolean cancelled;

		@Override
		public void request(long n) {
		}

		@Override
		public void cancel() {
			this.cancelled = true;
		}

	}

}
