package io.github.mcpsupervisor.supervisor;

import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

/**
 * The blocking work a supervisor runs on its workers (attempts, syncs, terminations),
 * tracked so that a stop can wait until all of it has ended: stop is quiescent.
 */
final class WorkTracker {

	private static final Log logger = LogFactory.getLog(WorkTracker.class);

	private final Set<CompletableFuture<Void>> running = ConcurrentHashMap.newKeySet();

	private final Set<CompletableFuture<Void>> holds = ConcurrentHashMap.newKeySet();

	private final SupervisorScheduler scheduler;

	private final String server;

	WorkTracker(SupervisorScheduler scheduler, String server) {
		this.scheduler = scheduler;
		this.server = server;
	}

	/**
	 * Runs the task on a worker; a failure is logged, never lost silently.
	 * @param task the task
	 */
	void track(Runnable task) {
		CompletableFuture<Void> done = new CompletableFuture<>();
		this.running.add(done);
		try {
			this.scheduler.execute(() -> {
				try {
					task.run();
				}
				catch (RuntimeException ex) {
					logger.error("MCP server '" + this.server + "': supervisor task failed", ex);
				}
				finally {
					this.running.remove(done);
					done.complete(null);
				}
			});
		}
		catch (RuntimeException ex) {
			this.running.remove(done);
			done.complete(null);
			throw ex;
		}
	}

	/**
	 * Counts as work running from now until the work tracked between now and its release
	 * has ended: what a step hands over to its caller's thread (closing a retired client,
	 * then tracking its termination) is so seen as running from the step on, and whoever
	 * waits for quiescence after the step waits for that work too. Other holds are not
	 * waited for, so that two holds never wait for each other.
	 * @return releases the hold, once the handed-over work is tracked
	 */
	Runnable hold() {
		CompletableFuture<Void> held = new CompletableFuture<>();
		Set<CompletableFuture<Void>> before = Set.copyOf(this.running);
		this.holds.add(held);
		this.running.add(held);
		return () -> {
			CompletableFuture<?>[] handedOver = this.running.stream()
				.filter((work) -> !before.contains(work) && !this.holds.contains(work))
				.toArray(CompletableFuture[]::new);
			CompletableFuture.allOf(handedOver).whenComplete((ignored, ex) -> {
				this.running.remove(held);
				this.holds.remove(held);
				held.complete(null);
			});
		};
	}

	/**
	 * Returns a future that completes when the work running now has ended.
	 * @return the future
	 */
	CompletableFuture<Void> quiescence() {
		return CompletableFuture.allOf(this.running.toArray(CompletableFuture[]::new));
	}

}
