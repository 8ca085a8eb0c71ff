package io.github.mcpsupervisor.transport.internal.stdio;

import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
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

	@Test
	void aStreamThatNeverRunsDryQueuesOnePassAtATimeHoweverManyTicksPass() {
		StderrPump pump = new StderrPump(Duration.ofMillis(1));
		EndlessStream flood = new EndlessStream();
		flood.pump = pump;
		StderrPump.Drain flooding = pump.drain(flood, lines(new CopyOnWriteArrayList<>()));
		try {
			// a few hundred passes, across a hundred ticks and more
			long started = System.nanoTime();
			await().atMost(Duration.ofSeconds(30))
				.until(() -> flood.bytesRead > 300L * 1024 * 1024
						&& System.nanoTime() - started > Duration.ofMillis(200).toNanos());
			assertThat(flood.mostQueued).as("tasks waiting for the pump while it reads: the tick and one pass")
				.isLessThanOrEqualTo(2);
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

		volatile @Nullable StderrPump pump;

		// Sampled on the pump's thread, while it reads.
		volatile int mostQueued;

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
			StderrPump pump = this.pump;
			if (pump != null) {
				this.mostQueued = Math.max(this.mostQueued, pump.queuedTasks());
			}
			return length;
		}

	}

}
