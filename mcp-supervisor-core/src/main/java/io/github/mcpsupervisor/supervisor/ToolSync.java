package io.github.mcpsupervisor.supervisor;

import java.time.Duration;
import java.util.List;

import io.modelcontextprotocol.spec.McpSchema.Tool;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

import org.springframework.util.backoff.ExponentialBackOff;

/**
 * Keeps a server's tool set in step with its live generation after the server announced a
 * change: at most one listing runs per generation and at most one waits, announcements
 * that arrive in the meantime are folded into the waiting one, and a listing starts no
 * sooner than {@link #PAUSE} after the previous one ended. A listing that finds the tools
 * unchanged swaps nothing.
 */
final class ToolSync {

	/**
	 * How long a server's next listing waits after the previous one ended. A lone
	 * announcement is listed at once; a server that announces changes without pause costs
	 * at most about ten listings a second instead of one per announcement, and a burst of
	 * real changes is still seen within this pause of its end.
	 */
	static final Duration PAUSE = Duration.ofMillis(100);

	/** The first retry of a failed re-listing; each next one waits twice as long. */
	static final Duration RETRY_DELAY = Duration.ofSeconds(1);

	/** The longest wait between two retries of a failed re-listing. */
	static final Duration MAX_RETRY_DELAY = Duration.ofSeconds(30);

	private static final Log logger = LogFactory.getLog(ToolSync.class);

	private final Generations supervisor;

	private final SupervisorLock lock;

	private final WorkTracker work;

	private final SupervisorScheduler scheduler;

	ToolSync(Generations supervisor, SupervisorLock lock, WorkTracker work, SupervisorScheduler scheduler) {
		this.supervisor = supervisor;
		this.lock = lock;
		this.work = work;
		this.scheduler = scheduler;
	}

	/**
	 * Notes that a generation announced a change of its tools.
	 * @param generation the generation's number
	 */
	void changed(int generation) {
		this.lock.step(() -> {
			Generation live = this.supervisor.live();
			if (live == null || live.connection.generation() != generation) {
				return;
			}
			if (live.syncRunning) {
				live.syncAgain = true;
				return;
			}
			live.syncRunning = true;
			this.work.track(() -> sync(live));
		});
	}

	private void sync(Generation generation) {
		boolean current = this.lock.step(() -> {
			generation.syncAgain = false;
			return isCurrent(generation);
		});
		if (!current) {
			return;
		}
		Listing listing = list(generation);
		List<Tool> listed = listing.tools();
		this.lock.step(() -> {
			if (!isCurrent(generation)) {
				return; // a listing cut short by the end of its generation is not retried
			}
			if (listed == null) {
				logger.warn("MCP server '" + this.supervisor.name()
						+ "': re-listing tools after a change notification failed (retried later): "
						+ listing.failure());
				// the tools may have changed: listed again after a growing delay, for as
				// long as the generation lives
				if (generation.syncRetries == null) {
					generation.syncRetries = retries().start();
				}
				generation.syncAgain = true;
				Duration delay = Duration.ofMillis(generation.syncRetries.nextBackOff());
				generation.syncTimer = this.scheduler.schedule(delay, () -> paused(generation));
				return;
			}
			generation.syncRetries = null;
			ToolSet tools = this.supervisor.tools();
			if (tools.generation() != generation.connection.generation() || !tools.tools().equals(listed)) {
				this.supervisor.replaceTools(
						new ToolSet(generation.connection.generation(), listed, generation.connection.session()));
			}
			// still running until the pause is over: announcements meanwhile wait for it
			generation.syncTimer = this.scheduler.schedule(PAUSE, () -> paused(generation));
		});
	}

	private static ExponentialBackOff retries() {
		ExponentialBackOff backOff = new ExponentialBackOff(RETRY_DELAY.toMillis(), 2);
		backOff.setMaxInterval(MAX_RETRY_DELAY.toMillis());
		return backOff;
	}

	// The tools, or why listing them failed (the current set is kept).
	private Listing list(Generation generation) {
		try {
			return new Listing(generation.connection.listTools(), null);
		}
		catch (RuntimeException ex) {
			return new Listing(null, this.supervisor.loggable(ex.getMessage()));
		}
	}

	private void paused(Generation generation) {
		this.lock.step(() -> {
			generation.syncTimer = null;
			if (!isCurrent(generation)) {
				return;
			}
			if (generation.syncAgain) {
				this.work.track(() -> sync(generation));
			}
			else {
				generation.syncRunning = false;
			}
		});
	}

	// Under the lock: a listing of a retired generation is dropped.
	private boolean isCurrent(Generation generation) {
		if (this.supervisor.isLive(generation)) {
			return true;
		}
		generation.syncRunning = false;
		return false;
	}

	private record Listing(@Nullable List<Tool> tools, @Nullable String failure) {

	}

}
