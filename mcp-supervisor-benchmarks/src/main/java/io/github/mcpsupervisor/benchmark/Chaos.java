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
import io.github.mcpsupervisor.supervisor.McpStandbyStatus;
import io.github.mcpsupervisor.supervisor.McpStandbyStatus.McpStandbyState;
import org.jspecify.annotations.Nullable;

/** The chaos scenario's callers, killer and process monitor. */
final class Chaos {

	/** How long a kill waits for a ready spare before it goes ahead without one. */
	static final Duration SPARE_PATIENCE = Duration.ofSeconds(10);

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
			boolean wasWhole = false;
			this.timeline.state(false);
			this.timeline.whole(false);
			while (System.nanoTime() < end) {
				this.maxLive.accumulateAndGet(BenchmarkServers.demoProcesses(), Math::max);
				countServing();
				boolean up = this.supervisor.state() == McpServerState.UP;
				if (up != wasUp) {
					this.timeline.state(up);
					wasUp = up;
				}
				boolean whole = up && (this.spare == Spare.NONE || this.spare.ready());
				if (whole != wasWhole) {
					this.timeline.whole(whole);
					wasWhole = whole;
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
			awaitReadySpare(end);
			// the serving generation's process, never the spare; none while the server
			// is restarting: a pause that ends then kills nothing and is no kill
			Long pid = this.supervisor.status().pid();
			if (System.nanoTime() < end && pid != null) {
				if (pid.equals(this.spare.pid())) {
					throw new IllegalStateException("the serving pid " + pid + " is the spare's");
				}
				if (!this.spare.ready()) {
					this.killsWithoutReadySpare++;
				}
				this.killed.add(pid);
				this.timeline.kill();
				ProcessHandle.of(pid).ifPresent(ProcessHandle::destroyForcibly);
				this.kills++;
			}
		}
		for (Thread thread : threads) {
			thread.join();
		}
		monitor.join();
	}

	// With a standby, a kill waits (bounded) for a ready spare: each kill then tells what
	// a promotion costs the callers, not how often the kills outpace the spare's start.
	private void awaitReadySpare(long end) throws InterruptedException {
		if (this.spare == Spare.NONE) {
			return;
		}
		long deadline = Math.min(end, System.nanoTime() + SPARE_PATIENCE.toNanos());
		while (!this.spare.ready() && System.nanoTime() < deadline) {
			Thread.sleep(5);
		}
	}

	// The processes neither killed (a killed one lingers until it is reaped) nor the
	// spare, in a sample that no promotion crossed (the spare read the same before and
	// after) and in which no spare was being spawned (its process may exist before its
	// pid is known): at most one serves.
	private void countServing() {
		boolean spawningBefore = this.spare.spawning();
		Long spareBefore = this.spare.pid();
		List<Long> live = ProcessHandle.current().children().map(ProcessHandle::pid).toList();
		Long spareAfter = this.spare.pid();
		if (Objects.equals(spareBefore, spareAfter) && !spawningBefore && !this.spare.spawning()) {
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

		/**
		 * The warm standby of a supervisor, as its status tells it.
		 * @param supervisor a supervisor that keeps a standby
		 * @return its spare
		 */
		static Spare of(McpServerSupervisor supervisor) {
			return new Spare() {

				@Override
				public boolean ready() {
					McpStandbyStatus standby = supervisor.status().standby();
					return standby != null && standby.state() == McpStandbyState.READY;
				}

				@Override
				public @Nullable Long pid() {
					McpStandbyStatus standby = supervisor.status().standby();
					return (standby != null) ? standby.pid() : null;
				}

				@Override
				public boolean spawning() {
					McpStandbyStatus standby = supervisor.status().standby();
					return standby != null && standby.state() == McpStandbyState.STARTING && standby.pid() == null;
				}

			};
		}

		boolean ready();

		@Nullable Long pid();

		/**
		 * Returns whether a spare is starting whose process is not known yet.
		 * @return whether a spare's pid may be missing
		 */
		default boolean spawning() {
			return false;
		}

	}

}
