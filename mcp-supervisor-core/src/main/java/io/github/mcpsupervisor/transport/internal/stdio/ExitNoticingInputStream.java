package io.github.mcpsupervisor.transport.internal.stdio;

import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;

/**
 * A process's stdout that tells once when it ends (its end, or a failure to read it, as
 * when the JDK closes the pipe of a process that exited): the first sign of the exit,
 * seen by the thread that reads it.
 */
final class ExitNoticingInputStream extends FilterInputStream {

	private final Runnable ended;

	private boolean told;

	ExitNoticingInputStream(InputStream in, Runnable ended) {
		super(in);
		this.ended = ended;
	}

	@Override
	public int read() throws IOException {
		return noticingTheEnd(super::read);
	}

	@Override
	public int read(byte[] buffer, int offset, int length) throws IOException {
		return noticingTheEnd(() -> super.read(buffer, offset, length));
	}

	private int noticingTheEnd(Read read) throws IOException {
		try {
			int result = read.read();
			if (result < 0) {
				end();
			}
			return result;
		}
		catch (IOException ex) {
			end();
			throw ex;
		}
	}

	private void end() {
		if (!this.told) {
			this.told = true;
			this.ended.run();
		}
	}

	/**
	 * A read of the stream.
	 */
	@FunctionalInterface
	private interface Read {

		int read() throws IOException;

	}

}
