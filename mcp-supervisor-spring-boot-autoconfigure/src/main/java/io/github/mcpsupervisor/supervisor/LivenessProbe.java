package io.github.mcpsupervisor.supervisor;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

/**
 * Pings the live generation after every interval: a generation that misses the threshold
 * of pings in a row is ended as hung. Its timer belongs to the generation and ends with
 * it.
 */
final class LivenessProbe {

	private static final Log logger = LogFactory.getLog(LivenessProbe.class);

	private final HealthCheckPolicy policy;

	private final SupervisorScheduler scheduler;

	private final SupervisorLock lock;

	private final McpServerSupervisor supervisor;

	LivenessProbe(HealthCheckPolicy policy, SupervisorScheduler scheduler, SupervisorLock lock,
			McpServerSupervisor supervisor) {
		this.policy = policy;
		this.scheduler = scheduler;
		this.lock = lock;
		this.supervisor = supervisor;
	}

	/**
	 * Schedules the next probe of a generation; called under the supervisor's lock.
	 * @param generation the live generation
	 */
	void schedule(Generation generation) {
		if (this.policy.isEnabled()) {
			generation.probeTimer = this.scheduler.schedule(this.policy.interval(), () -> probe(generation));
		}
	}

	// A ping that throws is a ping not answered: probing goes on.
	private boolean ping(McpConnection connection) {
		try {
			return connection.ping(this.policy.timeout());
		}
		catch (RuntimeException ex) {
			logger.debug("MCP server '" + this.supervisor.name() + "': ping of generation " + connection.generation()
					+ " failed", ex);
			return false;
		}
	}

	private void probe(Generation generation) {
		boolean due = this.lock.read(() -> {
			if (!this.supervisor.isLive(generation) || generation.endedBecause != null) {
				return false;
			}
			generation.probeTimer = null;
			return true;
		});
		if (!due) {
			return;
		}
		boolean answered = ping(generation.connection);
		boolean dead = this.lock.locked(() -> {
			if (!this.supervisor.isLive(generation)) {
				return false;
			}
			if (answered) {
				generation.failedProbes = 0;
				schedule(generation);
				return false;
			}
			generation.failedProbes++;
			String message = "MCP server '" + this.supervisor.name() + "': no reply to ping within "
					+ this.policy.timeout().toMillis() + " ms (" + generation.failedProbes + "/"
					+ this.policy.failureThreshold() + ", generation " + generation.connection.generation() + ")";
			this.lock.later(() -> logger.warn(message));
			if (generation.failedProbes >= this.policy.failureThreshold()) {
				return true;
			}
			schedule(generation);
			return false;
		});
		if (dead) {
			this.supervisor.endGeneration(generation.connection, "liveness: no reply to ping ("
					+ this.policy.failureThreshold() + " in a row, " + this.policy.timeout().toMillis() + " ms each)");
		}
	}

}
