package io.github.mcpsupervisor.transport.internal.modern;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;

import io.github.mcpsupervisor.client.internal.ListChanges;
import io.github.mcpsupervisor.client.internal.McpServerSession;
import io.github.mcpsupervisor.internal.ServerText;
import io.github.mcpsupervisor.supervisor.McpConnector.McpServerRequests;
import io.modelcontextprotocol.modern.McpSchema.ServerCapabilities;
import io.modelcontextprotocol.modern.McpSchema.SubscriptionFilter;
import io.modelcontextprotocol.modern.client.McpAsyncClient;
import io.modelcontextprotocol.modern.client.SubscriptionEvent;
import io.modelcontextprotocol.spec.McpSchema;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;
import reactor.core.Disposable;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.core.publisher.Sinks;
import reactor.util.retry.Retry;

/**
 * The one {@code subscriptions/listen} stream of a 2026-07-28 generation, for all that
 * the supervisor and the application follow on its server: the tool list, the resource
 * and prompt lists, and the resources the application subscribed to (those of the
 * server's client session), each as far as the server declared it. The stream is opened
 * again with the session's subscriptions when they change and when it ends or fails while
 * the generation lives (after 0.5 s, doubling up to 30 s); the part of its filter the
 * server does not acknowledge is logged.
 */
final class Listening {

	private static final Log logger = LogFactory.getLog(Listening.class);

	private final String server;

	private final int generation;

	private final McpAsyncClient client;

	private final @Nullable ServerCapabilities capabilities;

	private final McpServerSession session;

	private final Runnable toolsChanged;

	private final Consumer<Throwable> streamFailed;

	private final ListChanges listChanges;

	private final BooleanSupplier live;

	private volatile @Nullable McpServerRequests requests;

	// guarded by this
	private @Nullable Disposable stream;

	// guarded by this
	private Sinks.@Nullable One<SubscriptionFilter> acknowledged;

	private volatile @Nullable SubscriptionFilter warnedMissing;

	private boolean closed;

	Listening(String server, int generation, McpAsyncClient client, @Nullable ServerCapabilities capabilities,
			McpServerSession session, Runnable toolsChanged, Consumer<Throwable> streamFailed, ListChanges listChanges,
			BooleanSupplier live) {
		this.server = server;
		this.generation = generation;
		this.client = client;
		this.capabilities = capabilities;
		this.session = session;
		this.toolsChanged = toolsChanged;
		this.streamFailed = streamFailed;
		this.listChanges = listChanges;
		this.live = live;
	}

	/**
	 * Sets the requests that read the lists and resources the stream says changed.
	 * @param requests the generation's requests
	 */
	void readWith(McpServerRequests requests) {
		this.requests = requests;
	}

	/**
	 * Opens the stream with the filter of now (the previous stream ends once the new one
	 * is acknowledged).
	 * @return the filter the server acknowledged; empty when nothing is followed
	 */
	synchronized Mono<SubscriptionFilter> reopen() {
		Disposable previous = this.stream;
		if (this.closed || !this.live.getAsBoolean() || filter().isEmpty()) {
			this.stream = null;
			if (previous != null) {
				previous.dispose();
			}
			return Mono.just(SubscriptionFilter.EMPTY);
		}
		Sinks.One<SubscriptionFilter> acknowledgement = Sinks.one();
		// a stream this one replaces before it was acknowledged is acknowledged with it:
		// this one's filter holds what that one's did
		Sinks.One<SubscriptionFilter> superseded = this.acknowledged;
		this.acknowledged = acknowledgement;
		this.stream = Flux.defer(() -> spec().events()).doOnNext((event) -> {
			if (event instanceof SubscriptionEvent.Subscribed subscribed) {
				acknowledged(subscribed, acknowledgement, previous);
				if (superseded != null) {
					superseded.tryEmitValue(subscribed.honoured());
				}
			}
			else {
				dispatch(event);
			}
		})
			// a stream the server ends is opened again as a broken one is, with backoff:
			// a server that ends each at once cannot make the client reopen without pause
			.concatWith(Mono.error(() -> new StreamEndedException(this.server, this.generation)))
			.doOnError((ex) -> failed(ex, acknowledgement, previous))
			.retryWhen(Retry.backoff(Long.MAX_VALUE, Duration.ofMillis(500))
				.maxBackoff(Duration.ofSeconds(30))
				.filter((ex) -> this.live.getAsBoolean()))
			.subscribe((event) -> {
			}, (ex) -> logger.debug("MCP server '" + this.server + "': the subscriptions/listen stream of generation "
					+ this.generation + " ended", ex));
		return acknowledgement.asMono();
	}

