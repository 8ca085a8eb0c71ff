package io.github.mcpsupervisor.transport.internal.stdio;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import io.github.mcpsupervisor.client.internal.McpClientFactory;
import io.github.mcpsupervisor.client.internal.McpServerSession;
import io.github.mcpsupervisor.supervisor.McpConnector.McpConnectException;
import io.github.mcpsupervisor.supervisor.McpConnector.McpConnection;
import io.github.mcpsupervisor.transport.StdioServerDefinition;
import io.github.mcpsupervisor.transport.internal.Revisions;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.catchThrowable;
import static org.awaitility.Awaitility.await;

/**
 * Tests for {@link ProcessCarrier}: a generation whose start fails leaves nothing of its
 * own behind, and a generation starts only with a place in the application's starts.
 */
class ProcessCarrierTests {

	private final ExecutorService executor = Executors.newCachedThreadPool();

	@AfterEach
	void shutdown() {
		this.executor.shutdownNow();
	}

	@Test
	void aClientThatCannotBeBuiltLeavesNoThreadOfItsTransport() {
		// a request timeout of zero: the 2026-07-28 SDK refuses to build its client
		StdioServerDefinition definition = new StdioServerDefinition("unbuildable", "sh",
				List.of("-c", "cat >/dev/null"), Map.of(), null, Duration.ZERO, Duration.ofSeconds(5),
				Duration.ofSeconds(1));
		McpConnection connection = new StdioConnector(definition, this.executor, Revisions.V2026_07_28).create(1,
				() -> {
				});
		assertThatExceptionOfType(McpConnectException.class).isThrownBy(connection::open)
			.satisfies((ex) -> assertThat(ex.getKind()).isEqualTo(McpConnectException.Kind.CONFIGURATION));
		await().atMost(Duration.ofSeconds(10))
			.untilAsserted(() -> assertThat(Thread.getAllStackTraces().keySet())
				.as("threads of the transport of a generation that never opened")
				.noneMatch((thread) -> thread.getName().startsWith("mcp-stdio-client-reader") && thread.isAlive()));
	}

	@Test
	void aGenerationStoppedWhileItWaitsToStartNeverSpawnsAndTakesNoPlace() throws Exception {
		StartGate gate = StartGate.atMost(1);
		StartGate.Start other = gate.start("other", 1);
		assertThat(other.enter()).isTrue();
		McpConnection connection = connector(silent("queued", Duration.ofSeconds(20)), gate).create(1, () -> {
		});
		Future<?> open = this.executor.submit(() -> {
			connection.open();
			return null;
		});
		await().atMost(Duration.ofSeconds(10)).until(() -> gate.waiting() == 1);
		assertThat(connection.terminate()).isTrue();
		Throwable failure = catchThrowable(() -> open.get(10, TimeUnit.SECONDS));
		assertThat(failure).hasCauseInstanceOf(McpConnectException.class)
			.hasMessageContaining("stopped while starting");
		assertThat(connection.pid()).as("never spawned").isNull();
		assertThat(gate.waiting()).isZero();
		other.leave();
		assertThat(gate.free()).isEqualTo(1);
	}

	@Test
	void aGenerationThatFailsToStartLeavesItsPlace() {
		StartGate gate = StartGate.atMost(1);
		McpConnection silent = connector(silent("silent", Duration.ofMillis(200)), gate).create(1, () -> {
		});
		assertThatExceptionOfType(McpConnectException.class).isThrownBy(silent::open);
		assertThat(gate.free()).isEqualTo(1);
		McpConnection missing = connector(new StdioServerDefinition("missing", "/nonexistent/mcp-server", List.of(),
				Map.of(), null, Duration.ofSeconds(5), Duration.ofSeconds(5), Duration.ofSeconds(1)), gate)
			.create(1, () -> {
			});
		assertThatExceptionOfType(McpConnectException.class).isThrownBy(missing::open);
		assertThat(gate.free()).isEqualTo(1);
	}

	// a process that reads its stdin and never answers
	private static StdioServerDefinition silent(String name, Duration initializationTimeout) {
		return new StdioServerDefinition(name, "sh", List.of("-c", "cat >/dev/null"), Map.of(), null,
				Duration.ofSeconds(5), initializationTimeout, Duration.ofSeconds(1));
	}

	private StdioConnector connector(StdioServerDefinition definition, StartGate gate) {
		return new StdioConnector(definition, this.executor, McpClientFactory.standard(),
				new McpServerSession(definition.name(), List.of()), ProcessRecords.none(), Revisions.V2025_11_25, gate);
	}

}
