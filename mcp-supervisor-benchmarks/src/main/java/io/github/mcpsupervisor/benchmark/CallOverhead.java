package io.github.mcpsupervisor.benchmark;

import java.util.ArrayList;
import java.util.List;

/**
 * One tool call through the supervisor next to the same call through the bare SDK client
 * of the same revision, on identical servers in one JVM, in interleaved batches (ours
 * first in one, the SDK's first in the next): the ratio of each batch pair, then the
 * median of those ratios and their spread, so that the machine's drifts cancel out.
 */
final class CallOverhead {

	private static final int WARM_UP = 500;

	private static final int BATCH = 100;

	private final int calls;

	private final Results results;

	CallOverhead(int calls, Results results) {
		this.calls = calls;
		this.results = results;
	}

	void measure(String label, Runnable ours, Runnable floor) {
		for (int i = 0; i < WARM_UP; i++) {
			ours.run();
			floor.run();
		}
		int batches = Math.max(2, this.calls / BATCH);
		List<Double> oursAll = new ArrayList<>();
		List<Double> floorAll = new ArrayList<>();
		List<Double> p50Ratios = new ArrayList<>();
		List<Double> p99Ratios = new ArrayList<>();
		for (int batch = 0; batch < batches; batch++) {
			List<Double> oursNanos;
			List<Double> floorNanos;
			if (batch % 2 == 0) {
				oursNanos = timed(ours);
				floorNanos = timed(floor);
			}
			else {
				floorNanos = timed(floor);
				oursNanos = timed(ours);
			}
			oursAll.addAll(oursNanos);
			floorAll.addAll(floorNanos);
			p50Ratios.add(Stats.median(oursNanos) / Stats.median(floorNanos));
			p99Ratios.add(Stats.percentile(oursNanos, 99) / Stats.percentile(floorNanos, 99));
		}
		String prefix = "call_" + label + "_";
		this.results.put(prefix + "ours_us_p50", Stats.round(Stats.median(oursAll) / 1000));
		this.results.put(prefix + "sdk_us_p50", Stats.round(Stats.median(floorAll) / 1000));
		this.results.put(prefix + "ours_us_p99", Stats.round(Stats.percentile(oursAll, 99) / 1000));
		this.results.put(prefix + "sdk_us_p99", Stats.round(Stats.percentile(floorAll, 99) / 1000));
		this.results.put(prefix + "overhead_ratio_p50", Stats.round(Stats.median(p50Ratios)));
		this.results.put(prefix + "overhead_ratio_p50_iqr", Stats.round(Stats.interquartileRange(p50Ratios)));
		this.results.put(prefix + "overhead_ratio_p99", Stats.round(Stats.median(p99Ratios)));
		this.results.put(prefix + "overhead_ratio_p99_iqr", Stats.round(Stats.interquartileRange(p99Ratios)));
		this.results.put(prefix + "calls_per_client", batches * BATCH);
	}

	private static List<Double> timed(Runnable call) {
		List<Double> nanos = new ArrayList<>(BATCH);
		for (int i = 0; i < BATCH; i++) {
			long started = System.nanoTime();
			call.run();
			nanos.add((double) (System.nanoTime() - started));
		}
		return nanos;
	}

}
