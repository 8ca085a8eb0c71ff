package io.github.mcpsupervisor.transport.internal;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

import org.jspecify.annotations.Nullable;
import reactor.core.publisher.Mono;
import reactor.util.context.Context;
import reactor.util.context.ContextView;

/**
 * The JSON-RPC requests that one call (or one listing, read or subscription that the
 * supervisor makes on its own) sent, carried in the Reactor context of the call: those
 * still unanswered when the call ends (it timed out, or its caller stopped waiting) are
 * cancelled.
 */
final class RequestScope implements Function<Context, Context> {

	// a call sends one request, most often: the first is kept apart, the others in a
	// list made for them
	private @Nullable Sent first;

	private @Nullable List<Sent> others;

	private @Nullable String endedBecause;

	/**
	 * Sends requests in a scope of their own, as a call does: those still unanswered when
	 * they end (timed out, failed or cancelled) are cancelled. For the requests that the
	 * supervisor sends on its own: listings, reads, subscriptions.
	 * @param <T> what the requests give
	 * @param requests the requests
	 * @param reason why unanswered ones are cancelled, as the server is told
	 * @return the requests in their scope
	 */
	static <T> Mono<T> scoped(Mono<T> requests, String reason) {
		return Mono.defer(() -> {
			RequestScope scope = new RequestScope();
			return requests.contextWrite(scope).doFinally((signal) -> scope.end(reason));
		});
	}

	/**
	 * Returns the context with this scope in it.
	 * @param context the call's context
	 * @return the context of its requests
	 */
	@Override
	public Context apply(Context context) {
		return context.put(RequestScope.class, this);
	}

	/**
	 * Returns the scope of a call, from the context of one of its requests.
	 * @param context the context
	 * @return the scope, or {@code null} if the request is not sent for a call
	 */
	static @Nullable RequestScope of(ContextView context) {
		return context.getOrDefault(RequestScope.class, null);
	}

	/**
	 * Records a request of the call; one sent after the call ended is cancelled at once.
	 * @param transport the transport that sent it
	 * @param requestId its id
	 */
	void sent(RequestCancellingTransport transport, Object requestId) {
		String reason;
		synchronized (this) {
			reason = this.endedBecause;
			if (reason == null) {
				Sent sent = new Sent(transport, requestId);
				if (this.first == null) {
					this.first = sent;
				}
				else {
					if (this.others == null) {
						this.others = new ArrayList<>();
					}
					this.others.add(sent);
				}
				return;
			}
		}
		transport.cancel(requestId, reason);
	}

	/**
	 * Ends the call: its unanswered requests are cancelled.
	 * @param reason why they are, as the server is told
	 */
	void end(String reason) {
		Sent request;
		List<Sent> requests;
		synchronized (this) {
			this.endedBecause = reason;
			request = this.first;
			requests = this.others;
			this.first = null;
			this.others = null;
		}
		if (request != null) {
			request.cancel(reason);
		}
		if (requests != null) {
			for (Sent other : requests) {
				other.cancel(reason);
			}
		}
	}

	private record Sent(RequestCancellingTransport transport, Object requestId) {

		void cancel(String reason) {
			this.transport.cancel(this.requestId, reason);
		}

	}

}
