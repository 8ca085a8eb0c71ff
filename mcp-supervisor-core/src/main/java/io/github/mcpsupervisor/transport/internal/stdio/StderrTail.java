package io.github.mcpsupervisor.transport.internal.stdio;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;

import org.jspecify.annotations.Nullable;

/**
 * The last lines a server wrote to stderr, bounded in count and length, with control
 * characters stripped so that they are safe to log and show.
 */
final class StderrTail {

	static final int MAX_LINE_LENGTH = 500;

	private final int maxLines;

	private final Deque<String> lines;

	StderrTail(int maxLines) {
		this.maxLines = maxLines;
		this.lines = new ArrayDeque<>(maxLines);
	}

	synchronized void add(String line) {
		String clean = sanitize(line);
		if (clean.isBlank()) {
			return;
		}
		if (this.lines.size() == this.maxLines) {
			this.lines.removeFirst();
		}
		this.lines.addLast(clean);
	}

	synchronized List<String> lines() {
		return List.copyOf(this.lines);
	}

	synchronized @Nullable String lastLine() {
		return this.lines.peekLast();
	}

	static String sanitize(String line) {
		String printable = line.codePoints()
			.map((c) -> (c == '\t') ? ' ' : c)
			.filter((c) -> !Character.isISOControl(c))
			.collect(StringBuilder::new, StringBuilder::appendCodePoint, StringBuilder::append)
			.toString()
			.strip();
		return (printable.length() > MAX_LINE_LENGTH) ? printable.substring(0, MAX_LINE_LENGTH) + "…" : printable;
	}

}
