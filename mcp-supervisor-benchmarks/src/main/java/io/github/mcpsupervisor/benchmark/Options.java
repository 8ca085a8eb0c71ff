package io.github.mcpsupervisor.benchmark;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * How long and how much, and which scenarios run (all by default). {@code --calls} is
 * retired: the hot path is timed in {@code --overhead-batches} batches of
 * {@value CallOverhead#BATCH} calls per client.
 */
record Options(int kills, int overheadBatches, Duration chaos, int scale, List<Integer> fixtureScales, int httpKills,
		Duration authorizationLoad, Set<String> only) {

	static final List<String> SCENARIOS = List.of("recovery", "standby", "inflight", "overhead", "chaos", "scale",
			"http", "modern", "fleet", "idle", "pool", "authorization");

	private static final String USAGE = "options: --kills=N --overhead-batches=N (at least 2, of " + CallOverhead.BATCH
			+ " calls per client each) --chaos=SECONDS --scale=N --fixture-scale=N,N "
			+ "--http-kills=N --authorization-load=SECONDS --only=" + String.join(",", SCENARIOS);

	static Options parse(String[] args) {
		// the defaults keep a full run within 12 minutes on 2 cores, 2 of them the calls
		// on the replicas of authorization
		int kills = 10;
		int overheadBatches = 15;
		long chaos = 30;
		int scale = 5;
		List<Integer> fixtureScales = List.of(50, 200);
		int httpKills = 5;
		long authorizationLoad = 120;
		Set<String> only = new LinkedHashSet<>(SCENARIOS);
		for (String arg : String.join(" ", args).trim().split("\\s+")) {
			if (arg.isBlank()) {
				continue;
			}
			String[] pair = arg.replaceFirst("^--", "").split("=", 2);
			if (pair.length != 2) {
				throw new IllegalArgumentException("unknown option " + arg + "; " + USAGE);
			}
			switch (pair[0]) {
				case "kills" -> {
					kills = Integer.parseInt(pair[1]);
				}
				case "overhead-batches" -> {
					overheadBatches = Integer.parseInt(pair[1]);
				}
				case "calls" -> throw new IllegalArgumentException(
						"--calls is retired: the hot path times " + "--overhead-batches=N interleaved batches of "
								+ CallOverhead.BATCH + " calls per client; " + USAGE);
				case "chaos" -> {
					chaos = Long.parseLong(pair[1]);
				}
				case "scale" -> {
					scale = Integer.parseInt(pair[1]);
				}
				case "fixture-scale" -> {
					fixtureScales = integers(pair[1]);
				}
				case "http-kills" -> {
					httpKills = Integer.parseInt(pair[1]);
				}
				case "authorization-load" -> {
					authorizationLoad = Long.parseLong(pair[1]);
				}
				case "only" -> {
					only = new LinkedHashSet<>(Arrays.asList(pair[1].split(",")));
				}
				default -> throw new IllegalArgumentException("unknown option " + arg + "; " + USAGE);
			}
		}
		if (!SCENARIOS.containsAll(only)) {
			throw new IllegalArgumentException("unknown scenario in " + only + "; " + USAGE);
		}
		if (overheadBatches < 2) {
			throw new IllegalArgumentException("--overhead-batches must be at least 2 (one of each order); " + USAGE);
		}
		return new Options(kills, overheadBatches, Duration.ofSeconds(chaos), scale, fixtureScales, httpKills,
				Duration.ofSeconds(authorizationLoad), only);
	}

	boolean runs(String scenario) {
		return this.only.contains(scenario);
	}

	private static List<Integer> integers(String list) {
		List<Integer> values = new ArrayList<>();
		for (String value : list.split(",")) {
			values.add(Integer.parseInt(value));
		}
		return List.copyOf(values);
	}

}
