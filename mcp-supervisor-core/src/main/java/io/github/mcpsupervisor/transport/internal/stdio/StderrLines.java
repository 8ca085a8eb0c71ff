package io.github.mcpsupervisor.transport.internal.stdio;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * Cuts the bytes a server writes to stderr into UTF-8 lines as they come, each bounded in
 * bytes: the start of a longer line is kept and the rest discarded, so a server that
 * never writes a newline costs at most the bound. A trailing carriage return is dropped.
 */
final class StderrLines {

	private final int maxLineBytes;

	private final Sink sink;

	private byte[] line = new byte[256];

	private int length;

	private long discarded;

	StderrLines(int maxLineBytes, Sink sink) {
		this.maxLineBytes = maxLineBytes;
		this.sink = sink;
	}

	/**
	 * Takes the next bytes of the stream: every line they complete goes to the sink.
	 * @param bytes holds the bytes
	 * @param count how many of them, from the start
	 */
	void accept(byte[] bytes, int count) {
		int start = 0;
		for (int i = 0; i < count; i++) {
			if (bytes[i] == '\n') {
				append(bytes, start, i);
				complete();
				start = i + 1;
			}
		}
		append(bytes, start, count);
	}

	/**
	 * Ends the stream: an unfinished last line goes to the sink.
	 */
	void end() {
		if (this.length > 0 || this.discarded > 0) {
			complete();
		}
	}

	private void append(byte[] bytes, int from, int to) {
		int count = to - from;
		int fits = Math.min(count, this.maxLineBytes - this.length);
		if (fits > 0) {
			if (this.length + fits > this.line.length) {
				this.line = Arrays.copyOf(this.line,
						(int) Math.min(this.maxLineBytes, Math.max(this.line.length * 2L, this.length + fits)));
			}
			System.arraycopy(bytes, from, this.line, this.length, fits);
			this.length += fits;
		}
		this.discarded += count - Math.max(fits, 0);
	}

	private void complete() {
		int end = (this.length > 0 && this.line[this.length - 1] == '\r') ? this.length - 1 : this.length;
		String text = new String(this.line, 0, end, StandardCharsets.UTF_8);
		if (this.discarded > 0) {
			this.sink.cut(this.discarded);
		}
		this.sink.line(text);
		this.length = 0;
		this.discarded = 0;
	}

	/**
	 * Where the lines go.
	 */
	interface Sink {

		void line(String line);

		/**
		 * The line about to be given was longer than the bound.
		 * @param discardedBytes how many of its bytes were discarded
		 */
		void cut(long discardedBytes);

	}

}
