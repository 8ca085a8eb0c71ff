package io.github.mcpsupervisor.benchmark;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * How long and how much, and which scenarios run (all by default).
 */
record Options(int kills, int calls, Duration chaos, int scale, List<Integer> fixtureScales, int httpKills,
		Set<String> only) {

	static final List<String> SCENARIOS = List.of("recovery", "inflight", "overhead", "chaos", "scale", "http",
			"modern", "fleet");

	private static final String USAGE = "options: --kills=N --calls=N --chaos=SECONDS --scale=N --fixture-scale=N,N "
			+ "--http-kills=N --only=" + String.join(",", SCENARIOS);

	static Options parse(String[] args) {
		int kills = 20;
		int calls = 2000;
		long chaos = 60;
		int scale = 50;
		List<Integer> fixtureScales = List.of(50, 200);
		int httpKills = 10;
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
				case "calls" -> {
					calls = Integer.parseInt(pair[1]);
				}
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
				case "only" -> {
					only = new LinkedHashSet<>(Arrays.asList(pair[1].split(",")));
				}
				default -> throw new IllegalArgumentException("unknown option " + arg + "; " + USAGE);
			}
		}
		if (!SCENARIOS.containsAll(only)) {
			throw new IllegalArgumentException("unknown scenario in " + only + "; " + USAGE);
		}
		return new Options(kills, calls, Duration.ofSeconds(chaos), scale, fixtureScales, httpKills, only);
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
