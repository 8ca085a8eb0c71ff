package io.github.mcpsupervisor.transport.internal.stdio;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

import io.github.mcpsupervisor.transport.internal.stdio.LineReader.LineTooLongException;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * Tests for {@link LineReader}.
 */
class LineReaderTests {

	@Test
	void readLineShouldReturnEachLineWithoutItsNewlineOrCarriageReturn() throws IOException {
		LineReader reader = reader("one\r\ntwo\n\nthree", 100);
		assertThat(reader.readLine()).isEqualTo("one");
		assertThat(reader.readLine()).isEqualTo("two");
		assertThat(reader.readLine()).isEmpty();
		assertThat(reader.readLine()).isEqualTo("three");
		assertThat(reader.readLine()).isNull();
	}

	@Test
	void readLineShouldDecodeUtf8SplitAcrossReads() throws IOException {
		String text = "é".repeat(10_000);
		LineReader reader = new LineReader(new ByteArrayInputStream((text + "\n").getBytes(StandardCharsets.UTF_8)),
				100_000);
		assertThat(reader.readLine()).isEqualTo(text);
	}

	@Test
	void readLineShouldAcceptALineOfExactlyTheBound() throws IOException {
		LineReader reader = reader("x".repeat(50) + "\nnext\n", 50);
		assertThat(reader.readLine()).hasSize(50);
		assertThat(reader.readLine()).isEqualTo("next");
	}

	@Test
	void readLineShouldRefuseALineOverTheBound() throws IOException {
		LineReader reader = reader("x".repeat(51) + "yyy\nnext\n", 50);
		assertThatExceptionOfType(LineTooLongException.class).isThrownBy(reader::readLine)
			.withMessage("a line is longer than 50 bytes");
	}

	@Test
	void anEndlessLineCostsAtMostTheBound() throws IOException {
		// 1 GiB without a newline, generated as it is read
		InputStream endless = new InputStream() {

			private long left = 1L << 30;

			@Override
			public int read() {
				return (this.left-- > 0) ? 'x' : -1;
			}

			@Override
			public int available() {
				return (int) Math.max(0, this.left);
			}

			@Override
			public int read(byte[] b, int off, int len) {
				if (this.left <= 0) {
					return -1;
				}
				int n = (int) Math.min(len, this.left);
				Arrays.fill(b, off, off + n, (byte) 'x');
				this.left -= n;
				return n;
			}

		};
		LineReader reader = new LineReader(endless, 1024 * 1024);
		assertThatExceptionOfType(LineTooLongException.class).isThrownBy(reader::readLine);
		// read no further than the chunk that crossed the bound
		assertThat(endless.available()).isGreaterThanOrEqualTo((1 << 30) - 1024 * 1024 - 8192);
	}

	private static LineReader reader(String text, int maxLineBytes) {
		return new LineReader(new ByteArrayInputStream(text.getBytes(StandardCharsets.UTF_8)), maxLineBytes);
	}

}
