package io.github.mcpsupervisor.benchmark;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.PriorityQueue;
import java.util.Random;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;

import io.github.mcpsupervisor.supervisor.ReconnectPolicy;

import org.springframework.util.backoff.BackOff;
import org.springframework.util.backoff.BackOffExecution;
import org.springframework.util.backoff.ExponentialBackOff;

/**
 * Scenario 8, on virtual time: a fleet of application instances that all lose one shared
 * HTTP server in the same 100 ms (each had a call in flight) and reconnect with the
 * default backoff while it restarts. Attempts while it is down are refused at once; the
 * reconnects that reach it once it is back (a new session, initialize and the tools
 * listing each) are the load: their peak per second over their mean, from the restart to
 * the last one, as the median of several fleets.
 */
final class FleetHerd {

	static final int INSTANCES = 1000;

	/** How long the shared server takes to come back. */
	static final Duration RESTART = Duration.ofSeconds(20);

	/** Fleets played per jitter. */
	static final int RUNS = 21;

	private final Results results;

	FleetHerd(Results results) {
		this.results = results;
	}

	void run() {
		ReconnectPolicy defaults = ReconnectPolicy.defaults();
		Random random = new Random(42);
		for (double jitter : new double[] { 0.1, 0.5, 1.0 }) {
			ReconnectPolicy policy = ReconnectPolicy.builder().jitter(jitter).build();
			List<Herd> herds = play(() -> springBackOff(policy), policy.maxAttempts(), random);
			double peakOverMean = report("fleet_jitter_" + Math.round(jitter * 100), herds);
			if (jitter == defaults.jitter()) {
				this.results.put("fleet_peak_over_mean", peakOverMean);
				this.results.put("fleet_default_jitter", jitter);
			}
		}
		// AWS's "full jitter" for comparison: each delay uniform in [0, min(cap,
		// base·2^n)]
		report("fleet_full_jitter", play(() -> fullJitter(defaults, random), defaults.maxAttempts(), random));
		this.results.put("fleet_instances", INSTANCES);
		this.results.put("fleet_runs", RUNS);
		this.results.put("fleet_restart_s", RESTART.toSeconds());
	}

	// Spring's jitter draws from Math.random, so one fleet is one noisy sample: the
	// figures are the median and the worst of several fleets.
	private static List<Herd> play(Supplier<BackOff> backOff, int maxAttempts, Random random) {
		List<Herd> herds = new ArrayList<>();
		for (int run = 0; run < RUNS; run++) {
			herds.add(simulate(backOff, maxAttempts, random));
		}
		return herds;
	}

	private double report(String name, List<Herd> herds) {
		double[] ratios = herds.stream().mapToDouble((herd) -> herd.peak() / herd.mean()).sorted().toArray();
		double median = Stats.round(ratios[ratios.length / 2]);
		Herd first = herds.get(0);
		this.results.put(name + "_refused_attempts_peak_per_s", first.refusedPeak());
		this.results.put(name + "_reconnects_peak_per_s", first.peak());
		this.results.put(name + "_reconnects_mean_per_s", Stats.round(first.mean()));
		this.results.put(name + "_peak_over_mean", median);
		this.results.put(name + "_peak_over_mean_max", Stats.round(ratios[ratios.length - 1]));
		this.results.put(name + "_last_reconnect_s", Stats.round(first.lastSuccess()));
		this.results.put(name + "_gave_up", herds.stream().mapToInt(Herd::gaveUp).sum());
		return median;
	}

	/**
	 * Plays the reconnect attempts of the fleet.
	 * @param backOff the backoff of every instance
	 * @param maxAttempts the attempts of an outage
	 * @param random where the loss times come from
	 * @return the attempts, per second
	 */
	static Herd simulate(Supplier<BackOff> backOff, int maxAttempts, Random random) {
		// each instance: (time of its next attempt in ms, its backoff)
		PriorityQueue<Instance> queue = new PriorityQueue<>((a, b) -> Double.compare(a.next, b.next));
		for (int i = 0; i < INSTANCES; i++) {
			BackOffExecution execution = backOff.get().start();
			double lost = random.nextDouble() * 100;
			queue.add(new Instance(lost + execution.nextBackOff(), execution, 1));
		}
		List<Integer> refused = new ArrayList<>();
		List<Integer> reconnects = new ArrayList<>();
		double lastSuccess = 0;
		int gaveUp = 0;
		while (!queue.isEmpty()) {
			Instance instance = queue.poll();
			if (instance.next >= RESTART.toMillis()) {
				count(reconnects, (int) ((instance.next - RESTART.toMillis()) / 1000));
				lastSuccess = Math.max(lastSuccess, instance.next / 1000);
			}
			else {
				count(refused, (int) (instance.next / 1000));
				if (instance.attempt < maxAttempts) {
					queue.add(new Instance(instance.next + instance.backOff.nextBackOff(), instance.backOff,
							instance.attempt + 1));
				}
				else {
					gaveUp++;
				}
			}
		}
		return new Herd(refused, reconnects, lastSuccess, gaveUp);
	}

	private static void count(List<Integer> perSecond, int second) {
		while (perSecond.size() <= second) {
			perSecond.add(0);
		}
		perSecond.set(second, perSecond.get(second) + 1);
	}

	// As ReconnectPolicy.backOff(): Spring's jitter is in ms of the initial delay and
	// scales with each interval.
	private static BackOff springBackOff(ReconnectPolicy policy) {
		ExponentialBackOff backOff = new ExponentialBackOff(policy.initialDelay().toMillis(),
				ReconnectPolicy.MULTIPLIER);
		backOff.setMaxInterval(policy.maxDelay().toMillis());
		backOff.setJitter(Math.round(policy.jitter() * policy.initialDelay().toMillis()));
		return backOff;
	}

	private static BackOff fullJitter(ReconnectPolicy policy, Random random) {
		long base = policy.initialDelay().toMillis();
		long cap = policy.maxDelay().toMillis();
		return () -> {
			AtomicInteger attempt = new AtomicInteger();
			return () -> (long) (random.nextDouble()
					* Math.min(cap, base * (long) Math.pow(ReconnectPolicy.MULTIPLIER, attempt.getAndIncrement())));
		};
	}

	private record Instance(double next, BackOffExecution backOff, int attempt) {
	}

	/**
	 * The attempts of the fleet per second.
	 *
	 * @param refused refused attempts in each second from the loss on
	 * @param reconnects reconnects in each second from the restart on
	 * @param lastSuccess when the last instance reconnected, in seconds from the loss
	 * @param gaveUp instances that exhausted their attempts
	 */
	record Herd(List<Integer> refused, List<Integer> reconnects, double lastSuccess, int gaveUp) {

		double refusedPeak() {
			return refused().stream().mapToInt(Integer::intValue).max().orElse(0);
		}

		double peak() {
			return reconnects().stream().mapToInt(Integer::intValue).max().orElse(0);
		}

		// From the restart to the last reconnect.
		double mean() {
			long total = reconnects().stream().mapToInt(Integer::intValue).sum();
			return total / (double) Math.max(1, reconnects().size());
		}

	}

}
