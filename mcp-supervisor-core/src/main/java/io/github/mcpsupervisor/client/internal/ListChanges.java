package io.github.mcpsupervisor.client.internal;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;
import java.util.function.UnaryOperator;

import io.github.mcpsupervisor.internal.ServerText;
import io.github.mcpsupervisor.supervisor.McpConnector.McpServerRequests;
import io.modelcontextprotocol.client.McpAsyncClient;
import io.modelcontextprotocol.spec.McpSchema;
import io.modelcontextprotocol.spec.McpSchema.JSONRPCNotification;
import io.modelcontextprotocol.spec.McpSchema.ReadResourceResult;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;
import reactor.core.publisher.Mono;
import reactor.core.publisher.Sinks;
import reactor.core.scheduler.Schedulers;

/**
 * Lists a generation's resources or prompts again when the server announces that the list
 * changed, and reads a resource again when the server announces that it was updated (in a
 * notification, or an event of a {@code subscriptions/listen} stream), in place of the
 * SDK's client, which lists or reads for every notification, without coalescing and
 * without a page limit. One listing of a kind runs at a time and one waits, each within
 * the request timeout and the limits of {@link Pages}, 100 ms apart. Updates are read for
 * the resources subscribed to only, the same way per resource (one read running, one
 * waiting), and at most {@link #MAX_READS_IN_FLIGHT} reads run at once. The new list or
 * contents go to the {@link McpClientFactory}, off the thread that reads the server. The
 * requests of a listing or read that times out are cancelled.
 *
 * @since 0.1.0
 */
public final class ListChanges {

	/** The pause between two listings of one kind. */
	static final Duration PAUSE = Duration.ofMillis(100);

	/** The reads of updated resources that run at once. */
	static final int MAX_READS_IN_FLIGHT = 4;

	private static final Log logger = LogFactory.getLog(ListChanges.class);

	private static final int IDLE = 0;

	private static final int RUNNING = 1;

	private static final int PENDING = 2;

	private final McpClientFactory factory;

	private final McpServerSession session;

	private final Duration timeout;

	private final BooleanSupplier live;

	private final UnaryOperator<Mono<?>> scoped;

	private final Map<String, AtomicInteger> states = new ConcurrentHashMap<>();

	// by URI, for the resources subscribed to only
	private final Map<String, AtomicInteger> updates = new ConcurrentHashMap<>();

	// Each URI is in it at most once (while its state goes from idle to running): its
	// buffer is bounded by the subscriptions.
	private final Sinks.Many<Update> reads = Sinks.many().unicast().onBackpressureBuffer();

	/**
	 * Creates the list changes of one generation.
	 * @param factory told of every new list
	 * @param session the server's client session
	 * @param timeout the bound of one listing, all its pages together
	 * @param live whether the generation still lives: a lost generation's client is never
	 * called again
	 * @param scoped puts the requests of one listing or read in a scope of their own, so
	 * that those left unanswered when it ends are cancelled
	 */
	public ListChanges(McpClientFactory factory, McpServerSession session, Duration timeout, BooleanSupplier live,
			UnaryOperator<Mono<?>> scoped) {
		this.factory = factory;
		this.session = session;
		this.timeout = timeout;
		this.live = live;
		this.scoped = scoped;
		this.reads.asFlux().flatMap(this::read, MAX_READS_IN_FLIGHT).subscribe();
	}

	/**
	 * Returns whether a notification is one of those handled here.
	 * @param method the notification's method
	 * @return whether {@link #changed} handles it
	 */
	public static boolean handles(String method) {
		return McpSchema.METHOD_NOTIFICATION_RESOURCES_LIST_CHANGED.equals(method)
				|| McpSchema.METHOD_NOTIFICATION_PROMPTS_LIST_CHANGED.equals(method)
				|| McpSchema.METHOD_NOTIFICATION_RESOURCES_UPDATED.equals(method);
	}

	/**
	 * Takes a notification that a list changed or a resource was updated: lists or reads
	 * it now, or after the listing or read of it that runs.
	 * @param client the generation's client
	 * @param notification the notification
	 */
	public void changed(McpAsyncClient client, JSONRPCNotification notification) {
		McpServerRequests requests = McpServerRequests.of(client);
		if (McpSchema.METHOD_NOTIFICATION_RESOURCES_UPDATED.equals(notification.method())) {
			updated(requests, (notification.params() instanceof Map<?, ?> map && map.get("uri") instanceof String uri)
					? uri : null);
			return;
		}
		listChanged(requests, notification.method());
	}

