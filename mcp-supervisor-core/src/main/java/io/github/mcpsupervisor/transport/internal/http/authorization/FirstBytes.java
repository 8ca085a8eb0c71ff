package io.github.mcpsupervisor.transport.internal.http.authorization;

import java.io.ByteArrayOutputStream;
import java.net.http.HttpResponse.BodySubscriber;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Flow;

import org.jspecify.annotations.Nullable;

/**
 * Reads the first bytes of a body, up to a limit, then stops reading: the rest of a
 * larger body is never taken in.
 */
final class FirstBytes implements BodySubscriber<byte[]> {

	private final int limit;

	private final ByteArrayOutputStream bytes = new ByteArrayOutputStream();

	private final CompletableFuture<byte[]> body = new CompletableFuture<>();

	private Flow.@Nullable Subscription subscription;

	/**
	 * Creates the reader.
	 * @param limit the most bytes read
	 */
	FirstBytes(int limit) {
		this.limit = limit;
	}

	@Override
	public CompletionStage<byte[]> getBody() {
		return this.body;
	}

	@Override
	public void onSubscribe(Flow.Subscription subscription) {
		this.subscription = subscription;
		subscription.request(Long.MAX_VALUE);
	}

	@Override
	public void onNext(List<ByteBuffer> buffers) {
		for (ByteBuffer buffer : buffers) {
			int take = Math.min(buffer.remaining(), this.limit - this.bytes.size());
			byte[] chunk = new byte[take];
			buffer.get(chunk);
			this.bytes.write(chunk, 0, take);
		}
		Flow.Subscription current = this.subscription;
		if (this.bytes.size() >= this.limit && current != null && this.body.complete(this.bytes.toByteArray())) {
			current.cancel();
		}
	}

	@Override
	public void onError(Throwable throwable) {
		this.body.completeExceptionally(throwable);
	}

	@Override
	public void onComplete() {
		this.body.complete(this.bytes.toByteArray());
	}

}
