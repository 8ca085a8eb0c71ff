package io.github.mcpsupervisor.benchmark;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * Percentiles of measured samples.
 */
final class Stats {

	private Stats() {
	}

	static double median(List<Double> samples) {
		return percentile(samples, 50);
	}

	/**
	 * Returns the nearest-rank percentile of the samples.
	 * @param samples the samples
	 * @param percentile the percentile, 0 to 100
	 * @return the sample at that rank
	 */
	static double percentile(List<Double> samples, double percentile) {
		List<Double> sorted = new ArrayList<>(samples);
		Collections.sort(sorted);
		int rank = (int) Math.ceil(percentile / 100.0 * sorted.size());
		return sorted.get(Math.max(0, Math.min(sorted.size() - 1, rank - 1)));
	}

	/**
	 * Returns the spread of the middle half of the samples: the 75th percentile minus the
	 * 25th.
	 * @param samples the samples
	 * @return the interquartile range
	 */
	static double interquartileRange(List<Double> samples) {
		return percentile(samples, 75) - percentile(samples, 25);
	}

	static double round(double value) {
		return BigDecimal.valueOf(value).setScale((value >= 100) ? 0 : 2, RoundingMode.HALF_UP).doubleValue();
	}

}
