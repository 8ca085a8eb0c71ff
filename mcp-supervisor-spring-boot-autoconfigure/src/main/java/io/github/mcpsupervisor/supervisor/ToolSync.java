package io.github.mcpsupervisor.supervisor;

import java.util.List;

import io.modelcontextprotocol.spec.McpSchema.Tool;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

/**
 * Keeps a server's tool set in step with its live generation after the server announced a
 * change: at most one listing runs per generation, and announcements that arrive during
 * it cause exactly one more.
 */
final class ToolSync {

	private static final Log logger = LogFactory.getLog(ToolSync.class);

	private final McpServerSupervisor supervisor;

	private final SupervisorLock lock;

	private final WorkTracker work;

	ToolSync(McpServerSupervisor supervisor, SupervisorLock lock, WorkTracker work) {
		this.supervisor = supervisor;
		this.lock = lock;
		this.work = work;
	}

	/**
	 * Notes that a generation announced a change of its tools.
	 * @param generation the generation's number
	 */
	void changed(int generation) {
		this.lock.locked(() -> {
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
		boolean again = true;
		while (again) {
			boolean current = this.lock.read(() -> {
				generation.syncAgain = false;
				return isCurrent(generation);
			});
			if (!current) {
				return;
			}
			List<Tool> listed;
			try {
				listed = generation.connection.listTools();
			}
			catch (RuntimeException ex) {
				logger.warn("MCP server '" + this.supervisor.name()
						+ "': re-listing tools after a change notification failed: " + ex.getMessage());
				this.lock.read(() -> generation.syncRunning = false);
				return;
			}
			again = this.lock.locked(() -> {
				if (!isCurrent(generation)) {
					return false;
				}
				this.supervisor.swapTools(new ToolSet(generation.connection.generation(), listed));
				generation.syncRunning = generation.syncAgain;
				return generation.syncAgain;
			});
		}
	}

	// Under the lock: a listing of a retired generation is dropped.
	private boolean isCurrent(Generation generation) {
		if (this.supervisor.isLive(generation)) {
			return true;
		}
		generation.syncRunning = false;
		return false;
	}

}
