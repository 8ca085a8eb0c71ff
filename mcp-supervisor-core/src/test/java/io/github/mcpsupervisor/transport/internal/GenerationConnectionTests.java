package io.github.mcpsupervisor.transport.internal;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

import io.github.mcpsupervisor.supervisor.McpServerStatus.ExitStatus;
import io.modelcontextprotocol.spec.McpError;
import io.modelcontextprotocol.spec.McpSchema.CallToolRequest;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import io.modelcontextprotocol.spec.McpSchema.JSONRPCResponse.JSONRPCError;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

/**
 * Tests for {@link GenerationConnection} and the {@link GenerationLife} it owns, over a
 * scripted client and carrier.
 */
class GenerationConnectionTests {

	private final List<String> events = new CopyOnWriteArrayList<>();

	private final ScriptedRevisionClient client = new ScriptedRevisionClient(this.events);

	private final GenerationLife life = new GenerationLife("s", 3, "process ended",
			(text) -> text.replace("secret", "******"));

	private final GenerationConnection connection = new GenerationConnection(this.life, new ScriptedCarrier(),
			this.client);

	@Test
	void aCallTheServerAnsweredIsNotToldToTheCarrier() {
		this.client.call = () -> {
			throw new McpError(new JSONRPCError(-32602, "bad argument"));
		};
		assertThatExceptionOfType(McpError.class).isThrownBy(this::call);
		assertThat(this.events).isEmpty();
	}

	@Test
	void aCallThatFailedOtherwiseIsToldToTheCarrierAndThrown() {
		IllegalStateException broken = new IllegalStateException("broken pipe");
		this.client.call = () -> {
			throw broken;
		};
		assertThatIllegalStateException().isThrownBy(this::call).isSameAs(broken);
		assertThat(this.events).containsExactly("callFailed IllegalStateException");
	}

	@Test
	void aCallIsCountedWhileItRunsOnly() {
		AtomicInteger duringCall = new AtomicInteger(-1);
		this.client.call = () -> {
			duringCall.set(this.connection.callsInFlight());
			return CallToolResult.builder().addTextContent("done").build();
		};
		call();
		assertThat(duringCall).hasValue(1);
		this.client.call = () -> {
			throw new IllegalStateException("broken pipe");
		};
		assertThatIllegalStateException().isThrownBy(this::call);
		assertThat(this.connection.callsInFlight()).isZero();
	}

	@Test
	void aListingThatFailedIsToldToTheCarrierEvenWhenAnsweredAndOneThatWorkedToo() {
		this.client.listing = () -> {
			throw new McpError(new JSONRPCError(-32603, "internal"));
		};
		assertThatExceptionOfType(McpError.class).isThrownBy(this.connection::listTools);
		this.client.listing = List::of;
		this.connection.listTools();
		assertThat(this.events).containsExactly("callFailed McpError", "listed");
	}

	@Test
	void anEndKeepsTheFirstReasonAndClosesTheClientBeforeTheCarrier() {
		this.life.end("transport failure: secret refused");
		this.life.end("closed by the supervisor");
		assertThat(this.connection.isLost()).isTrue();
		assertThat(this.connection.lossReason()).isEqualTo("transport failure: secret refused");
		assertThat(this.events).containsExactly("client closed", "carrier closed", "client closed", "carrier closed");
	}

	@Test
	void anExitEndsTheGenerationWithTheExitAndTheDefaultReason() {
		ExitStatus exit = new ExitStatus(137, null);
		this.life.exited(exit);
		assertThat(this.connection.onLost()).isCompletedWithValue(exit);
		assertThat(this.connection.lossReason()).isEqualTo("process ended");
		assertThat(this.events).containsExactly("client closed", "carrier closed");
	}

	@Test
	void theCarrierIsClosedWhenTheClientsCloseFails() {
		this.client.closing = () -> {
			throw new IllegalStateException("close failed");
		};
		assertThatIllegalStateException().isThrownBy(this.connection::closeClient);
		assertThat(this.events).containsExactly("carrier closed");
	}

	@Test
	void aLostGenerationIsNotPingedAndAnUnansweredPingIsToldToTheCarrier() {
		this.client.pinging = () -> new IllegalStateException("no answer");
		assertThat(this.connection.ping(Duration.ofSeconds(1))).isFalse();
		assertThat(this.events).containsExactly("pingFailed no answer");
		this.client.pinging = () -> null;
		assertThat(this.connection.ping(Duration.ofSeconds(1))).isTrue();
		this.life.end("closed by the supervisor");
		this.client.pinging = () -> {
			throw new AssertionError("pinged a lost generation");
		};
		assertThat(this.connection.ping(Duration.ofSeconds(1))).isFalse();
	}

	@Test
	void theClientOfALostGenerationIsNotHandedOut() {
		assertThatIllegalStateException().isThrownBy(() -> this.life.require(null))
			.withMessage("generation 3 of MCP server 's' is not connected");
		assertThat(this.life.require("client")).isEqualTo("client");
		this.life.end("closed by the supervisor");
		assertThatIllegalStateException().isThrownBy(() -> this.life.require("client"));
	}

	@Test
	void whatTheGenerationReportsIsMasked() {
		assertThat(this.life.redact("token secret")).isEqualTo("token ******");
		assertThat(this.life.loggable("token secret\nsecond line")).doesNotContain("secret").doesNotContain("\n");
	}

	private CallToolResult call() {
		return this.connection.callTool(CallToolRequest.builder("echo").arguments(Map.of()).build());
	}

	private final class ScriptedCarrier implements Carrier {

		@Override
		public void open() {
		}

		@Override
		public RuntimeException callFailed(RuntimeException ex) {
			GenerationConnectionTests.this.events.add("callFailed " + ex.getClass().getSimpleName());
			return ex;
		}

		@Override
		public void pingFailed(RuntimeException ex) {
			GenerationConnectionTests.this.events.add("pingFailed " + ex.getMessage());
		}

		@Override
		public void listed() {
			GenerationConnectionTests.this.events.add("listed");
		}

		@Override
		public void close() {
			GenerationConnectionTests.this.events.add("carrier closed");
		}

		@Override
		public boolean terminate() {
			return true;
		}

		@Override
		public long messagesReceived() {
			return 0;
		}

		@Override
		public @Nullable Long pid() {
			return null;
		}

		@Override
		public List<String> stderrTail() {
			return List.of();
		}

	}

}
