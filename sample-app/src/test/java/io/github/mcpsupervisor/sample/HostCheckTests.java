package io.github.mcpsupervisor.sample;

import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The sample answers only requests whose {@code Host} is a loopback name: a page of
 * another site whose name a DNS rebinding points at 127.0.0.1 cannot call its tools and
 * read the answer.
 */
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT)
class HostCheckTests {

	@Value("${local.server.port}")
	private int port;

	@ParameterizedTest
	@ValueSource(
			strings = { "rebound.example", "rebound.example:%d", "127.0.0.1.nip.example", "localhost.example:%d", "" })
	void aRequestForAnotherHostIsRefused(String host) throws Exception {
		String response = send("GET", "/tools", host.formatted(this.port));
		assertThat(statusLine(response)).contains(" 421 ");
		assertThat(response).doesNotContain("demo_echo");
	}

	@ParameterizedTest
	@ValueSource(strings = { "POST /tools/demo_pid", "POST /actuator/mcp/demo/reset", "GET /actuator/mcp" })
	void noToolOrOperationRunsForAnotherHost(String request) throws Exception {
		String[] parts = request.split(" ");
		String response = send(parts[0], parts[1], "rebound.example:" + this.port);
		assertThat(statusLine(response)).contains(" 421 ");
		assertThat(response).doesNotContain("\"pid\"").doesNotContain("\"action\"");
	}

	@ParameterizedTest
	@ValueSource(
			strings = { "localhost", "localhost:%d", "LOCALHOST:%d", "127.0.0.1:%d", "127.0.0.1", "[::1]:%d", "[::1]" })
	void aRequestForALoopbackNameIsAnswered(String host) throws Exception {
		String response = send("GET", "/tools", host.formatted(this.port));
		assertThat(statusLine(response)).as(response).contains(" 200 ");
		assertThat(response).contains("demo_echo");
	}

	private String send(String method, String path, String host) throws Exception {
		try (Socket socket = new Socket(InetAddress.getLoopbackAddress(), this.port)) {
			socket.setSoTimeout(30_000);
			OutputStream out = socket.getOutputStream();
			String head = method + " " + path + " HTTP/1.1\r\nHost: " + host
					+ "\r\nConnection: close\r\nContent-Length: 0\r\n\r\n";
			out.write(head.getBytes(StandardCharsets.US_ASCII));
			out.flush();
			InputStream in = socket.getInputStream();
			ByteArrayOutputStream response = new ByteArrayOutputStream();
			in.transferTo(response);
			return response.toString(StandardCharsets.UTF_8);
		}
	}

	private static String statusLine(String response) {
		int end = response.indexOf("\r\n");
		return (end < 0) ? response : response.substring(0, end);
	}

}
