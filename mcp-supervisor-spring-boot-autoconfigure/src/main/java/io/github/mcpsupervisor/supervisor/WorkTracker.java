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
	 * Returns a future that completes when the work running now has ended.
	 * @return the future
	 */
	CompletableFuture<Void> quiescence() {
		return CompletableFuture.allOf(this.running.toArray(CompletableFuture[]::new));
	}

}
