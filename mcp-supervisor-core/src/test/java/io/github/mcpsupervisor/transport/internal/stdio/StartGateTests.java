package io.github.mcpsupervisor.transport.internal.stdio;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import io.github.mcpsupervisor.transport.internal.stdio.StartGate.Start;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.awaitility.Awaitility.await;

/**
 * Tests for {@link StartGate}: at most its limit of starts hold a place, the others wait
 * in the order they came, a stop ends a wait at once, and a place is left exactly once.
 */
class StartGateTests {

	private static final Duration PATIENCE = Duration.ofSeconds(10);

	private final ExecutorService threads = Executors.newCachedThreadPool();

	@AfterEach
	void shutdown() {
		this.threads.shutdownNow();
	}

	@Test
	void startsBeyondTheLimitWaitForAPlaceInTheOrderTheyCame() throws Exception {
		StartGate gate = StartGate.atMost(2);
		Start first = gate.start("first", 1);
		Start second = gate.start("second", 1);
		assertThat(first.enter()).isTrue();
		assertThat(second.enter()).isTrue();
		assertThat(gate.free()).isZero();
		List<String> entered = new CopyOnWriteArrayList<>();
		List<Future<Boolean>> waiting = new ArrayList<>();
		for (String name : List.of("a", "b", "c", "d")) {
			Start start = gate.start(name, 1);
			int before = gate.waiting();
			waiting.add(this.threads.submit(() -> {
				boolean in = start.enter();
				entered.add(name);
				start.leave();
				return in;
			}));
			// each in line before the next comes
			await().atMost(PATIENCE).until(() -> gate.waiting() == before + 1);
		}
		assertThat(entered).isEmpty();
		// one place is left: the line goes through it one start at a time
		first.leave();
		for (Future<Boolean> start : waiting) {
			assertThat(start.get()).isTrue();
		}
		assertThat(entered).containsExactly("a", "b", "c", "d");
		assertThat(gate.free()).isEqualTo(1);
		second.leave();
		assertThat(gate.free()).isEqualTo(2);
	}

	@Test
	void aStartStoppedWhileItWaitsLeavesTheLineAtOnceWithoutAPlace() throws Exception {
		StartGate gate = StartGate.atMost(1);
		Start holder = gate.start("holder", 1);
		assertThat(holder.enter()).isTrue();
		Start queued = gate.start("queued", 1);
		CompletableFuture<Boolean> entered = new CompletableFuture<>();
		CompletableFuture<Boolean> interrupted = new CompletableFuture<>();
		this.threads.execute(() -> {
			entered.complete(queued.enter());
			interrupted.complete(Thread.currentThread().isInterrupted());
		});
		await().atMost(PATIENCE).until(() -> gate.waiting() == 1);
		queued.stop();
		assertThat(entered.get()).isFalse();
		assertThat(interrupted.get()).as("the stop's interrupt stays with the start").isFalse();
		assertThat(gate.waiting()).isZero();
		queued.leave();
		assertThat(gate.free()).isZero();
		holder.leave();
		assertThat(gate.free()).isEqualTo(1);
	}

	@Test
	void aStartStoppedBeforeItComesNeverEnters() {
		StartGate gate = StartGate.atMost(1);
		Start start = gate.start("stopped", 1);
		start.stop();
		assertThat(start.enter()).isFalse();
		assertThat(gate.free()).isEqualTo(1);
		Start unbounded = StartGate.unbounded().start("stopped", 1);
		unbounded.stop();
		assertThat(unbounded.enter()).isFalse();
	}

	@Test
	void aPlaceIsLeftExactlyOnce() {
		StartGate gate = StartGate.atMost(2);
		Start start = gate.start("s", 1);
		assertThat(start.enter()).isTrue();
		assertThat(gate.free()).isEqualTo(1);
		start.stop();
		start.leave();
		start.leave();
		assertThat(gate.free()).isEqualTo(2);
		Start never = gate.start("never", 1);
		never.leave();
		assertThat(gate.free()).isEqualTo(2);
	}

	@Test
	void anInterruptThatIsNotAStopEndsTheWaitAndIsKept() throws Exception {
		StartGate gate = StartGate.atMost(1);
		Start holder = gate.start("holder", 1);
		assertThat(holder.enter()).isTrue();
		Start queued = gate.start("queued", 1);
		CompletableFuture<Thread> thread = new CompletableFuture<>();
		CompletableFuture<Boolean> entered = new CompletableFuture<>();
		CompletableFuture<Boolean> interrupted = new CompletableFuture<>();
		this.threads.execute(() -> {
			thread.complete(Thread.currentThread());
			entered.complete(queued.enter());
			interrupted.complete(Thread.interrupted());
		});
		await().atMost(PATIENCE).until(() -> gate.waiting() == 1);
		thread.get().interrupt();
		assertThat(entered.get()).isFalse();
		assertThat(interrupted.get()).isTrue();
		holder.leave();
		assertThat(gate.free()).isEqualTo(1);
	}

	@Test
	void anUnboundedGateLetsEveryStartThrough() {
		StartGate gate = StartGate.unbounded();
		for (int i = 1; i <= 100; i++) {
			assertThat(gate.start("s", i).enter()).isTrue();
		}
		assertThat(gate.waiting()).isZero();
	}

	@Test
	void aLimitBelowOneIsRefused() {
		assertThatIllegalArgumentException().isThrownBy(() -> StartGate.atMost(0)).withMessageContaining("not 0");
	}

}
