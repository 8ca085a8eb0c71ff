package io.github.mcpsupervisor.transport.internal.stdio;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

import io.github.mcpsupervisor.supervisor.McpConnector.McpConnectException;
import io.github.mcpsupervisor.supervisor.McpConnector.McpConnection;
import io.github.mcpsupervisor.transport.StdioServerDefinition;
import io.github.mcpsupervisor.transport.internal.Revisions;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

/**
 * Tests for {@link ProcessCarrier}: a generation whose start fails leaves nothing of its
 * own behind.
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

}
