package io.github.mcpsupervisor.supervisor;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;

import io.github.mcpsupervisor.internal.ListenerDispatcher;
import io.github.mcpsupervisor.supervisor.SupervisorListener.RestartCause;
import io.github.mcpsupervisor.testsupport.CapturedOutput;
import io.github.mcpsupervisor.testsupport.OutputCaptureExtension;
import io.modelcontextprotocol.spec.McpSchema.ResourceContents;
import io.modelcontextprotocol.spec.McpSchema.TextResourceContents;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The lanes of the application's callbacks: in order, bounded, and independent of each
 * other.
 */
@ExtendWith(OutputCaptureExtension.class)
class ListenerDispatcherTests {

	private static final int SERVERS = 100;

	private final ListenerDispatcher dispatcher = new ListenerDispatcher(2);

	@AfterEach
	void close() {
		this.dispatcher.close();
	}

	@Test
	void aFloodWhileACallbackIsStuckKeepsTheBoundAndTheOrderAndSparesOtherLanes() throws Exception {
		Executor flooded = this.dispatcher.lane("flooded");
		Executor quiet = this.dispatcher.lane("quiet");
		CountDownLatch stuck = new CountDownLatch(1);
		CountDownLatch release = new CountDownLatch(1);
		List<Integer> ran = new CopyOnWriteArrayList<>();
		flooded.execute(() -> {
			stuck.countDown();
			awaitQuietly(release);
		});
		assertThat(stuck.await(10, TimeUnit.SECONDS)).isTrue();
		IntStream.range(0, 200_000).forEach((i) -> flooded.execute(() -> ran.add(i)));
		List<String> others = new CopyOnWriteArrayList<>();
		quiet.execute(() -> others.add(Thread.currentThread().getName()));
		await().atMost(Duration.ofSeconds(10)).until(() -> others.size() == 1);
		assertThat(others.get(0)).startsWith("mcp-listener-");
		release.countDown();
		await().atMost(Duration.ofSeconds(10)).until(() -> ran.size() == ListenerDispatcher.MAX_WAITING);
		assertThat(ran).isEqualTo(IntStream.range(0, ListenerDispatcher.MAX_WAITING).boxed().toList());
		flooded.execute(() -> ran.add(-1));
		await().atMost(Duration.ofSeconds(10)).until(() -> ran.get(ran.size() - 1) == -1);
	}

	@Test
	void aListenerIsCalledOffTheCallersThreadInOrderAndOneThatThrowsCostsTheOthersNothing() {
		List<String> calls = new CopyOnWriteArrayList<>();
		SupervisorListener listener = SupervisorListener.dispatched(new SupervisorListener() {

			@Override
			public void restarting(String server, RestartCause cause) {
				calls.add(server + " " + cause + " " + Thread.currentThread().getName());
				if (cause == RestartCause.RESTART) {
					throw new IllegalStateException("listener bug");
				}
			}

		}, this.dispatcher);
		listener.restarting("files", RestartCause.RESTART);
		listener.restarting("files", RestartCause.CRASH);
		await().atMost(Duration.ofSeconds(10)).until(() -> calls.size() == 2);
		assertThat(calls.get(0)).startsWith("files RESTART mcp-listener-");
		assertThat(calls.get(1)).startsWith("files CRASH mcp-listener-");
	}

