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

	private final Queue<long[]> whole = new ConcurrentLinkedQueue<>();

	void call(Outcome outcome) {
		this.calls.add(new long[] { System.nanoTime() - this.start, outcome.ordinal() });
	}

	void kill() {
		this.killTimes.add(System.nanoTime() - this.start);
	}

	void state(boolean up) {
		this.states.add(new long[] { System.nanoTime() - this.start, up ? 1 : 0 });
	}

	/**
	 * Records that the server became whole (up, and with a warm standby its spare ready)
	 * or stopped being whole.
	 * @param whole whether it is whole now
	 */
	void whole(boolean whole) {
		this.whole.add(new long[] { System.nanoTime() - this.start, whole ? 1 : 0 });
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
	 * Returns the deepest dip that a kill caused: the fewest successes in a second of a
	 * kill's (from the second of the kill to the one after the server was whole again),
	 * over the median second's; {@code 0} when such a second passed without a success,
	 * {@code 1} when no kill happened. The first second (the callers warming up) and the
	 * last (cut short by the run's end) count neither as a dip nor in the median.
	 * @return the lowest second of a kill over the median second
	 */
	double dipFraction() {
		return killDips().stream().mapToDouble(Double::doubleValue).min().orElse(1);
	}

	/**
	 * Returns each kill's dip: the fewest successes in a second of the kill's, over the
	 * median second's, as {@link #dipFraction()} counts them.
	 * @return one fraction per kill whose seconds count, in kill order
	 */
	List<Double> killDips() {
		List<Double> succeeded = succeeded();
		int last = succeeded.size() - 1;
		if (last <= 1) {
			return List.of();
		}
		double median = Stats.median(succeeded.subList(1, last));
		List<Double> dips = new ArrayList<>();
		for (double kill : kills()) {
			double lowest = Double.MAX_VALUE;
			int to = (int) Math.min(last - 1, Math.floor(wholeAgain(kill)) + 1);
			for (int second = Math.max(1, (int) kill); second <= to; second++) {
				lowest = Math.min(lowest, succeeded.get(second));
			}
			if (lowest != Double.MAX_VALUE) {
				dips.add((median > 0) ? lowest / median : 0);
			}
		}
		return dips;
	}

	// When the server was whole again after a kill, in seconds: the kill itself when it
	// was whole and no loss was seen (the window is then the kill's second and the
	// next), the end when it never was whole again.
	private double wholeAgain(double kill) {
		boolean wholeAtKill = false;
		double lost = -1;
		for (long[] change : this.whole) {
			double at = change[0] / 1e9;
			if (at <= kill) {
				wholeAtKill = change[1] == 1;
				continue;
			}
			if (lost < 0 && !wholeAtKill) {
				lost = kill;
			}
			if (lost < 0 && change[1] == 0) {
				lost = at;
			}
			else if (lost >= 0 && change[1] == 1) {
				return at;
			}
		}
		return (lost >= 0 || !wholeAtKill) ? Double.MAX_VALUE : kill;
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
