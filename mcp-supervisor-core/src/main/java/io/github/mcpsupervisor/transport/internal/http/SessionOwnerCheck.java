package io.github.mcpsupervisor.transport.internal.http;

import java.io.IOException;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpResponse.BodyHandler;
import java.net.http.HttpResponse.BodySubscriber;
import java.net.http.HttpResponse.BodySubscribers;
import java.net.http.HttpResponse.PushPromiseHandler;
import java.net.http.HttpResponse.ResponseInfo;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Flow;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

import io.github.mcpsupervisor.authorization.McpUserAuthorizationException;
import io.github.mcpsupervisor.transport.StreamableHttpServerDefinition;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;

/**
 * The HTTP client of a 2025-11-25 generation of a server that acts for each user: a
 * {@code 404} answering a user's request on the application's session is checked before
 * the SDK reads it, since the SDK takes a {@code 404} for a session the server forgot and
 * ends it (it deletes the session). A server that keeps each session for the identity
 * that opened it answers another user's request so (as the MCP security best practices
 * advise): the session, checked with a {@code ping} that carries the application's
 * identity, still answers, and that user's request fails alone. A session that does not
 * answer the check either was forgotten: the {@code 404} goes on to the SDK as it came.
 * <p>
 * The requests of users are told by a header that the binding sets and that this client
 * takes off before the request leaves.
 */
final class SessionOwnerCheck extends DelegatingHttpClient {

	/** The header that marks a request sent with a user's token; never sent. */
	static final String USER_REQUEST = "X-Mcp-Supervisor-User-Request";

	private static final Log logger = LogFactory.getLog(SessionOwnerCheck.class);

	// what of a 404's body is kept for the SDK while the session is checked
	private static final int MAX_HELD_BYTES = 64 * 1024;

	private final StreamableHttpServerDefinition definition;

	private final HttpAuthorization authorization;

	private final AtomicLong checks = new AtomicLong();

	private final AtomicBoolean warned = new AtomicBoolean();

	SessionOwnerCheck(HttpClient delegate, StreamableHttpServerDefinition definition, HttpAuthorization authorization) {
		super(delegate);
		this.definition = definition;
		this.authorization = authorization;
	}

	@Override
	public <T> CompletableFuture<HttpResponse<T>> sendAsync(HttpRequest request, BodyHandler<T> handler) {
		return this.delegate.sendAsync(unmarked(request), checked(request, handler));
	}

	@Override
	public <T> CompletableFuture<HttpResponse<T>> sendAsync(HttpRequest request, BodyHandler<T> handler,
			PushPromiseHandler<T> pushPromiseHandler) {
		return this.delegate.sendAsync(unmarked(request), checked(request, handler), pushPromiseHandler);
	}

	@Override
	public <T> HttpResponse<T> send(HttpRequest request, BodyHandler<T> handler)
			throws IOException, InterruptedException {
		return this.delegate.send(unmarked(request), handler);
	}

	private static HttpRequest unmarked(HttpRequest request) {
		return (request.headers().firstValue(USER_REQUEST).isPresent())
				? HttpRequest.newBuilder(request, (name, value) -> !USER_REQUEST.equalsIgnoreCase(name)).build()
				: request;
	}

	private <T> BodyHandler<T> checked(HttpRequest request, BodyHandler<T> handler) {
		String session = request.headers().firstValue("Mcp-Session-Id").orElse(null);
		if (session == null || request.headers().firstValue(USER_REQUEST).isEmpty()) {
			return handler;
		}
		return (info) -> (info.statusCode() == 404) ? new HeldNotFound<>(info, handler, check(request, session))
				: handler.apply(info);
	}

	// Whether the session answers a ping with the application's identity, within the
	// request timeout: off the HTTP client's threads, as obtaining the application's
	// token may block; the exchange is cancelled at the timeout.
	private CompletableFuture<Boolean> check(HttpRequest request, String session) {
		return Mono.fromCallable(() -> ping(request, session))
			.subscribeOn(Schedulers.boundedElastic())
			.flatMap(Mono::fromFuture)
			.timeout(this.definition.requestTimeout())
			.onErrorReturn(false)
			.toFuture();
	}

