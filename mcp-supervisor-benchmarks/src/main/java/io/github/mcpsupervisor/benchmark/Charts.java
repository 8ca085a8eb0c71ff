package io.github.mcpsupervisor.benchmark;

import java.awt.Color;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.BitmapEncoder.BitmapFormat;
import org.knowm.xchart.CategoryChart;
import org.knowm.xchart.CategoryChartBuilder;
import org.knowm.xchart.Histogram;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.XYSeries.XYSeriesRenderStyle;
import org.knowm.xchart.internal.chartpart.Chart;
import org.knowm.xchart.style.Styler.LegendLayout;
import org.knowm.xchart.style.Styler.LegendPosition;
import org.knowm.xchart.style.markers.SeriesMarkers;

/**
 * The charts written beside the figures, as small PNG files.
 */
final class Charts {

	private static final Path DIRECTORY = Path.of(System.getProperty("benchmark.charts-dir", "target/benchmark"));

	private Charts() {
	}

	/**
	 * Draws a chaos run: calls per second by outcome, the server's state, the kills.
	 * @param timeline what happened, in seconds from the start
	 * @param name the file's name, without {@code .png}
	 * @param title the chart's title
	 * @return the file written
	 * @throws IOException if it cannot be written
	 */
	static Path chaos(ChaosTimeline timeline, String name, String title) throws IOException {
		XYChart chart = new XYChartBuilder().width(900)
			.height(420)
			.title(title)
			.xAxisTitle("seconds")
			.yAxisTitle("calls per second")
			.build();
		chart.getStyler().setLegendPosition(LegendPosition.OutsideS);
		chart.getStyler().setLegendLayout(LegendLayout.Horizontal);
		List<Double> seconds = timeline.seconds();
		chart.addSeries("succeeded", seconds, timeline.succeeded()).setMarker(SeriesMarkers.NONE);
		chart.addSeries("failed fast (unsafe, in flight)", seconds, timeline.failedFast())
			.setMarker(SeriesMarkers.NONE);
		chart.addSeries("other failures", seconds, timeline.otherFailures()).setMarker(SeriesMarkers.NONE);
		double top = timeline.succeeded().stream().mapToDouble(Double::doubleValue).max().orElse(1);
		List<Double> up = timeline.upAt().stream().map((isUp) -> isUp * top * 1.05).toList();
		XYSeries upSeries = chart.addSeries("server UP", timeline.stateSeconds(), up);
		upSeries.setXYSeriesRenderStyle(XYSeriesRenderStyle.Area);
		upSeries.setMarker(SeriesMarkers.NONE);
		upSeries.setFillColor(new Color(0, 160, 0, 30));
		upSeries.setLineColor(new Color(0, 160, 0, 60));
		List<Double> killY = new ArrayList<>();
		timeline.kills().forEach((kill) -> killY.add(0.0));
		XYSeries killSeries = chart.addSeries("kill", timeline.kills(), killY);
		killSeries.setXYSeriesRenderStyle(XYSeriesRenderStyle.Scatter);
		killSeries.setMarker(SeriesMarkers.TRIANGLE_UP);
		return write(chart, name);
	}

	/**
	 * Draws the distribution of kill-to-first-good-call times of the 2025-11-25 servers.
	 * @param demo the demo server's
	 * @param everything server-everything's
	 * @return the file written
	 * @throws IOException if it cannot be written
	 */
	static Path mttr(List<Double> demo, List<Double> everything) throws IOException {
		Map<String, List<Double>> series = new LinkedHashMap<>();
		series.put("demo (JVM)", demo);
		series.put("server-everything (node)", everything);
		return mttr("mttr", "Kill to first successful call (reconnect delay 100 ms)", series);
	}

	/**
	 * Draws the distribution of kill-to-first-good-call times.
	 * @param name the file's name, without {@code .png}
	 * @param title the chart's title
	 * @param series the samples of each server, by label
	 * @return the file written
	 * @throws IOException if it cannot be written
	 */
	static Path mttr(String name, String title, Map<String, List<Double>> series) throws IOException {
		double max = 0;
		for (List<Double> samples : series.values()) {
			max = Math.max(max, samples.stream().mapToDouble(Double::doubleValue).max().orElse(0));
		}
		double top = Math.ceil(max / 100) * 100 + 100;
		int bins = (int) (top / 100);
		CategoryChart chart = new CategoryChartBuilder().width(900)
			.height(380)
			.title(title)
			.xAxisTitle("milliseconds (bins of 100 ms)")
			.yAxisTitle("kills")
			.build();
		chart.getStyler().setOverlapped(true);
		chart.getStyler().setXAxisLabelRotation(45);
		chart.getStyler().setXAxisDecimalPattern("#");
		series.forEach((label, samples) -> {
			if (!samples.isEmpty()) {
				Histogram histogram = new Histogram(samples, bins, 0, top);
				chart.addSeries(label, histogram.getxAxisData(), histogram.getyAxisData());
			}
		});
		return write(chart, name);
	}

	private static Path write(Chart<?, ?> chart, String name) throws IOException {
		Files.createDirectories(DIRECTORY);
		Path file = DIRECTORY.resolve(name + ".png");
		BitmapEncoder.saveBitmap(chart, file.toString(), BitmapFormat.PNG);
		System.err.println("benchmark: chart " + file.toAbsolutePath().normalize());
		return file;
	}

}
