package io.github.mcpsupervisor.demo;

import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.concurrent.CountDownLatch;

/**
 * Ends the process once the client closes standard input: the SDK's own threads would
 * otherwise keep the JVM alive.
 */
final class ExitOnEndOfInput extends FilterInputStream {

	private final CountDownLatch never = new CountDownLatch(1);

	private volatile boolean frozen;

	ExitOnEndOfInput(InputStream in) {
		super(in);
	}

	void freeze() {
		this.frozen = true;
	}

	@Override
	public int read() throws IOException {
		return exitOnEnd(super.read());
	}

	@Override
	public int read(byte[] b, int off, int len) throws IOException {
		return exitOnEnd(super.read(b, off, len));
	}

	private int exitOnEnd(int result) {
		if (result == -1) {
			Runtime.getRuntime().halt(0);
		}
		while (this.frozen) {
			try {
				this.never.await(); // swallow all further input, stay alive
			}
			catch (InterruptedException ex) {
				// a frozen server ignores interruption too
			}
		}
		return result;
	}

}
