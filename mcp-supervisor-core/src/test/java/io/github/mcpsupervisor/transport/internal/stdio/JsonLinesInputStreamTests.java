package io.github.mcpsupervisor.transport.internal.stdio;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link JsonLinesInputStream}.
 */
class JsonLinesInputStreamTests {

	@Test
	void onlyLinesThatCanBeJsonRpcMessagesPassAndAreCounted() throws IOException {
		String stdout = "starting up\n{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{}}\n\u001b[31mWARN\u001b[0m noise\n\n"
				+ "  {\"jsonrpc\":\"2.0\",\"method\":\"notifications/x\"}\r\nnot json either\n{\"last\":true}";
		JsonLinesInputStream lines = new JsonLinesInputStream(input(stdout), "mcp-test-g1");
		String passed = new String(lines.readAllBytes(), StandardCharsets.UTF_8);
		assertThat(passed).isEqualTo("{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{}}\n"
				+ "  {\"jsonrpc\":\"2.0\",\"method\":\"notifications/x\"}\r\n{\"last\":true}");
		assertThat(lines.messages()).isEqualTo(3);
	}

	@Test
	void aFloodOfLogLinesReachesTheReaderAsNothing() throws IOException {
		String stdout = "log line\n".repeat(100_000) + "{\"id\":1}\n";
		JsonLinesInputStream lines = new JsonLinesInputStream(input(stdout), "mcp-test-g1");
		assertThat(new String(lines.readAllBytes(), StandardCharsets.UTF_8)).isEqualTo("{\"id\":1}\n");
		assertThat(lines.messages()).isEqualTo(1);
	}

	@Test
	void singleBytesReadTheSameLines() throws IOException {
		JsonLinesInputStream lines = new JsonLinesInputStream(input("x\n{}\n"), "mcp-test-g1");
		assertThat((char) lines.read()).isEqualTo('{');
		assertThat((char) lines.read()).isEqualTo('}');
		assertThat((char) lines.read()).isEqualTo('\n');
		assertThat(lines.read()).isEqualTo(-1);
	}

	@Test
	void linesThatArriveInPiecesPassWhole() throws IOException {
		String stdout = "log\n{\"id\":1,\"result\":{}}\nmore log\n{\"id\":2}\n";
		// a pipe gives what the server has written so far: here three bytes at a time
		InputStream pieces = new ByteArrayInputStream(stdout.getBytes(StandardCharsets.UTF_8)) {

			@Override
			public synchronized int read(byte[] bytes, int offset, int length) {
				return super.read(bytes, offset, Math.min(length, 3));
			}

		};
		JsonLinesInputStream lines = new JsonLinesInputStream(pieces, "mcp-test-g1");
		assertThat(new String(lines.readAllBytes(), StandardCharsets.UTF_8))
			.isEqualTo("{\"id\":1,\"result\":{}}\n{\"id\":2}\n");
		assertThat(lines.messages()).isEqualTo(2);
	}

	private static ByteArrayInputStream input(String text) {
		return new ByteArrayInputStream(text.getBytes(StandardCharsets.UTF_8));
	}

}
