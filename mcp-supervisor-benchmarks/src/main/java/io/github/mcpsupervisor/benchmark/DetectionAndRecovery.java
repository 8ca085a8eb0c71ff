package io.github.mcpsupervisor.benchmark;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import io.github.mcpsupervisor.supervisor.CallPolicy;
import io.github.mcpsupervisor.supervisor.McpServerState;
import io.github.mcpsupervisor.supervisor.McpServerStateChange;
import io.github.mcpsupervisor.supervisor.McpServerSupervisor;
import io.github.mcpsupervisor.supervisor.ReconnectPolicy;
import io.github.mcpsupervisor.supervisor.SupervisorListener;
import io.github.mcpsupervisor.transport.StdioServerDefinition;

/**
 * Scenarios 1 and 3: detection of a SIGKILL, and kill to first successful call next to a
 * cold start.
 */
final class DetectionAndRecovery {

	private static final Duration DELAY = Duration.ofMillis(100);

	private final String label;

	private final StdioServerDefinition definition;

	private final int kills;

	private final SupervisorFactory supervisors;

	private final Results results;

	private double coldStart;

	private final List<Double> mttr = new ArrayList<>();

	DetectionAndRecovery(String label, StdioServerDefinition definition, int kills, SupervisorFactory supervisors,
			Results results) {
		this.label = label;
		this.definition = definition;
		this.kills = kills;
		this.supervisors = supervisors;
		this.results = results;
	}

	double coldStartMillis() {
		return this.coldStart;
	}

	List<Double> mttrMillis() {
		return this.mttr;
	}

	void run() throws Exception {
		List<Double> cold = new ArrayList<>();
		for (int i = 0; i < 5; i++) {
			McpServerSupervisor fresh = this.supervisors.create(this.definition, reconnect(), CallPolicy.defaults(),
					SupervisorListener.NONE);
			long started = System.nanoTime();
			fresh.start().join();
			cold.add(BenchmarkServers.millis(System.nanoTime() - started));
			fresh.stop().get(30, TimeUnit.SECONDS);
		}
		this.coldStart = Stats.median(cold);
		long[] lostAt = new long[1];
		AppliedDelays delays = new AppliedDelays();
		SupervisorListener lost = new SupervisorListener() {
			@Override
			public void stateChanged(McpServerStateChange change) {
				if (change.from() == McpServerState.UP) {
					lostAt[0] = System.nanoTime();
				}
			}
		};
		McpServerSupervisor supervisor = this.supervisors.create(this.definition, reconnect(), CallPolicy.defaults(),
				SupervisorListener.composite(List.of(lost, delays)));
		supervisor.start().join();
		List<Double> detection = new ArrayList<>();
		List<Double> mttr = this.mttr;
		List<Double> applied = new ArrayList<>();
		List<Double> mttrMinusDelay = new ArrayList<>();
		for (int i = 0; i < this.kills; i++) {
			Thread.sleep(1100); // past the stability window: every kill opens a fresh
								// outage
			lostAt[0] = 0;
			long killedAt = System.nanoTime();
			BenchmarkServers.kill(supervisor);
			BenchmarkServers.callUntilItSucceeds(supervisor, "echo", Map.of("message", "x"), Duration.ofSeconds(60));
			long succeededAt = System.nanoTime();
			double recovery = BenchmarkServers.millis(succeededAt - killedAt);
			double waited = delays.millisWithin(killedAt, succeededAt);
			mttr.add(recovery);
			applied.add(waited);
			mttrMinusDelay.add(recovery - waited);
			detection.add((lostAt[0] - killedAt) / 1e6);
		}
		supervisor.stop().get(30, TimeUnit.SECONDS);
		String prefix = this.label + "_";
		this.results.put(prefix + "cold_start_ms_p50", Stats.round(this.coldStart));
		this.results.put(prefix + "detection_ms_p50", Stats.round(Stats.median(detection)));
		this.results.put(prefix + "detection_ms_p99", Stats.round(Stats.percentile(detection, 99)));
		this.results.put(prefix + "mttr_ms_p50", Stats.round(Stats.median(mttr)));
		this.results.put(prefix + "mttr_ms_p99", Stats.round(Stats.percentile(mttr, 99)));
		this.results.put(prefix + "reconnect_delay_ms", DELAY.toMillis());
		this.results.put(prefix + "applied_delay_ms_p50", Stats.round(Stats.median(applied)));
		this.results.put(prefix + "applied_delay_ms_p99", Stats.round(Stats.percentile(applied, 99)));
		// each kill's recovery less the delays that its own outage waited
		this.results.put(prefix + "mttr_minus_delay_over_cold_start",
				Stats.round(Stats.median(mttrMinusDelay) / this.coldStart));
		this.results.put(prefix + "kills", this.kills);
	}

	private static ReconnectPolicy reconnect() {
		return reconnect(DELAY);
	}

	// Backoff without jitter from the given delay, up to 1 s: the stability window a kill
	// waits out so that it finds the outage budget reset.
	static ReconnectPolicy reconnect(Duration initialDelay) {
		return ReconnectPolicy.builder()
			.initialDelay(initialDelay)
			.maxDelay(Duration.ofSeconds(1))
			.maxAttempts(10)
			.jitter(0)
			.build();
	}

	/**
	 * Builds a supervisor of one server on the benchmark's scheduler.
	 */
	@FunctionalInterface
	interface SupervisorFactory {

		McpServerSupervisor create(StdioServerDefinition definition, ReconnectPolicy reconnect, CallPolicy call,
				SupervisorListener listener);

	}

}
