package io.github.mcpsupervisor.benchmark;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import io.github.mcpsupervisor.supervisor.McpServerState;
import io.github.mcpsupervisor.supervisor.McpServerSupervisor;
import io.github.mcpsupervisor.supervisor.McpServerUnavailableException;
import org.jspecify.annotations.Nullable;

/** The chaos scenario's callers, killer and process monitor. */
final class Chaos {

	final McpServerSupervisor supervisor;

	final Duration duration;

	final AtomicLong safeCalls = new AtomicLong();

	final AtomicLong safeSucceeded = new AtomicLong();

	final AtomicLong unsafeCalls = new AtomicLong();

	final AtomicLong unsafeSucceeded = new AtomicLong();

	final AtomicLong unsafeFailedFast = new AtomicLong();

	final AtomicLong otherFailures = new AtomicLong();

	final AtomicLong maxLive = new AtomicLong();

	final AtomicLong maxServing = new AtomicLong();

	int kills;

	int killsWithoutReadySpare;

	final ChaosTimeline timeline = new ChaosTimeline();

	private final Spare spare;

	private final Set<Long> killed = ConcurrentHashMap.newKeySet();

	Chaos(McpServerSupervisor supervisor, Duration duration, Spare spare) {
		this.supervisor = supervisor;
		this.duration = duration;
		this.spare = spare;
	}

	void run() throws Exception {
		long end = System.nanoTime() + this.duration.toNanos();
		List<Thread> threads = new ArrayList<>();
		for (int i = 0; i < 8; i++) {
			boolean safe = i % 2 == 0;
			threads.add(started(() -> call(safe, end)));
		}
		Thread monitor = started(() -> {
			boolean wasUp = false;
			this.timeline.state(false);
			while (System.nanoTime() < end) {
				this.maxLive.accumulateAndGet(BenchmarkServers.demoProcesses(), Math::max);
				countServing();
				boolean up = this.supervisor.state() == McpServerState.UP;
				if (up != wasUp) {
					this.timeline.state(up);
					wasUp = up;
				}
				try {
					Thread.sleep(2);
				}
				catch (InterruptedException ex) {
					return;
				}
			}
		});
		while (System.nanoTime() < end - TimeUnit.SECONDS.toNanos(2)) {
			Thread.sleep(ThreadLocalRandom.current().nextLong(2000, 5001));
			if (System.nanoTime() < end) {
				if (!this.spare.ready()) {
					this.killsWithoutReadySpare++;
				}
				this.timeline.kill();
				Long pid = this.supervisor.status().pid();
				if (pid != null) {
					this.killed.add(pid);
				}
				BenchmarkServers.kill(this.supervisor);
				this.kills++;
			}
		}
		for (Thread thread : threads) {
			thread.join();
		}
		monitor.join();
	}

	// The processes neither killed (a killed one lingers until it is reaped) nor the
	// spare, in a sample that no promotion crossed (the spare read the same before and
	// after): at most one serves.
	private void countServing() {
		Long spareBefore = this.spare.pid();
		List<Long> live = ProcessHandle.current().children().map(ProcessHandle::pid).toList();
		Long spareAfter = this.spare.pid();
		if (Objects.equals(spareBefore, spareAfter)) {
			long serving = live.stream().filter((pid) -> !pid.equals(spareAfter) && !this.killed.contains(pid)).count();
			this.maxServing.accumulateAndGet(serving, Math::max);
		}
	}

	private static Thread started(Runnable task) {
		Thread thread = new Thread(task, "benchmark-chaos");
		thread.start();
		return thread;
	}

	private void call(boolean safe, long end) {
		while (System.nanoTime() < end) {
			(safe ? this.safeCalls : this.unsafeCalls).incrementAndGet();
			try {
				if (safe) {
					this.supervisor.callTool(BenchmarkServers.request("slow", Map.of("millis", 20)));
					this.safeSucceeded.incrementAndGet();
					this.timeline.call(ChaosTimeline.Outcome.SUCCEEDED);
				}
				else {
					this.supervisor.callTool(BenchmarkServers.request("slow-write", Map.of("millis", 20)));
					this.unsafeSucceeded.incrementAndGet();
					this.timeline.call(ChaosTimeline.Outcome.SUCCEEDED);
				}
			}
			catch (McpServerUnavailableException ex) {
				(safe ? this.otherFailures : this.unsafeFailedFast).incrementAndGet();
				this.timeline.call(safe ? ChaosTimeline.Outcome.OTHER_FAILURE : ChaosTimeline.Outcome.FAILED_FAST);
			}
			catch (RuntimeException ex) {
				this.otherFailures.incrementAndGet();
				this.timeline.call(ChaosTimeline.Outcome.OTHER_FAILURE);
			}
		}
	}

	/**
	 * What the chaos knows of a warm standby: whether one is ready, and its process.
	 */
	interface Spare {

		/** No standby: no spare is ever ready. */
		Spare NONE = new Spare() {

			@Override
			public boolean ready() {
				return false;
			}

			@Override
			public @Nullable Long pid() {
				return null;
			}

		};

		boolean ready();

		@Nullable Long pid();

	}

}
