package io.github.mcpsupervisor.benchmark;

import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;

/**
 * What happened during the chaos run, and when: each call's outcome, each kill, each
 * change of the server's state between up and not up.
 */
final class ChaosTimeline {

	enum Outcome {

		SUCCEEDED, FAILED_FAST, OTHER_FAILURE

	}

	private final long start = System.nanoTime();

	private final Queue<long[]> calls = new ConcurrentLinkedQueue<>();

	private final Queue<Long> killTimes = new ConcurrentLinkedQueue<>();

	private final Queue<long[]> states = new ConcurrentLinkedQueue<>();

	void call(Outcome outcome) {
		this.calls.add(new long[] { System.nanoTime() - this.start, outcome.ordinal() });
	}

	void kill() {
		this.killTimes.add(System.nanoTime() - this.start);
	}

	void state(boolean up) {
		this.states.add(new long[] { System.nanoTime() - this.start, up ? 1 : 0 });
	}

	List<Double> seconds() {
		List<Double> seconds = new ArrayList<>();
		for (int second = 0; second < buckets(); second++) {
			seconds.add(second + 0.5);
		}
		return seconds;
	}

	List<Double> succeeded() {
		return perSecond(Outcome.SUCCEEDED);
	}

	List<Double> failedFast() {
		return perSecond(Outcome.FAILED_FAST);
	}

	List<Double> otherFailures() {
		return perSecond(Outcome.OTHER_FAILURE);
	}

	/**
	 * Returns the deepest dip of the calls that succeeded per second, as a fraction of
	 * their median rate: {@code 0} when a second passed without a success. The last
	 * second, cut short by the run's end, is left out.
	 * @return the lowest second's successes over the median second's
	 */
	double dipFraction() {
		List<Double> succeeded = succeeded();
		List<Double> whole = succeeded.subList(0, Math.max(1, succeeded.size() - 1));
		double median = Stats.median(whole);
		double lowest = whole.stream().mapToDouble(Double::doubleValue).min().orElse(0);
		return (median > 0) ? lowest / median : 0;
	}

	List<Double> kills() {
		return this.killTimes.stream().map((nanos) -> nanos / 1e9).toList();
	}

	// A step curve: each change twice, before and after.
	List<Double> stateSeconds() {
		List<Double> seconds = new ArrayList<>();
		for (long[] change : this.states) {
			seconds.add(change[0] / 1e9);
			seconds.add(change[0] / 1e9);
		}
		seconds.add((double) buckets());
		return seconds;
	}

	List<Double> upAt() {
		List<Double> values = new ArrayList<>();
		double previous = 0;
		for (long[] change : this.states) {
			values.add(previous);
			previous = change[1];
			values.add(previous);
		}
		values.add(previous);
		return values;
	}

	private int buckets() {
		long last = this.calls.stream().mapToLong((call) -> call[0]).max().orElse(0);
		return (int) (last / 1_000_000_000L) + 1;
	}

	private List<Double> perSecond(Outcome outcome) {
		double[] counts = new double[buckets()];
		for (long[] call : this.calls) {
			if (call[1] == outcome.ordinal()) {
				counts[(int) (call[0] / 1_000_000_000L)]++;
			}
		}
		List<Double> values = new ArrayList<>();
		for (double count : counts) {
			values.add(count);
		}
		return values;
	}

}