	/** Ends the stream for good. */
	synchronized void close() {
		this.closed = true;
		Disposable current = this.stream;
		this.stream = null;
		if (current != null) {
			current.dispose();
		}
		Sinks.One<SubscriptionFilter> pending = this.acknowledged;
		if (pending != null) {
			pending.tryEmitError(new IllegalStateException("generation " + this.generation + " of MCP server '"
					+ this.server + "' ended before its subscriptions were acknowledged"));
		}
	}

	private void acknowledged(SubscriptionEvent.Subscribed subscribed, Sinks.One<SubscriptionFilter> acknowledgement,
			@Nullable Disposable previous) {
		SubscriptionFilter missing = subscribed.missing();
		if (!missing.isEmpty() && !missing.equals(this.warnedMissing)) {
			this.warnedMissing = missing;
			logger.warn("MCP server '" + this.server + "' did not acknowledge part of the subscriptions/listen filter"
					+ " of generation " + this.generation + ": " + ServerText.forLog(String.valueOf(missing.fields())));
		}
		// a tool change made while no stream was open is not sent again: a stream opened
		// with none open before (the first, or one opened again after a loss) is a reason
		// to list the tools again; one that replaces an open stream is not
		boolean unfollowed = previous == null || previous.isDisposed();
		acknowledgement.tryEmitValue(subscribed.honoured());
		if (previous != null) {
			previous.dispose();
		}
		if (unfollowed && subscribed.honoured().wantsToolsListChanged()) {
			this.toolsChanged.run();
		}
	}

	// A stream that fails before its acknowledgement fails the request that opened it
	// and replaces the previous one all the same: it is opened again until the
	// generation ends.
	private void failed(Throwable ex, Sinks.One<SubscriptionFilter> acknowledgement, @Nullable Disposable previous) {
		this.streamFailed.accept(ex);
		acknowledgement.tryEmitError(ex);
		if (previous != null) {
			previous.dispose();
		}
	}

	private void dispatch(SubscriptionEvent event) {
		McpServerRequests current = this.requests;
		if (event instanceof SubscriptionEvent.ToolsListChanged) {
			this.toolsChanged.run();
		}
		else if (current == null) {
			return;
		}
		else if (event instanceof SubscriptionEvent.ResourcesListChanged) {
			this.listChanges.listChanged(current, McpSchema.METHOD_NOTIFICATION_RESOURCES_LIST_CHANGED);
		}
		else if (event instanceof SubscriptionEvent.PromptsListChanged) {
			this.listChanges.listChanged(current, McpSchema.METHOD_NOTIFICATION_PROMPTS_LIST_CHANGED);
		}
		else if (event instanceof SubscriptionEvent.ResourceUpdated updated) {
			this.listChanges.updated(current, updated.uri());
		}
	}

	// What the stream asks for now: what the server declared, and the resources of the
	// session while the server offers subscriptions.
	private SubscriptionFilter filter() {
		SubscriptionFilter filter = SubscriptionFilter.EMPTY;
		ServerCapabilities declared = this.capabilities;
		if (declared == null) {
			return filter;
		}
		if (declared.tools() != null && Boolean.TRUE.equals(declared.tools().listChanged())) {
			filter = filter.with(SubscriptionFilter.TOOLS_LIST_CHANGED, true);
		}
		if (declared.resources() != null && Boolean.TRUE.equals(declared.resources().listChanged())) {
			filter = filter.with(SubscriptionFilter.RESOURCES_LIST_CHANGED, true);
		}
		if (declared.prompts() != null && Boolean.TRUE.equals(declared.prompts().listChanged())) {
			filter = filter.with(SubscriptionFilter.PROMPTS_LIST_CHANGED, true);
		}
		Set<String> uris = this.session.subscriptions();
		if (!uris.isEmpty() && declared.resources() != null && Boolean.TRUE.equals(declared.resources().subscribe())) {
			filter = filter.with(SubscriptionFilter.RESOURCE_SUBSCRIPTIONS, List.copyOf(uris));
		}
		return filter;
	}

	private McpAsyncClient.ListenSpec spec() {
		McpAsyncClient.ListenSpec spec = this.client.listen();
		for (Map.Entry<String, Object> field : filter().fields().entrySet()) {
			spec = spec.filter(field.getKey(), field.getValue());
		}
		return spec;
	}

	/**
	 * The server ended a subscriptions/listen stream: it is opened again, with backoff.
	 */
	static final class StreamEndedException extends IllegalStateException {

		private static final long serialVersionUID = 1L;

		StreamEndedException(String server, int generation) {
			super("MCP server '" + server + "' ended the subscriptions/listen stream of generation " + generation);
		}

	}

}
