package io.github.mcpsupervisor.transport.internal.http;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import io.modelcontextprotocol.json.McpJsonDefaults;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * Tests for {@link EventStreamScanner}.
 */
class EventStreamScannerTests {

	private static final String ANSWER = "{\"jsonrpc\":\"2.0\",\"id\":7,\"result\":{}}";

	private final EventStreamScanner scanner = new EventStreamScanner(McpJsonDefaults.getMapper(), true);

	@Test
	void passesOnWholeEventsWithoutTheFieldsTheSdkRejects() {
		assertThat(scan("id: 1\nretry: 500\nfoo: bar\ndata: \n\n: a comment\ndata: {\"a\":\n"))
			.isEqualTo("id: 1\ndata: \n\n");
		assertThat(scan("data: 1}\n\n")).isEqualTo(": a comment\ndata: {\"a\":\ndata: 1}\n\n");
		assertThat(this.scanner.retry()).isEqualTo(Duration.ofMillis(500));
	}

	@Test
	void readsLinesEndedByCrLfCrOrLfAcrossChunks() {
		assertThat(scan("id: a\r", "\nretry: 20\r", "\ndata: x\r\r")).isEqualTo("id: a\ndata: x\n\n");
		assertThat(this.scanner.lastEventId()).isEqualTo("a");
		assertThat(this.scanner.retry()).isEqualTo(Duration.ofMillis(20));
	}

	@Test
	void takesTheIdOfAnEventWhenTheEventIsDispatched() {
		scan("id: 1\ndata: \n\nid: 2\ndata: {");
		assertThat(this.scanner.lastEventId()).isEqualTo("1");
		assertThat(this.scanner.endOfConnection()).isNotEmpty();
		assertThat(this.scanner.lastEventId()).as("the id of an event the connection ended in").isEqualTo("1");
	}

	@Test
	void readsAFieldWithoutAColonAsOneWithAnEmptyValue() {
		assertThat(scan("id: 1\ndata\n\nid\ndata: \n\n")).isEqualTo("id: 1\ndata:\n\nid:\ndata: \n\n");
		assertThat(this.scanner.lastEventId()).as("after an empty id").isNull();
	}

	@Test
	void ignoresARetryThatIsNotANumberOfMilliseconds() {
		scan("retry: 1.5\nretry: -3\nretry:\nretry: 99999999999999999999\n\n");
		assertThat(this.scanner.retry()).isEqualTo(EventStreamScanner.DEFAULT_RETRY);
	}

	@Test
	void obeysARetryOfAtMostThirtySeconds() {
		scan("retry: 999999999\n\n");
		assertThat(this.scanner.retry()).isEqualTo(Duration.ofSeconds(30));
	}

	@Test
	void failsTheStreamOnAnEventLongerThanAStdioMessageMayBe() {
		ByteBuffer chunk = ByteBuffer.wrap(new byte[1024 * 1024]);
		Arrays.fill(chunk.array(), (byte) 'x');
		scan("data: ");
		assertThatExceptionOfType(EventStreamScanner.EventTooLargeException.class).isThrownBy(() -> {
			for (int i = 0; i < 17; i++) {
				this.scanner.scan(List.of(chunk.duplicate()));
			}
		}).withMessage("the server sent an event longer than 16777216 bytes");
	}

	@Test
	void seesAnAnswerButNotARequestNorANotification() {
		scan("id: 1\ndata: {\"jsonrpc\":\"2.0\",\"method\":\"notifications/progress\",\"params\":{}}\n\n");
		scan("data: {\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"roots/list\"}\n\n");
		assertThat(this.scanner.answered()).isFalse();
		scan("data: " + ANSWER + "\n\n");
		assertThat(this.scanner.answered()).isTrue();
	}

	@Test
	void countsAnAnswerInTheEventAConnectionEndsInAsTheSdkDoes() {
		scan("id: 1\ndata: " + ANSWER);
		assertThat(this.scanner.answered()).isFalse();
		assertThat(text(this.scanner.endOfConnection())).isEqualTo("id: 1\ndata: " + ANSWER + "\n");
		assertThat(this.scanner.answered()).isTrue();
	}

	@Test
	void countsAnAnswerThatIsNotJsonAsTheEndOfTheStream() {
		scan("data: {oops\n\n");
		assertThat(this.scanner.answered()).isTrue();
	}

	@Test
	void doesNotWatchTheAnswersOfAStreamThatAnswersNoRequest() {
		EventStreamScanner standalone = new EventStreamScanner(McpJsonDefaults.getMapper(), false);
		standalone.scan(List.of(bytes("data: " + ANSWER + "\n\n")));
		assertThat(standalone.answered()).isFalse();
	}

	private String scan(String... chunks) {
		List<ByteBuffer> passedOn = new ArrayList<>();
		for (String chunk : chunks) {
			passedOn.addAll(this.scanner.scan(List.of(bytes(chunk))));
		}
		return text(passedOn);
	}

	private static ByteBuffer bytes(String text) {
		return ByteBuffer.wrap(text.getBytes(StandardCharsets.UTF_8));
	}

	private static String text(List<ByteBuffer> buffers) {
		StringBuilder text = new StringBuilder();
		buffers.forEach((buffer) -> text.append(StandardCharsets.UTF_8.decode(buffer)));
		return text.toString();
	}

}
