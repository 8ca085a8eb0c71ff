package io.github.mcpsupervisor.transport.internal.stdio;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

import org.jspecify.annotations.Nullable;

/**
 * Reads newline-terminated UTF-8 lines from a server's output, each bounded in bytes: a
 * server that never writes a newline costs at most the bound, never the application's
 * memory. A trailing carriage return is dropped.
 */
final class LineReader {

	private static final int CHUNK = 8192;

	private final InputStream in;

	private final int maxLineBytes;

	private final byte[] buffer = new byte[CHUNK];

	private int position;

	private int limit;

	private byte[] line = new byte[256];

	private int length;

	LineReader(InputStream in, int maxLineBytes) {
		this.in = in;
		this.maxLineBytes = maxLineBytes;
	}

	/**
	 * Reads the next line. A line longer than the bound throws after its first
	 * {@code maxLineBytes} bytes were read: the stream is not read further, as a server
	 * that sends such a line ends its generation.
	 * @return the line without its newline, or {@code null} at the end of the stream
	 * @throws LineTooLongException if the line is longer than the bound
	 * @throws IOException if the stream cannot be read
	 */
	@Nullable String readLine() throws IOException {
		this.length = 0;
		while (true) {
			if (this.position == this.limit && !fill()) {
				return (this.length > 0) ? text() : null;
			}
			int newline = indexOfNewline();
			int end = (newline >= 0) ? newline : this.limit;
			append(end);
			this.position = (newline >= 0) ? newline + 1 : this.limit;
			if (newline >= 0) {
				return text();
			}
		}
	}

	private boolean fill() throws IOException {
		int read = this.in.read(this.buffer, 0, CHUNK);
		if (read <= 0) {
			return false;
		}
		this.position = 0;
		this.limit = read;
		return true;
	}

	private int indexOfNewline() {
		for (int i = this.position; i < this.limit; i++) {
			if (this.buffer[i] == '\n') {
				return i;
			}
		}
		return -1;
	}

	private void append(int end) throws LineTooLongException {
		int count = end - this.position;
		if (this.length + count > this.maxLineBytes) {
			int fits = this.maxLineBytes - this.length;
			copy(this.position, fits);
			this.position += fits;
			throw new LineTooLongException(this.maxLineBytes);
		}
		copy(this.position, count);
	}

	private void copy(int from, int count) {
		if (this.length + count > this.line.length) {
			int grown = (int) Math.min(this.maxLineBytes, Math.max(this.line.length * 2L, this.length + count));
			this.line = Arrays.copyOf(this.line, grown);
		}
		System.arraycopy(this.buffer, from, this.line, this.length, count);
		this.length += count;
	}

	private String text() {
		int end = (this.length > 0 && this.line[this.length - 1] == '\r') ? this.length - 1 : this.length;
		String text = new String(this.line, 0, end, StandardCharsets.UTF_8);
		if (this.line.length > CHUNK * 8) {
			this.line = new byte[256]; // a huge line's buffer is not kept
		}
		return text;
	}

	/**
	 * A line was longer than the reader's bound.
	 */
	static final class LineTooLongException extends IOException {

		private static final long serialVersionUID = 1L;

		LineTooLongException(int maxLineBytes) {
			super("a line is longer than " + maxLineBytes + " bytes");
		}

	}

}