	/**
	 * Takes the news that the server's resources or prompts changed: lists them now, or
	 * after the listing of them that runs.
	 * @param requests the generation's requests
	 * @param method the method of the notification that says so in revision 2025-11-25
	 * ({@code notifications/resources/list_changed} or
	 * {@code notifications/prompts/list_changed})
	 */
	public void listChanged(McpServerRequests requests, String method) {
		AtomicInteger state = this.states.computeIfAbsent(method, (key) -> new AtomicInteger());
		if (state.getAndUpdate((now) -> Math.min(now + 1, PENDING)) == IDLE) {
			list(requests, method, state, Mono.empty());
		}
	}

	private void list(McpServerRequests requests, String method, AtomicInteger state, Mono<?> before) {
		Mono<?> listing = before
			.then(Mono.defer(() -> this.live.getAsBoolean() ? listing(requests, method) : Mono.empty()))
			.timeout(this.timeout);
		this.scoped.apply(listing)
			.cast(Runnable.class)
			.publishOn(Schedulers.boundedElastic())
			.doOnNext(Runnable::run)
			.doOnError((ex) -> logger.warn("MCP server '" + this.session.server() + "': listing after " + method
					+ " failed: " + ServerText.forLog(String.valueOf(ex.getMessage()))))
			.onErrorResume((ex) -> Mono.empty())
			.doFinally((signal) -> {
				if (!state.compareAndSet(RUNNING, IDLE)) {
					state.set(RUNNING);
					list(requests, method, state, Mono.delay(PAUSE));
				}
			})
			.subscribe();
	}

	/**
	 * Takes the news that a resource was updated: reads it now, or after the read of it
	 * that runs, if the application subscribed to it (a server cannot make the
	 * application read resources it did not subscribe to).
	 * @param requests the generation's requests
	 * @param uri the resource's URI
	 */
	public void updated(McpServerRequests requests, @Nullable String uri) {
		if (uri == null || !this.session.subscriptions().contains(uri)) {
			return;
		}
		AtomicInteger state = this.updates.computeIfAbsent(uri, (key) -> new AtomicInteger());
		if (state.getAndUpdate((now) -> Math.min(now + 1, PENDING)) == IDLE) {
			emit(new Update(requests, uri, state));
		}
	}

	private void emit(Update update) {
		this.reads.emitNext(update, Sinks.EmitFailureHandler.busyLooping(PAUSE));
	}

	private Mono<Void> read(Update update) {
		Mono<?> read = Mono
			.defer(() -> this.live.getAsBoolean() ? update.requests().readResource(update.uri()) : Mono.empty())
			.timeout(this.timeout);
		return this.scoped.apply(read)
			.cast(ReadResourceResult.class)
			.publishOn(Schedulers.boundedElastic())
			.doOnNext((result) -> this.factory.resourceUpdated(this.session, update.uri(), result.contents()))
			.doOnError((ex) -> logger
				.warn("MCP server '" + this.session.server() + "': reading resource '" + ServerText.forLog(update.uri())
						+ "' after its update failed: " + ServerText.forLog(String.valueOf(ex.getMessage()))))
			.onErrorResume((ex) -> Mono.empty())
			.doFinally((signal) -> {
				if (!update.state().compareAndSet(RUNNING, IDLE)) {
					update.state().set(RUNNING);
					Mono.delay(PAUSE).subscribe((tick) -> emit(update));
				}
			})
			.then();
	}

	// The listing, as the delivery of its result.
	private Mono<Runnable> listing(McpServerRequests requests, String method) {
		String server = this.session.server();
		if (McpSchema.METHOD_NOTIFICATION_RESOURCES_LIST_CHANGED.equals(method)) {
			return Pages
				.all(server, "resources", requests::listResources, (page) -> page.resources(),
						(page) -> page.nextCursor())
				.map((resources) -> () -> this.factory.resourcesChanged(this.session, resources));
		}
		return Pages
			.all(server, "prompts", requests::listPrompts, (page) -> page.prompts(), (page) -> page.nextCursor())
			.map((prompts) -> () -> this.factory.promptsChanged(this.session, prompts));
	}

	/**
	 * A resource to read again.
	 *
	 * @param requests the generation's requests
	 * @param uri the resource's URI
	 * @param state the state of its reads
	 */
	private record Update(McpServerRequests requests, String uri, AtomicInteger state) {

	}

}
