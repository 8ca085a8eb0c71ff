package io.github.mcpsupervisor.benchmark;

import java.util.ArrayList;
import java.util.List;

/**
 * One tool call through the supervisor next to the same call through a floor (the bare
 * SDK client of the same revision, or Spring AI's callback), on identical servers in one
 * JVM, in interleaved batches (ours first in one, the floor's first in the next): the
 * ratio of each batch pair, then the median of those ratios and their spread, so that the
 * machine's drifts cancel out. A batch holds {@value #BATCH} calls, so that its p99 is
 * the tenth slowest call rather than the one or two slowest.
 */
final class CallOverhead {

	/** The calls of each client in a batch. */
	static final int BATCH = 1000;

	private static final int WARM_UP = 500;

	private final int batches;

	private final Results results;

	CallOverhead(int batches, Results results) {
		this.batches = batches;
		this.results = results;
	}

	/**
	 * Measures a call next to the bare SDK client's: figures {@code call_<label>_*}.
	 * @param label the server and revision
	 * @param ours the call through the supervisor
	 * @param floor the call through the bare SDK client
	 */
	void measure(String label, Runnable ours, Runnable floor) {
		String prefix = "call_" + label + "_";
		measure(prefix, "sdk", prefix + "calls_per_client", ours, floor);
	}

	/**
	 * Measures a call next to a floor.
	 * @param prefix the figures' prefix
	 * @param floorName the floor's name in the figures of its latencies
	 * @param callsName the name of the figure of the calls per client
	 * @param ours the call through the supervisor
	 * @param floor the floor's call
	 */
	void measure(String prefix, String floorName, String callsName, Runnable ours, Runnable floor) {
		measure(new Names(prefix + "ours", prefix + floorName, prefix + "overhead_ratio", prefix + "overhead_batches",
				callsName), ours, floor);
	}

	/**
	 * Measures a call next to a floor, under names of their own.
	 * @param names the names of the figures
	 * @param ours the call measured
	 * @param floor the floor's call
	 */
	void measure(Names names, Runnable ours, Runnable floor) {
		for (int i = 0; i < WARM_UP; i++) {
			ours.run();
			floor.run();
		}
		List<Double> oursAll = new ArrayList<>();
		List<Double> floorAll = new ArrayList<>();
		List<Double> p50Ratios = new ArrayList<>();
		List<Double> p99Ratios = new ArrayList<>();
		for (int batch = 0; batch < this.batches; batch++) {
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
		this.results.put(names.ours() + "_us_p50", Stats.round(Stats.median(oursAll) / 1000));
		this.results.put(names.floor() + "_us_p50", Stats.round(Stats.median(floorAll) / 1000));
		this.results.put(names.ours() + "_us_p99", Stats.round(Stats.percentile(oursAll, 99) / 1000));
		this.results.put(names.floor() + "_us_p99", Stats.round(Stats.percentile(floorAll, 99) / 1000));
		this.results.put(names.ratio() + "_p50", Stats.round(Stats.median(p50Ratios)));
		this.results.put(names.ratio() + "_p50_iqr", Stats.round(Stats.interquartileRange(p50Ratios)));
		this.results.put(names.ratio() + "_p99", Stats.round(Stats.median(p99Ratios)));
		this.results.put(names.ratio() + "_p99_iqr", Stats.round(Stats.interquartileRange(p99Ratios)));
		this.results.put(names.batches(), this.batches);
		this.results.put(names.calls(), this.batches * BATCH);
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

	/**
	 * The names of the figures of one measurement.
	 *
	 * @param ours the prefix of the latencies of the call measured ({@code _us_p50},
	 * {@code _us_p99})
	 * @param floor the prefix of the floor's latencies
	 * @param ratio the prefix of the ratios ({@code _p50}, {@code _p50_iqr},
	 * {@code _p99}, {@code _p99_iqr})
	 * @param batches the name of the number of batches
	 * @param calls the name of the number of calls per client
	 */
	record Names(String ours, String floor, String ratio, String batches, String calls) {

	}

}
