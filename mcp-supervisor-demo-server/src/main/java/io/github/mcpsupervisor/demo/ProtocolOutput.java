package io.github.mcpsupervisor.demo;

import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;

/**
 * The protocol's output, which counts the lines (messages) written to it, so that a tool
 * can wait until its reply is out.
 */
final class ProtocolOutput extends PrintStream {

	private final Object monitor = new Object();

	private long lines;

	ProtocolOutput(PrintStream out) {
		super(out, true, StandardCharsets.UTF_8);
	}

	@Override
	public void write(byte[] bytes, int offset, int length) {
		super.write(bytes, offset, length);
		count(bytes, offset, length);
	}

	@Override
	public void write(int b) {
		super.write(b);
		if (b == '\n') {
			count(new byte[] { '\n' }, 0, 1);
		}
	}

	long lines() {
		synchronized (this.monitor) {
			return this.lines;
		}
	}

	void awaitLinesAfter(long seen, Duration max) {
		long deadline = System.nanoTime() + max.toNanos();
		synchronized (this.monitor) {
			while (this.lines <= seen) {
				long left = deadline - System.nanoTime();
				if (left <= 0) {
					return;
				}
				try {
					this.monitor.wait(Math.max(1, left / 1_000_000));
				}
				catch (InterruptedException ex) {
					Thread.currentThread().interrupt();
					return;
				}
			}
		}
	}

	private void count(byte[] bytes, int offset, int length) {
		int newlines = 0;
		for (int i = offset; i < offset + length; i++) {
			if (bytes[i] == '\n') {
				newlines++;
			}
		}
		if (newlines > 0) {
			flush();
			synchronized (this.monitor) {
				this.lines += newlines;
				this.monitor.notifyAll();
			}
		}
	}

}
