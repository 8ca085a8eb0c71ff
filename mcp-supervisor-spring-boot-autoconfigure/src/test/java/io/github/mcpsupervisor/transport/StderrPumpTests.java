package io.github.mcpsupervisor.transport;

import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import org.junit.jupiter.api.Test;

import static org.awaitility.Awaitility.await;

/**
 * Tests for {@link StderrPump}.
 */
class StderrPumpTests {

	@Test
	void aStreamThatNeverRunsDryStarvesNoStreamAddedAfterIt() {
		EndlessStream flood = new EndlessStream();
		StderrPump.Drain flooding = StderrPump.shared().drain(flood, lines(new CopyOnWriteArrayList<>()));
		try {
			await().atMost(Duration.ofSeconds(10)).until(() -> flood.bytesRead > 8 * 1024 * 1024);
			List<String> later = new CopyOnWriteArrayList<>();
			StderrPump.shared()
				.drain(new ByteArrayInputStream("started\n".getBytes(StandardCharsets.UTF_8)), lines(later));
			await().atMost(Duration.ofSeconds(10)).until(() -> later.contains("started"));
		}
		finally {
			flood.ended = true;
			flooding.finish().join();
		}
	}

	private static StderrLines lines(List<String> into) {
		return new StderrLines(8192, new StderrLines.Sink() {

			@Override
			public void line(String line) {
				if (into.size() < 10) {
					into.add(line);
				}
			}

			@Override
			public void cut(long discardedBytes) {
			}

		});
	}

	/**
	 * The stderr of a server that writes faster than it is read: it always has bytes.
	 */
	private static final class EndlessStream extends InputStream {

		volatile boolean ended;

		volatile long bytesRead;

		@Override
		public int available() {
			return 64 * 1024;
		}

		@Override
		public int read() {
			throw new UnsupportedOperationException();
		}

		@Override
		public int read(byte[] bytes, int offset, int length) {
			if (this.ended) {
				return -1;
			}
			Arrays.fill(bytes, offset, offset + length, (byte) 'x');
			bytes[offset + length - 1] = '\n';
			this.bytesRead += length;
			return length;
		}

	}

}
