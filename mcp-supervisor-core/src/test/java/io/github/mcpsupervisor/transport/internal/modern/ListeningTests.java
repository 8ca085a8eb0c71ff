package io.github.mcpsupervisor.transport.internal.modern;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

import io.github.mcpsupervisor.client.internal.ClientHandlers;
import io.github.mcpsupervisor.client.internal.ListChanges;
import io.github.mcpsupervisor.client.internal.McpClientFactory;
import io.github.mcpsupervisor.client.internal.McpServerSession;
import io.modelcontextprotocol.json.McpJsonDefaults;
import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.modern.JsonRpc.JSONRPCMessage;
import io.modelcontextprotocol.modern.JsonRpc.JSONRPCNotification;
import io.modelcontextprotocol.modern.JsonRpc.JSONRPCResponse;
import io.modelcontextprotocol.modern.JsonRpc.JSONRPCResponse.JSONRPCError;
import io.modelcontextprotocol.modern.McpException;
import io.modelcontextprotocol.modern.McpSchema.ServerCapabilities;
import io.modelcontextprotocol.modern.McpSchema.SubscriptionFilter;
import io.modelcontextprotocol.modern.client.McpAsyncClient;
import io.modelcontextprotocol.modern.client.McpClient;
import io.modelcontextprotocol.modern.client.transport.McpClientTransport;
import io.modelcontextprotocol.modern.client.transport.McpTransportRequest;
import io.modelcontextprotocol.spec.McpSchema.Prompt;
import io.modelcontextprotocol.spec.McpSchema.Resource;
import io.modelcontextprotocol.spec.McpSchema.ResourceContents;
import io.modelcontextprotocol.spec.McpSchema.TextResourceContents;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.core.publisher.Sinks;
import reactor.test.scheduler.VirtualTimeScheduler;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

/**
 * The one {@code subscriptions/listen} stream of a 2026-07-28 generation, over a scripted
 * transport: what it asks for, what it delivers to the application, and how a
 * subscription changes it.
 */
class ListeningTests {

	private static final Duration TIMEOUT = Duration.ofSeconds(10);

	private static final String NOTE = "memo://note";

	private final McpJsonMapper jsonMapper = McpJsonDefaults.getMapper();

	private final ScriptedTransport transport = new ScriptedTransport();

	private final McpAsyncClient client = McpClient.async(this.transport).jsonMapper(this.jsonMapper).build();

	private final McpServerSession session = new McpServerSession("scripted", List.of());

	private final RecordingFactory factory = new RecordingFactory();

	private final AtomicInteger toolChanges = new AtomicInteger();

	@Test
	void oneStreamListensForEverythingTheServerDeclaredAndTheSessionSubscribedTo() {
		this.session.subscribe(NOTE);
		Listening listening = listening(
				ServerCapabilities.builder().tools(true).resources(true, true).prompts(true).build());
		SubscriptionFilter honoured = listening.reopen().block(TIMEOUT);
		assertThat(this.transport.filters()).containsExactly(Map.of("toolsListChanged", true, "resourcesListChanged",
				true, "promptsListChanged", true, "resourceSubscriptions", List.of(NOTE)));
		assertThat(honoured.resourceSubscriptionsOrEmpty()).containsExactly(NOTE);
		listening.close();
	}

	@Test
	@Timeout(30)
	void aServerThatEndsEachStreamAtOnceIsListenedToAgainWithBackoff() {
		VirtualTimeScheduler time = VirtualTimeScheduler.getOrSet();
		try {
			this.transport.endStreams = true;
			Listening listening = listening(ServerCapabilities.builder().tools(true).build());
			listening.reopen();
			time.advanceTimeBy(Duration.ofSeconds(60));
			// 0.5 s doubling to 30 s, each delay jittered by Reactor's +/- 50 % within
			// [0.5 s, 30 s]: the shortest delays (0.5, 0.5, 1, 2, 4, 8, 15, 15 s) reopen
			// it an eighth time at 46 s and a ninth at 61 s, the longest (0.75, 1.5, 3,
			// 6,
			// 12, 24 s) a sixth time at 47.25 s: the first stream and six to eight more
			assertThat(this.transport.filters()).hasSizeBetween(7, 9);
			assertThat(this.toolChanges.get()).isLessThanOrEqualTo(9);
			listening.close();
			int opened = this.transport.filters().size();
			time.advanceTimeBy(Duration.ofMinutes(10));
			assertThat(this.transport.filters()).hasSize(opened);
		}
		finally {
			VirtualTimeScheduler.reset();
		}
	}

