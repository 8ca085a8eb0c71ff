package io.github.mcpsupervisor.supervisor;

import java.util.List;

import io.github.mcpsupervisor.internal.ServerText;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Text a server controls is bounded before it is shown: {@code lastError} and the causes
 * of transitions quote its errors and its stderr.
 */
class ServerTextTests {

	private static final String HOSTILE = "connection failed: \u001b[31mred\u001b[0m\nFAKE LOG LINE\r\t"
			+ "x".repeat(5000);

	@Test
	void lastErrorHasNoControlCharactersAndIsCapped() {
		McpServerStatus status = new McpServerStatus("demo", McpServerState.RECONNECTING, 1, null, null, 1, 10, null,
				null, HOSTILE, List.of(), List.of(), null, null, null);
		assertThat(status.lastError()).doesNotContain("\u001b", "\n", "\r", "\t")
			.startsWith("connection failed: [31mred[0m FAKE LOG LINE  xxx")
			.endsWith("x… (truncated)")
			.hasSize(500 + "… (truncated)".length());
	}

	@Test
	void aShortLastErrorIsKeptAsItIs() {
		McpServerStatus status = new McpServerStatus("demo", McpServerState.FAILED, 1, null, null, 1, 10, null, null,
				"gave up after 10 attempts", List.of(), List.of(), null, null, null);
		assertThat(status.lastError()).isEqualTo("gave up after 10 attempts");
	}

	@Test
	void theCauseOfATransitionHasNoControlCharactersAndIsCapped() {
		McpServerStateChange change = new McpServerStateChange("demo", McpServerState.UP, McpServerState.RECONNECTING,
				1, HOSTILE, null);
		assertThat(change.cause()).doesNotContain("\u001b", "\n").hasSize(500 + "… (truncated)".length());
	}

	@Test
	void aLogLineQuotesLineBreaksAndEscapesEscapedAndIsCapped() {
		assertThat(ServerText.forLog("tool\n2026-12-01 ERROR forged\r\u001b[31m\u202e"))
			.isEqualTo("tool\\n2026-12-01 ERROR forged\\r\\u001b[31m\\u202e");
		assertThat(ServerText.forLog(HOSTILE)).hasSize(ServerText.MAX_LOG_LENGTH + "… (truncated)".length())
			.doesNotContain("\n", "\r", "\u001b");
	}

	@Test
	void aTextForTheModelWithinTheLimitIsKeptAndACutOneIsNotCutAgain() {
		assertThat(ServerText.forModel("short", "result")).isEqualTo("short");
		String cut = ServerText.forModel("x".repeat(3 * ServerText.MAX_MODEL_BYTES), "error message");
		assertThat(cut).endsWith("x…[truncated: 3 MB error message, limit 1 MB]");
		assertThat(ServerText.forModel(cut, "error message")).isSameAs(cut);
	}

}
