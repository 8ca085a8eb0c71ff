package io.github.mcpsupervisor.client;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;

import io.github.mcpsupervisor.supervisor.ServerText;
import io.modelcontextprotocol.client.McpAsyncClient;
import io.modelcontextprotocol.spec.McpSchema;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;

/**
 * Lists a generation's resources or prompts again when the server announces that the list
 * changed, in place of the SDK's client, which lists them for every notification, without
 * coalescing and without a page limit: one listing runs at a time and one waits, each
 * within the request timeout and the limits of {@link Pages}, 100 ms apart. The new list
 * goes to the {@link McpClientFactory}, off the thread that reads the server.
 */
public final class ListChanges {

	/** The pause between two listings of one kind. */
	static final Duration PAUSE = Duration.ofMillis(100);

	private static final Log logger = LogFactory.getLog(ListChanges.class);

	private static final int IDLE = 0;

	private static final int RUNNING = 1;

	private static final int PENDING = 2;

	private final McpClientFactory factory;

	private final McpServerSession session;

	private final Duration timeout;

	private final BooleanSupplier live;

	private final Map<String, AtomicInteger> states = new ConcurrentHashMap<>();

	/**
	 * Creates the list changes of one generation.
	 * @param factory told of every new list
	 * @param session the server's client session
	 * @param timeout the bound of one listing, all its pages together
	 * @param live whether the generation still lives: a lost generation's client is never
	 * called again
	 */
	public ListChanges(McpClientFactory factory, McpServerSession session, Duration timeout, BooleanSupplier live) {
		this.factory = factory;
		this.session = session;
		this.timeout = timeout;
		this.live = live;
	}

	/**
	 * Returns whether a notification is one of those handled here.
	 * @param method the notification's method
	 * @return whether {@link #changed} handles it
	 */
	public static boolean handles(String method) {
		return McpSchema.METHOD_NOTIFICATION_RESOURCES_LIST_CHANGED.equals(method)
				|| McpSchema.METHOD_NOTIFICATION_PROMPTS_LIST_CHANGED.equals(method);
	}

	/**
	 * Takes a notification that a list changed: lists it now, or after the listing that
	 * runs.
	 * @param client the generation's client
	 * @param method the notification's method
	 */
	public void changed(McpAsyncClient client, String method) {
		AtomicInteger state = this.states.computeIfAbsent(method, (key) -> new AtomicInteger());
		if (state.getAndUpdate((now) -> Math.min(now + 1, PENDING)) == IDLE) {
			list(client, method, state, Mono.empty());
		}
	}

	private void list(McpAsyncClient client, String method, AtomicInteger state, Mono<?> before) {
		before.then(Mono.defer(() -> this.live.getAsBoolean() ? listing(client, method) : Mono.empty()))
			.timeout(this.timeout)
			.publishOn(Schedulers.boundedElastic())
			.doOnNext(Runnable::run)
			.doOnError((ex) -> logger.warn("MCP server '" + this.session.server() + "': listing after " + method
					+ " failed: " + ServerText.forLog(String.valueOf(ex.getMessage()))))
			.onErrorResume((ex) -> Mono.empty())
			.doFinally((signal) -> {
				if (!state.compareAndSet(RUNNING, IDLE)) {
					state.set(RUNNING);
					list(client, method, state, Mono.delay(PAUSE));
				}
			})
			.subscribe();
	}

	// The listing, as the delivery of its result.
	private Mono<Runnable> listing(McpAsyncClient client, String method) {
		String server = this.session.server();
		if (McpSchema.METHOD_NOTIFICATION_RESOURCES_LIST_CHANGED.equals(method)) {
			return Pages
				.all(server, "resources", client::listResources, (page) -> page.resources(),
						(page) -> page.nextCursor())
				.map((resources) -> () -> this.factory.resourcesChanged(this.session, resources));
		}
		return Pages.all(server, "prompts", client::listPrompts, (page) -> page.prompts(), (page) -> page.nextCursor())
			.map((prompts) -> () -> this.factory.promptsChanged(this.session, prompts));
	}

}