	@Test
	void aLaneHoldsAtMostItsBudgetOfBytesWhileACallbackIsStuck(CapturedOutput output) throws Exception {
		CountDownLatch stuck = new CountDownLatch(1);
		CountDownLatch release = new CountDownLatch(1);
		List<String> updated = new CopyOnWriteArrayList<>();
		DispatchingListener listener = new DispatchingListener(new SupervisorListener() {

			@Override
			public void restarting(String server, RestartCause cause) {
				stuck.countDown();
				awaitQuietly(release);
			}

			@Override
			public void resourceUpdated(String server, String uri, List<ResourceContents> contents) {
				updated.add(uri);
			}

		}, this.dispatcher);
		listener.restarting("files", RestartCause.RESTART);
		assertThat(stuck.await(10, TimeUnit.SECONDS)).isTrue();
		// ten contents of ten million characters each, as a server may send them
		String text = "x".repeat(10_000_000);
		for (int i = 0; i < 10; i++) {
			listener.resourceUpdated("files", "file:///" + i,
					List.of(new TextResourceContents("file:///" + i, "text/plain", text, null)));
		}
		listener.resourceUpdated("files", "file:///small",
				List.of(new TextResourceContents("file:///small", "text/plain", "x", null)));
		release.countDown();
		await().atMost(Duration.ofSeconds(10)).until(() -> updated.contains("file:///small"));
		assertThat(updated).as("the notifications that waited within the lane's bytes")
			.containsExactly("file:///0", "file:///1", "file:///2", "file:///small");
		assertThat(output).contains("MCP server 'files': dropped 1 listener notification(s) so far");
	}

	@Test
	void theLaneOfARemovedServerIsReleasedOnceItsRemovalIsTold() {
		List<String> removed = new CopyOnWriteArrayList<>();
		DispatchingListener listener = new DispatchingListener(new SupervisorListener() {

			@Override
			public void removed(String server) {
				removed.add(server);
			}

		}, this.dispatcher);
		for (int i = 0; i < SERVERS; i++) {
			listener.restarting("server-" + i, RestartCause.RESTART);
			listener.removed("server-" + i);
		}
		await().atMost(Duration.ofSeconds(10)).until(() -> removed.size() == SERVERS);
		await().atMost(Duration.ofSeconds(10))
			.untilAsserted(() -> assertThat(listener.lanes()).as("lanes after %d servers removed", SERVERS).isZero());
	}

	@Test
	void theRemovalOfAServerWhoseLaneIsFullIsToldAndReleasesTheLane() throws Exception {
		CountDownLatch stuck = new CountDownLatch(1);
		CountDownLatch release = new CountDownLatch(1);
		List<String> removed = new CopyOnWriteArrayList<>();
		DispatchingListener listener = new DispatchingListener(new SupervisorListener() {

			@Override
			public void restarting(String server, RestartCause cause) {
				stuck.countDown();
				awaitQuietly(release);
			}

			@Override
			public void removed(String server) {
				removed.add(server);
			}

		}, this.dispatcher);
		listener.restarting("flooding", RestartCause.CRASH);
		assertThat(stuck.await(10, TimeUnit.SECONDS)).isTrue();
		for (int i = 0; i <= ListenerDispatcher.MAX_WAITING; i++) {
			listener.restarting("flooding", RestartCause.CRASH);
		}
		listener.removed("flooding");
		release.countDown();
		await().atMost(Duration.ofSeconds(10)).until(() -> removed.equals(List.of("flooding")));
		await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> assertThat(listener.lanes()).isZero());
	}

	@Test
	void aServerAddedAgainUnderTheNameOfARemovedOneHearsItsNotificationsAfterTheRemoval() {
		List<String> heard = new CopyOnWriteArrayList<>();
		DispatchingListener listener = new DispatchingListener(new SupervisorListener() {

			@Override
			public void restarting(String server, RestartCause cause) {
				heard.add(cause.name());
			}

			@Override
			public void removed(String server) {
				heard.add("removed");
			}

		}, this.dispatcher);
		for (int i = 0; i < SERVERS; i++) {
			listener.restarting("files", RestartCause.CRASH);
			listener.removed("files");
		}
		listener.restarting("files", RestartCause.RESTART);
		await().atMost(Duration.ofSeconds(10)).until(() -> heard.size() == 2 * SERVERS + 1);
		for (int i = 0; i < SERVERS; i++) {
			assertThat(heard.subList(2 * i, 2 * i + 2)).containsExactly("CRASH", "removed");
		}
		assertThat(heard.get(2 * SERVERS)).isEqualTo("RESTART");
	}

	private static void awaitQuietly(CountDownLatch latch) {
		try {
			latch.await(30, TimeUnit.SECONDS);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}

}