	@Test
	void aStreamReplacedBeforeItsAcknowledgementIsAcknowledgedWithItsReplacement() {
		this.session.subscribe(NOTE);
		this.transport.unacknowledged = 1;
		Listening listening = listening(ServerCapabilities.builder().resources(true, false).build());
		Mono<SubscriptionFilter> first = listening.reopen();
		Mono<SubscriptionFilter> second = listening.reopen();
		assertThat(second.block(TIMEOUT).resourceSubscriptionsOrEmpty()).containsExactly(NOTE);
		assertThat(first.block(TIMEOUT).resourceSubscriptionsOrEmpty()).containsExactly(NOTE);
		listening.close();
	}

	@Test
	void aClosedListeningOpensNoStream() {
		Listening listening = listening(ServerCapabilities.builder().tools(true).build());
		listening.close();
		assertThat(listening.reopen().block(TIMEOUT).isEmpty()).isTrue();
		assertThat(this.transport.filters()).isEmpty();
	}

	@Test
	void nothingIsListenedForThatTheServerDidNotDeclare() {
		this.session.subscribe(NOTE);
		Listening listening = listening(ServerCapabilities.builder().tools(false).resources(false, false).build());
		assertThat(listening.reopen().block(TIMEOUT).isEmpty()).isTrue();
		assertThat(this.transport.filters()).isEmpty();
	}

	@Test
	void listChangesAndUpdatesReachTheFactoryInThe20251125Types() {
		this.session.subscribe(NOTE);
		Listening listening = listening(
				ServerCapabilities.builder().tools(true).resources(true, true).prompts(true).build());
		listening.reopen().block(TIMEOUT);
		this.transport.notify(0, "notifications/resources/updated", Map.of("uri", "memo://other"));
		this.transport.notify(0, "notifications/tools/list_changed", null);
		this.transport.notify(0, "notifications/resources/list_changed", null);
		this.transport.notify(0, "notifications/prompts/list_changed", null);
		this.transport.notify(0, "notifications/resources/updated", Map.of("uri", NOTE));
		await().atMost(TIMEOUT)
			.until(() -> this.toolChanges.get() == 2 && !this.factory.resources.isEmpty()
					&& !this.factory.prompts.isEmpty() && !this.factory.updated.isEmpty());
		assertThat(this.factory.resources.get(0)).extracting(Resource::uri).containsExactly(NOTE);
		assertThat(this.factory.prompts.get(0)).extracting(Prompt::name).containsExactly("greet");
		assertThat(this.factory.updated).containsExactly(NOTE);
		assertThat(((TextResourceContents) this.factory.contents.get(0).get(0)).text()).isEqualTo("read " + NOTE);
		listening.close();
	}

	@Test
	void aChangedSubscriptionOpensTheStreamAgainAndEndsThePreviousOne() {
		Listening listening = listening(ServerCapabilities.builder().tools(true).resources(true, false).build());
		ModernRequests requests = requests(listening);
		listening.reopen().block(TIMEOUT);
		this.session.subscribe(NOTE);
		requests.subscribe(NOTE).block(TIMEOUT);
		await().atMost(TIMEOUT).until(() -> this.transport.cancelled(0));
		assertThat(this.transport.cancelled(1)).isFalse();
		this.session.unsubscribe(NOTE);
		requests.unsubscribe(NOTE).block(TIMEOUT);
		assertThat(this.toolChanges).as("tool listings: the first stream's only").hasValue(1);
		assertThat(this.transport.filters()).containsExactly(Map.of("toolsListChanged", true),
				Map.of("toolsListChanged", true, "resourceSubscriptions", List.of(NOTE)),
				Map.of("toolsListChanged", true));
		await().atMost(TIMEOUT).until(() -> this.transport.cancelled(1));
		listening.close();
		await().atMost(TIMEOUT).until(() -> this.transport.cancelled(2));
	}

	@Test
	void aStreamTheServerRefusesFailsItsSubscribeAndReplacesThePreviousOne() {
		Listening listening = listening(ServerCapabilities.builder().tools(true).resources(true, false).build());
		listening.reopen().block(TIMEOUT);
		this.transport.refuseResourceSubscriptions = true;
		this.session.subscribe(NOTE);
		assertThatExceptionOfType(McpException.class)
			.isThrownBy(() -> requests(listening).subscribe(NOTE).block(TIMEOUT))
			.withMessageContaining("no resource subscriptions here");
		await().atMost(TIMEOUT).until(() -> this.transport.cancelled(0));
		listening.close();
	}

	private Listening listening(ServerCapabilities capabilities) {
		ListChanges listChanges = new ListChanges(this.factory, this.session, TIMEOUT, () -> true, (mono) -> mono);
		Listening listening = new Listening("scripted", 1, this.client, capabilities, this.session,
				this.toolChanges::incrementAndGet, (ex) -> {
				}, listChanges, () -> true);
		listening.readWith(requests(listening));
		return listening;
	}