	// The status of the ping's answer, known at its headers: an event stream kept open
	// is not waited for.
	private CompletableFuture<Boolean> ping(HttpRequest refused, String session) {
		String body = "{\"jsonrpc\":\"2.0\",\"id\":\"mcp-supervisor-session-check-" + this.checks.incrementAndGet()
				+ "\",\"method\":\"ping\"}";
		// the refused request's headers (the configured ones, the application's
		// customizers', the session's), with the application's identity
		HttpRequest.Builder ping = HttpRequest
			.newBuilder(refused,
					(name, value) -> !USER_REQUEST.equalsIgnoreCase(name) && !"Authorization".equalsIgnoreCase(name)
							&& !"Mcp-Method".equalsIgnoreCase(name))
			.timeout(this.definition.requestTimeout())
			.setHeader("Mcp-Session-Id", session)
			.POST(HttpRequest.BodyPublishers.ofString(body, StandardCharsets.UTF_8));
		String application = this.authorization.authorization(null);
		if (application != null) {
			ping.setHeader("Authorization", application);
		}
		CompletableFuture<Boolean> answered = new CompletableFuture<>();
		CompletableFuture<HttpResponse<Void>> exchange = this.delegate.sendAsync(ping.build(), (info) -> {
			answered.complete(info.statusCode() == 200);
			return BodySubscribers.discarding();
		});
		exchange.whenComplete((response, failure) -> answered.complete(false));
		// the answer's status is enough: its body is not read on
		answered.whenComplete((alive, failure) -> exchange.cancel(true));
		return answered;
	}

	private McpUserAuthorizationException refusedToUser() {
		if (this.warned.compareAndSet(false, true)) {
			logger.warn("MCP server '" + this.definition.name() + "' does not know its session when a user's token is"
					+ " sent on it: it keeps each session for the identity that opened it, so it cannot act for each"
					+ " user over MCP 2025-11-25; serve it over 2026-07-28, or let it act for the application");
		}
		return new McpUserAuthorizationException(this.definition.name(),
				"MCP server '" + this.definition.name() + "' does not take your account on the application's"
						+ " session: it keeps each session for one identity",
				null, false);
	}

	/**
	 * The body of a {@code 404} to a user's request, held while the session is checked:
	 * the request then fails alone, or the SDK reads the {@code 404} as it came.
	 */
	private final class HeldNotFound<T> implements BodySubscriber<T> {

		private final ResponseInfo info;

		private final BodyHandler<T> handler;

		private final CompletableFuture<Boolean> alive;

		private final List<ByteBuffer> held = new ArrayList<>();

		private final CompletableFuture<T> body = new CompletableFuture<>();

		private int heldBytes;

		HeldNotFound(ResponseInfo info, BodyHandler<T> handler, CompletableFuture<Boolean> alive) {
			this.info = info;
			this.handler = handler;
			this.alive = alive;
		}

		@Override
		public void onSubscribe(Flow.Subscription subscription) {
			subscription.request(Long.MAX_VALUE);
		}

		@Override
		public void onNext(List<ByteBuffer> item) {
			for (ByteBuffer buffer : item) {
				if (this.heldBytes + buffer.remaining() > MAX_HELD_BYTES) {
					// what is held is the body's start, without a gap
					this.heldBytes = MAX_HELD_BYTES + 1;
					return;
				}
				this.heldBytes += buffer.remaining();
				this.held.add(buffer);
			}
		}

		@Override
		public void onError(Throwable throwable) {
			this.body.completeExceptionally(throwable);
		}

		@Override
		public void onComplete() {
			this.alive.whenComplete((answers, failure) -> {
				if (Boolean.TRUE.equals(answers)) {
					this.body.completeExceptionally(new IOException(refusedToUser()));
				}
				else {
					passOn();
				}
			});
		}

		// The 404 as it came, to the SDK's reader.
		private void passOn() {
			BodySubscriber<T> reader = this.handler.apply(this.info);
			reader.onSubscribe(new Flow.Subscription() {

				@Override
				public void request(long n) {
				}

				@Override
				public void cancel() {
				}

			});
			if (!this.held.isEmpty()) {
				reader.onNext(List.copyOf(this.held));
			}
			reader.onComplete();
			reader.getBody().whenComplete((result, failure) -> {
				if (failure != null) {
					this.body.completeExceptionally(failure);
				}
				else {
					this.body.complete(result);
				}
			});
		}

		@Override
		public CompletionStage<T> getBody() {
			return this.body;
		}

	}

}
