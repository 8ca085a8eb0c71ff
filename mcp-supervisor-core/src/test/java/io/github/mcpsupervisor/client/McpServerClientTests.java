package io.github.mcpsupervisor.client;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import io.github.mcpsupervisor.client.internal.ClientSpecs;
import io.github.mcpsupervisor.client.internal.McpServerSession;
import io.github.mcpsupervisor.supervisor.FakeConnector;
import io.github.mcpsupervisor.supervisor.McpServerState;
import io.github.mcpsupervisor.supervisor.McpServerSupervisor;
import io.github.mcpsupervisor.supervisor.ToolSet.SessionInfo;
import io.github.mcpsupervisor.supervisor.VirtualScheduler;
import io.modelcontextprotocol.spec.McpError;
import io.modelcontextprotocol.spec.McpSchema.ClientCapabilities;
import io.modelcontextprotocol.spec.McpSchema.Root;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The per-server client around outages, on virtual time.
 */
@SuppressWarnings("deprecation") // sampling and roots: 2025-11-25 features that
									// 2026-07-28 deprecates
class McpServerClientTests {

	private static final String URI = "file:///srv/a/status.json";

	private final VirtualScheduler scheduler = new VirtualScheduler();

	private final FakeConnector connector = new FakeConnector();

	private final McpServerSupervisor supervisor = McpServerSupervisor.builder("demo", this.connector, this.scheduler)
		.build();

	private final McpServerSession session = new McpServerSession("demo", List.of(new Root("file:///srv/a", "a")));

	private final McpServerClient client = new McpServerClient(this.supervisor, this.session);

	@Test
	void rootsSetDuringAnOutageAreKeptForTheNextGenerationWithoutWaitingForIt() {
		this.connector.session = new SessionInfo(ClientSpecs.clientInfo("demo"),
				ClientCapabilities.builder().roots(true).build(), null);
		this.supervisor.start();
		this.scheduler.runReady();
		this.connector.last().crash(137);
		this.scheduler.runReady();
		assertThat(this.supervisor.state()).isEqualTo(McpServerState.RECONNECTING);
		CompletableFuture<Void> set = CompletableFuture
			.runAsync(() -> this.client.setRoots(List.of(new Root("file:///srv/b", "b"))));
		assertThat(set).succeedsWithin(Duration.ofSeconds(10));
		assertThat(this.client.roots()).extracting(Root::uri).containsExactly("file:///srv/b");
	}

	@Test
	void aSubscribeThatFailsKeepsTheSubscriptionAConcurrentSubscribeMade() throws Exception {
		this.supervisor.start();
		this.scheduler.runReady();
		CountDownLatch firstSent = new CountDownLatch(1);
		CountDownLatch failFirst = new CountDownLatch(1);
		AtomicInteger subscribes = new AtomicInteger();
		List<String> server = new CopyOnWriteArrayList<>();
		this.connector.last().onRequest = (method) -> {
			if (method.equals("resources/subscribe") && subscribes.incrementAndGet() == 1) {
				firstSent.countDown();
				await(failFirst);
				throw McpError.builder(-32603).message("scripted refusal").build();
			}
			server.add(method);
			return null;
		};
		CompletableFuture<Void> first = CompletableFuture.runAsync(() -> this.client.subscribe(URI));
		await(firstSent);
		Thread second = new Thread(() -> this.client.subscribe(URI));
		second.start();
		// the second subscribe is sent, or waits for the first one
		Awaitility.await()
			.atMost(Duration.ofSeconds(10))
			.until(() -> subscribes.get() == 2 || second.getState() == Thread.State.WAITING
					|| second.getState() == Thread.State.BLOCKED);
		failFirst.countDown();
		assertThat(first).failsWithin(Duration.ofSeconds(10));
		second.join(10_000);
		assertThat(server).containsExactly("resources/subscribe");
		assertThat(this.client.subscriptions()).as("the subscription the server holds is kept for every generation")
			.containsExactly(URI);
	}

	@Test
	void anUnsubscribeBetweenTwoSubscribesCannotDropTheLastOne() throws Exception {
		this.supervisor.start();
		this.scheduler.runReady();
		CountDownLatch firstSent = new CountDownLatch(1);
		CountDownLatch failFirst = new CountDownLatch(1);
		AtomicInteger requests = new AtomicInteger();
		List<String> server = new CopyOnWriteArrayList<>();
		this.connector.last().onRequest = (method) -> {
			if (requests.incrementAndGet() == 1) {
				firstSent.countDown();
				await(failFirst);
				throw McpError.builder(-32603).message("scripted refusal").build();
			}
			server.add(method);
			return null;
		};
		CompletableFuture<Void> first = CompletableFuture.runAsync(() -> this.client.subscribe(URI));
		await(firstSent);
		Thread later = new Thread(() -> {
			this.client.unsubscribe(URI);
			this.client.subscribe(URI);
		});
		later.start();
		Awaitility.await()
			.atMost(Duration.ofSeconds(10))
			.until(() -> requests.get() == 3 || later.getState() == Thread.State.WAITING
					|| later.getState() == Thread.State.BLOCKED);
		failFirst.countDown();
		assertThat(first).failsWithin(Duration.ofSeconds(10));
		later.join(10_000);
		assertThat(server).last().isEqualTo("resources/subscribe");
		assertThat(this.client.subscriptions()).as("the last subscribe won").containsExactly(URI);
	}

	@Test
	void theLocksOfResourcesNoLongerSubscribedToAreReleased() {
		this.supervisor.start();
		this.scheduler.runReady();
		this.connector.last().onRequest = (method) -> null;
		for (int i = 0; i < 100; i++) {
			this.client.subscribe(URI + i);
			this.client.unsubscribe(URI + i);
		}
		assertThat(this.client.subscriptionLocks()).as("locks after 100 resources subscribed to and left").isZero();
		assertThat(this.client.subscriptions()).isEmpty();
	}

	private static void await(CountDownLatch latch) {
		try {
			assertThat(latch.await(10, TimeUnit.SECONDS)).isTrue();
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException(ex);
		}
	}

}
