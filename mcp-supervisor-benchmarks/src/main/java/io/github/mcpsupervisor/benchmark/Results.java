package io.github.mcpsupervisor.benchmark;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The figures of a run: printed as {@code name=value} lines, then as a table.
 */
final class Results {

	private final Map<String, Object> figures = new LinkedHashMap<>();

	void put(String name, Object value) {
		this.figures.put(name, value);
		System.err.println("benchmark: " + name + "=" + format(value));
	}

	Object get(String name) {
		Object value = this.figures.get(name);
		if (value == null) {
			throw new IllegalStateException("no figure " + name);
		}
		return value;
	}

	void print() {
		this.figures.forEach((name, value) -> System.out.println(name + "=" + format(value)));
		System.out.println();
		System.out.println("| figure | value |");
		System.out.println("| --- | ---: |");
		this.figures.forEach((name, value) -> System.out.println("| " + name + " | " + format(value) + " |"));
	}

	private static String format(Object value) {
		if (value instanceof Double number && number == Math.rint(number) && Math.abs(number) < 1e15) {
			return String.valueOf(number.longValue());
		}
		return String.valueOf(value);
	}

}