	private ModernRequests requests(Listening listening) {
		ModernSchema schema = new ModernSchema(this.jsonMapper);
		return new ModernRequests("scripted", this.client, schema, null, listening,
				new InputAnswers("scripted", ClientHandlers.NONE, this.session, schema));
	}

	/**
	 * A server that acknowledges every listen filter as asked, keeps each stream open
	 * until the client cancels it, and answers the lists and reads.
	 */
	private final class ScriptedTransport implements McpClientTransport {

		private final List<Map<String, Object>> filters = new CopyOnWriteArrayList<>();

		private final List<Sinks.Many<JSONRPCMessage>> streams = new CopyOnWriteArrayList<>();

		private final List<Boolean> cancelled = new CopyOnWriteArrayList<>();

		volatile boolean refuseResourceSubscriptions;

		// the server ends each stream with a result right after acknowledging it
		volatile boolean endStreams;

		// how many of the next streams the server never acknowledges
		volatile int unacknowledged;

		@Override
		@SuppressWarnings("unchecked")
		public Flux<JSONRPCMessage> exchange(McpTransportRequest request) {
			Object id = request.message().id();
			Map<String, Object> params = ListeningTests.this.jsonMapper.convertValue(request.message().params(),
					Map.class);
			return switch (request.method()) {
				case "subscriptions/listen" -> listen(id, (Map<String, Object>) params.get("notifications"));
				case "resources/list" -> answer(id, Map.of("resources", List.of(Map.of("uri", NOTE, "name", "note"))));
				case "prompts/list" -> answer(id, Map.of("prompts", List.of(Map.of("name", "greet"))));
				case "resources/read" -> answer(id, Map.of("contents",
						List.of(Map.of("uri", params.get("uri"), "text", "read " + params.get("uri")))));
				default -> Flux.error(new IllegalStateException("unexpected " + request.method()));
			};
		}

		private Flux<JSONRPCMessage> listen(Object id, Map<String, Object> filter) {
			if (this.refuseResourceSubscriptions && filter.containsKey("resourceSubscriptions")) {
				return Flux.just(JSONRPCResponse.error(id, new JSONRPCError(-32602, "no resource subscriptions here")));
			}
			int index = this.streams.size();
			this.filters.add(filter);
			Sinks.Many<JSONRPCMessage> stream = Sinks.many().multicast().onBackpressureBuffer();
			this.streams.add(stream);
			this.cancelled.add(false);
			JSONRPCMessage acknowledged = new JSONRPCNotification("notifications/subscriptions/acknowledged",
					Map.of("notifications", filter));
			if (this.endStreams) {
				return Flux.just(acknowledged, JSONRPCResponse.result(id, Map.of("resultType", "complete")));
			}
			if (this.unacknowledged > 0) {
				this.unacknowledged--;
				return stream.asFlux().doOnCancel(() -> this.cancelled.set(index, true));
			}
			return Flux.concat(Flux.just(acknowledged), stream.asFlux())
				.doOnCancel(() -> this.cancelled.set(index, true));
		}

		private Flux<JSONRPCMessage> answer(Object id, Map<String, Object> result) {
			return Flux.just(JSONRPCResponse.result(id, result));
		}

		void notify(int stream, String method, Object params) {
			this.streams.get(stream).tryEmitNext(new JSONRPCNotification(method, params));
		}

		List<Map<String, Object>> filters() {
			return this.filters;
		}

		boolean cancelled(int stream) {
			return this.cancelled.get(stream);
		}

	}

	/** Records what the application is told. */
	private static final class RecordingFactory implements McpClientFactory {

		final List<List<Resource>> resources = new CopyOnWriteArrayList<>();

		final List<List<Prompt>> prompts = new CopyOnWriteArrayList<>();

		final List<String> updated = new CopyOnWriteArrayList<>();

		final List<List<ResourceContents>> contents = new CopyOnWriteArrayList<>();

		@Override
		public io.modelcontextprotocol.client.McpAsyncClient create(McpServerSession session,
				io.modelcontextprotocol.spec.McpClientTransport transport, Duration requestTimeout,
				Duration initializationTimeout) {
			throw new UnsupportedOperationException();
		}

		@Override
		public void resourcesChanged(McpServerSession session, List<Resource> resources) {
			this.resources.add(resources);
		}

		@Override
		public void promptsChanged(McpServerSession session, List<Prompt> prompts) {
			this.prompts.add(prompts);
		}

		@Override
		public void resourceUpdated(McpServerSession session, String uri, List<ResourceContents> contents) {
			this.updated.add(uri);
			this.contents.add(contents);
		}

	}

}
