package io.github.mcpsupervisor.supervisor;

import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeoutException;

import io.github.mcpsupervisor.supervisor.McpConnector.McpConnection;
import io.github.mcpsupervisor.supervisor.SupervisorScheduler.Cancellable;
import org.jspecify.annotations.Nullable;

/**
 * The calls waiting for a server's next generation, each for at most the call policy's
 * bound. Added and released under the supervisor's lock: a waiter is added in the same
 * step that saw no live generation, so a generation that comes up can never be missed. A
 * waiter that ends (woken, timed out, abandoned) leaves the set without the lock.
 */
final class RecoveryWaiters {

	private final Set<CompletableFuture<McpConnection>> waiters = ConcurrentHashMap.newKeySet();

	private final Duration bound;

	private final SupervisorScheduler scheduler;

	private final SupervisorLock lock;

	RecoveryWaiters(Duration bound, SupervisorScheduler scheduler, SupervisorLock lock) {
		this.bound = bound;
		this.scheduler = scheduler;
		this.lock = lock;
	}

	/**
	 * Returns whether calls wait at all.
	 * @return whether the bound is positive
	 */
	boolean isEnabled() {
		return !this.bound.isZero() && !this.bound.isNegative();
	}

	Duration bound() {
		return this.bound;
	}

	/**
	 * Adds a waiter; it fails with a {@link TimeoutException} after the bound.
	 * @return the waiter
	 */
	CompletableFuture<McpConnection> add() {
		CompletableFuture<McpConnection> waiter = new CompletableFuture<>();
		this.waiters.add(waiter);
		Cancellable timeout = this.scheduler.schedule(this.bound,
				() -> waiter.completeExceptionally(new TimeoutException()));
		waiter.whenComplete((ignored, ex) -> {
			timeout.cancel();
			this.waiters.remove(waiter);
		});
		return waiter;
	}

	/**
	 * Wakes every waiter once the step has ended: with the new generation, or to fail.
	 * @param connection the new generation, or {@code null} when there will be none
	 */
	void release(@Nullable McpConnection connection) {
		List<CompletableFuture<McpConnection>> released = List.copyOf(this.waiters);
		this.waiters.clear();
		if (!released.isEmpty()) {
			this.lock.later(() -> released.forEach((waiter) -> {
				if (connection != null) {
					waiter.complete(connection);
				}
				else {
					waiter.completeExceptionally(new IllegalStateException("no generation to wait for"));
				}
			}));
		}
	}

	int size() {
		return this.waiters.size();
	}

}
