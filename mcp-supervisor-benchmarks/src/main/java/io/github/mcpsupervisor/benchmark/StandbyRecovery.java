package io.github.mcpsupervisor.benchmark;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import io.github.mcpsupervisor.supervisor.CallPolicy;
import io.github.mcpsupervisor.supervisor.McpServerStatus;
import io.github.mcpsupervisor.supervisor.McpServerSupervisor;
import io.github.mcpsupervisor.supervisor.McpStandbyStatus;
import io.github.mcpsupervisor.supervisor.McpStandbyStatus.McpStandbyState;
import io.github.mcpsupervisor.supervisor.ReconnectPolicy;
import io.github.mcpsupervisor.supervisor.SupervisorListener;
import io.github.mcpsupervisor.transport.StdioServerDefinition;

/**
 * Kill to first successful call with a warm standby: before each kill, the spare is ready
 * and the serving generation has stayed up for the stability window (each kill finds the
 * outage budget reset, as a kill of {@link DetectionAndRecovery} does); then the serving
 * process is killed, and the spare serves without a start.
 */
final class StandbyRecovery {

	// the default initial-delay: the next spare starts after the server's first backoff,
	// as it does for an application that keeps the defaults (with a shorter one, the
	// next spare's cold start competes with the first calls on the promoted generation)
	private static final Duration DELAY = Duration.ofMillis(500);

	/** How long a spare may take to be ready before the kill goes ahead without one. */
	private static final Duration PATIENCE = Duration.ofSeconds(60);

	private final String label;

	private final StdioServerDefinition definition;

	private final int kills;

	private final DetectionAndRecovery.SupervisorFactory supervisors;

	private final Results results;

	private final List<Double> mttr = new ArrayList<>();

	StandbyRecovery(String label, StdioServerDefinition definition, int kills,
			DetectionAndRecovery.SupervisorFactory supervisors, Results results) {
		this.label = label;
		this.definition = definition;
		this.kills = kills;
		this.supervisors = supervisors;
		this.results = results;
	}

	List<Double> mttrMillis() {
		return this.mttr;
	}

	void run() throws Exception {
		ReconnectPolicy reconnect = DetectionAndRecovery.reconnect(DELAY);
		AtomicLong promotedAt = new AtomicLong();
		SupervisorListener promoted = new SupervisorListener() {
			@Override
			public void promoted(String server, int generation, int replaced) {
				promotedAt.set(System.nanoTime());
			}
		};
		McpServerSupervisor supervisor = this.supervisors.create(this.definition, reconnect, CallPolicy.defaults(),
				promoted);
		supervisor.start().join();
		List<Double> respare = new ArrayList<>();
		List<Double> promotion = new ArrayList<>();
		int withoutReadySpare = 0;
		long promotionsBefore = promotions(supervisor);
		long killedAt = 0;
		for (int i = 0; i < this.kills; i++) {
			long readyAt = awaitReadySpare(supervisor, reconnect.stabilityWindow());
			if (readyAt < 0) {
				withoutReadySpare++;
			}
			else if (i > 0) {
				// the spare that followed the previous kill's promotion
				respare.add(BenchmarkServers.millis(readyAt - killedAt));
			}
			promotedAt.set(0);
			killedAt = System.nanoTime();
			BenchmarkServers.kill(supervisor);
			BenchmarkServers.callUntilItSucceeds(supervisor, "echo", Map.of("message", "x"), PATIENCE);
			this.mttr.add(BenchmarkServers.millis(System.nanoTime() - killedAt));
			long promotedNanos = promotedAt.get();
			if (promotedNanos != 0) {
				promotion.add(BenchmarkServers.millis(promotedNanos - killedAt));
			}
		}
		long promotions = promotions(supervisor) - promotionsBefore;
		supervisor.stop().get(30, TimeUnit.SECONDS);
		String prefix = "standby_" + this.label + "_";
		this.results.put(prefix + "mttr_ms_p50", Stats.round(Stats.median(this.mttr)));
		this.results.put(prefix + "mttr_ms_p99", Stats.round(Stats.percentile(this.mttr, 99)));
		if (!promotion.isEmpty()) {
			// the rest of the MTTR is the first call on the promoted generation
			this.results.put(prefix + "promotion_ms_p50", Stats.round(Stats.median(promotion)));
		}
		if (!respare.isEmpty()) {
			this.results.put(prefix + "next_spare_ready_ms_p50", Stats.round(Stats.median(respare)));
		}
		this.results.put(prefix + "kills", this.kills);
		this.results.put(prefix + "kills_without_ready_spare", withoutReadySpare);
		this.results.put(prefix + "promotions", promotions);
	}

	// Polls until the spare is ready and the serving generation has been up for the
	// stability window: returns when the spare was first seen ready, or -1 when the two
	// did not hold together within the patience.
	private static long awaitReadySpare(McpServerSupervisor supervisor, Duration stabilityWindow)
			throws InterruptedException {
		long deadline = System.nanoTime() + PATIENCE.toNanos();
		long readyAt = -1;
		while (System.nanoTime() < deadline) {
			McpServerStatus status = supervisor.status();
			McpStandbyStatus standby = status.standby();
			boolean ready = standby != null && standby.state() == McpStandbyState.READY;
			if (!ready) {
				readyAt = -1;
			}
			else if (readyAt < 0) {
				readyAt = System.nanoTime();
			}
			Instant upSince = status.upSince();
			if (ready && upSince != null && upSince.plus(stabilityWindow).isBefore(Instant.now())) {
				return readyAt;
			}
			Thread.sleep(5);
		}
		return -1;
	}

	private static long promotions(McpServerSupervisor supervisor) {
		McpStandbyStatus standby = supervisor.status().standby();
		if (standby == null) {
			throw new IllegalStateException("the supervisor keeps no standby");
		}
		return standby.promotions();
	}

}
