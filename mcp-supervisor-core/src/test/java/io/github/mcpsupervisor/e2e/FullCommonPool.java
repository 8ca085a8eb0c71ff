package io.github.mcpsupervisor.e2e;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The common {@link ForkJoinPool} held by an application's own tasks, as a parallel
 * stream or a {@code supplyAsync} without an executor that blocks on a tool call holds
 * it: every worker blocked (not in a managed block, so the pool adds no thread) until
 * {@link #close()}. Where {@link java.util.concurrent.CompletableFuture}'s default
 * executor is the common pool (Java 25 always, Java 17 with a parallelism above 1), no
 * task of anyone's runs there meanwhile.
 */
public final class FullCommonPool implements AutoCloseable {

	private final CountDownLatch release = new CountDownLatch(1);

	private final List<CompletableFuture<Void>> tasks = new ArrayList<>();

	private FullCommonPool() {
	}

	/**
	 * Fills the common pool and checks that it is full: a task submitted after the
	 * blockers does not run.
	 * @return the full pool, to release with {@link #close()}
	 * @throws InterruptedException if interrupted while the pool fills
	 */
	public static FullCommonPool fill() throws InterruptedException {
		assumeTrue(Boolean.getBoolean("mcpsupervisor.test.shared-pool"),
				"run by the failsafe execution shared-pool (SharedPool*IT), in a JVM that sees 4 CPUs");
		assertThat(ForkJoinPool.getCommonPoolParallelism())
			.as("the common pool's parallelism: these tests run in a JVM that sees several CPUs"
					+ " (-XX:ActiveProcessorCount), as production JVMs do")
			.isGreaterThan(1);
		FullCommonPool pool = new FullCommonPool();
		int workers = ForkJoinPool.getCommonPoolParallelism();
		CountDownLatch started = new CountDownLatch(workers);
		for (int i = 0; i < workers; i++) {
			pool.tasks.add(CompletableFuture.runAsync(() -> {
				started.countDown();
				pool.awaitRelease();
			}));
		}
		assertThat(started.await(10, TimeUnit.SECONDS)).as("every worker of the common pool busy").isTrue();
		CompletableFuture<Void> later = CompletableFuture.runAsync(() -> {
		});
		pool.tasks.add(later);
		assertThat(later.thenApply((ignored) -> true).completeOnTimeout(false, 200, TimeUnit.MILLISECONDS).join())
			.as("a task queued behind the application's runs")
			.isFalse();
		return pool;
	}

	private void awaitRelease() {
		try {
			this.release.await();
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}

	/**
	 * Returns whether the pool is still held: nothing queued behind the application's
	 * tasks has run.
	 * @return whether it is full
	 */
	public boolean isFull() {
		return !this.tasks.get(this.tasks.size() - 1).isDone();
	}

	@Override
	public void close() {
		this.release.countDown();
		CompletableFuture.allOf(this.tasks.toArray(CompletableFuture[]::new)).orTimeout(10, TimeUnit.SECONDS).join();
	}

}
