package io.github.mcpsupervisor.transport.internal.stdio;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link StderrLines}.
 */
class StderrLinesTests {

	private final List<String> lines = new ArrayList<>();

	private final List<Long> cuts = new ArrayList<>();

	private final StderrLines stderr = new StderrLines(10, new StderrLines.Sink() {

		@Override
		public void line(String line) {
			StderrLinesTests.this.lines.add(line);
		}

		@Override
		public void cut(long discardedBytes) {
			StderrLinesTests.this.lines.add("(cut " + discardedBytes + ")");
		}

	});

	@Test
	void linesSplitAcrossChunksAreJoinedWithoutTheirNewlineOrCarriageReturn() {
		feed("one\r\ntw");
		feed("o\n\nthr");
		assertThat(this.lines).containsExactly("one", "two", "");
		this.stderr.end();
		assertThat(this.lines).containsExactly("one", "two", "", "thr");
	}

	@Test
	void aLongerLineKeepsItsStartAndSaysHowManyBytesItLost() {
		feed("0123456789abc");
		feed("def\nnext\n");
		assertThat(this.lines).containsExactly("(cut 6)", "0123456789", "next");
	}

	@Test
	void aCharacterSplitAcrossChunksIsDecodedWhole() {
		byte[] bytes = "é\n".getBytes(StandardCharsets.UTF_8);
		this.stderr.accept(Arrays.copyOfRange(bytes, 0, 1), 1);
		this.stderr.accept(Arrays.copyOfRange(bytes, 1, 3), 2);
		assertThat(this.lines).containsExactly("é");
	}

	@Test
	void theEndOfAnEmptyStreamGivesNoLine() {
		this.stderr.end();
		assertThat(this.lines).isEmpty();
		assertThat(this.cuts).isEmpty();
	}

	private void feed(String text) {
		byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
		this.stderr.accept(bytes, bytes.length);
	}

}
