package io.github.mcpsupervisor.benchmark;

import java.time.Duration;

/** How long and how much. */
record Options(int kills, int calls, Duration chaos, int scale) {

	static Options parse(String[] args) {
		int kills = 30;
		int calls = 2000;
		long chaos = 120;
		int scale = 50;
		for (String arg : String.join(" ", args).trim().split("[\\s,]+")) {
			if (arg.isBlank()) {
				continue;
			}
			String[] pair = arg.replaceFirst("^--", "").split("=", 2);
			int value = Integer.parseInt(pair[1]);
			switch (pair[0]) {
				case "kills" -> {
					kills = value;
				}
				case "calls" -> {
					calls = value;
				}
				case "chaos" -> {
					chaos = value;
				}
				case "scale" -> {
					scale = value;
				}
				default -> throw new IllegalArgumentException(
						"unknown option " + arg + "; options: --kills=N --calls=N --chaos=SECONDS --scale=N");
			}
		}
		return new Options(kills, calls, Duration.ofSeconds(chaos), scale);
	}

}
