package io.github.mcpsupervisor.supervisor;

import java.time.Duration;

import io.github.mcpsupervisor.supervisor.McpConnector.McpConnection;
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

	private final Generations supervisor;

	LivenessProbe(HealthCheckPolicy policy, SupervisorScheduler scheduler, SupervisorLock lock,
			Generations supervisor) {
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

	/**
	 * Judges whether a generation is alive: it answers a ping, or sends any message while
	 * the ping waits. A generation that does neither while one of its calls is in flight
	 * (each bounded by its own timeout: its tool's, or the request timeout) is busy, not
	 * dead: a server that handles one request at a time answers nothing else meanwhile. A
	 * call that outlasts its own timeout is probed here as any timed-out call is.
	 * @param connection the generation
	 * @param timeout how long the ping may take
	 * @return the verdict
	 */
	static Verdict check(McpConnection connection, Duration timeout) {
		long before = connection.messagesReceived();
		boolean answered;
		try {
			answered = connection.ping(timeout);
		}
		catch (RuntimeException ex) {
			// a ping that throws is a ping not answered
			logger.debug("Ping of generation " + connection.generation() + " failed", ex);
			answered = false;
		}
		if (answered || connection.messagesReceived() != before) {
			return Verdict.ALIVE;
		}
		return (connection.callsInFlight() > 0) ? Verdict.BUSY : Verdict.UNRESPONSIVE;
	}

	private void probe(Generation generation) {
		boolean due = this.lock.step(() -> {
			if (!this.supervisor.isLive(generation) || generation.endedBecause != null) {
				return false;
			}
			generation.probeTimer = null;
			return true;
		});
		if (!due) {
			return;
		}
		Verdict verdict = check(generation.connection, this.policy.timeout());
		boolean dead = this.lock.step(() -> {
			if (!this.supervisor.isLive(generation)) {
				return false;
			}
			if (verdict == Verdict.ALIVE) {
				generation.failedProbes = 0;
				schedule(generation);
				return false;
			}
			if (verdict == Verdict.BUSY) {
				// the calls in flight have their own timeout: not counted
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
			this.supervisor.end(generation.connection, "liveness: no reply to ping (" + this.policy.failureThreshold()
					+ " in a row, " + this.policy.timeout().toMillis() + " ms each)");
		}
	}

	/**
	 * What a liveness check found.
	 */
	enum Verdict {

		/** Answered, or sent something while the ping waited. */
		ALIVE,

		/** Silent while calls are in flight, each bounded by its own timeout. */
		BUSY,

		/** Silent with nothing in flight. */
		UNRESPONSIVE

	}

}
