package io.github.mcpsupervisor.e2e;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import io.github.mcpsupervisor.supervisor.HealthCheckPolicy;
import io.github.mcpsupervisor.supervisor.McpServerState;
import io.github.mcpsupervisor.supervisor.McpServerSupervisor;
import io.github.mcpsupervisor.supervisor.ReconnectPolicy;
import io.github.mcpsupervisor.supervisor.ThreadPoolSupervisorScheduler;
import io.github.mcpsupervisor.transport.StdioServerDefinition;
import io.github.mcpsupervisor.transport.internal.stdio.StdioConnector;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The stderr of every server is drained by one shared thread: a server that floods its
 * stderr without end must not starve one started or restarted meanwhile, whose writes
 * block once its stderr pipe (64 KiB) is full.
 */
@Tag("boot-independent")
class StderrFairnessIT {

	private static final Log logger = LogFactory.getLog(StderrFairnessIT.class);

	/**
	 * Ends the wait for a server whose stderr is not drained: such a server never
	 * connects (it blocks after 64 KiB of stderr for as long as the flood lasts), so the
	 * bound is generous for JVMs and node starting on a loaded machine beside the flood.
	 */
	private static final Duration INITIALIZATION_TIMEOUT = Duration.ofSeconds(30);

	private final ThreadPoolSupervisorScheduler scheduler = new ThreadPoolSupervisorScheduler();

	private McpServerSupervisor flooding;

	private McpServerSupervisor talkative;

	@AfterEach
	void stop() throws Exception {
		for (McpServerSupervisor supervisor : new McpServerSupervisor[] { this.talkative, this.flooding }) {
			if (supervisor != null) {
				supervisor.stop().get(30, TimeUnit.SECONDS);
			}
		}
		this.scheduler.close();
		await().atMost(TestServers.PATIENCE).until(() -> ProcessHandle.current().descendants().findAny().isEmpty());
	}

	@Test
	void aServerWritingMuchStderrBeforeItAnswersConnectsWhileAnotherFloodsItsStderr() {
		// yes writes as fast as the pipe takes it, for as long as the server runs
		this.flooding = supervisor(server("flooding",
				"yes 'a line of stderr flood, again and again' >&2 & exec " + TestServers.demoShellCommand()));
		assertThat(this.flooding.start().join().state()).isEqualTo(McpServerState.UP);
		// 256 KiB of stderr lines before the server even reads its initialize request
		this.talkative = supervisor(
				server("talkative", "yes 'a line of stderr before the handshake' | head -c 262144 >&2; exec node '"
						+ TestServers.everythingScript() + "'"));
		long starting = System.nanoTime();
		assertThat(this.talkative.start().join().state()).as("connected within the initialization timeout")
			.isEqualTo(McpServerState.UP);
		long started = TestServers.millis(System.nanoTime() - starting);
		long restarting = System.nanoTime();
		this.talkative.restart();
		await().atMost(TestServers.PATIENCE)
			.until(() -> this.talkative.status().generation() == 2 || this.talkative.state() == McpServerState.FAILED);
		await().atMost(TestServers.PATIENCE).until(() -> this.talkative.state() != McpServerState.RECONNECTING);
		long restarted = TestServers.millis(System.nanoTime() - restarting);
		logger.info("beside a server flooding its stderr, a server writing 256 KiB of stderr before it answers"
				+ " connected in " + started + " ms, and was restarted in " + restarted + " ms");
		assertThat(this.talkative.status().state()).isEqualTo(McpServerState.UP);
		assertThat(this.talkative.status().generation()).isEqualTo(2);
		assertThat(this.flooding.state()).isEqualTo(McpServerState.UP);
	}

	private static StdioServerDefinition server(String name, String script) {
		StdioServerDefinition definition = TestServers.definition(name, "sh", List.of("-c", script), Map.of());
		return new StdioServerDefinition(definition.name(), definition.command(), definition.args(), definition.env(),
				null, definition.requestTimeout(), INITIALIZATION_TIMEOUT, definition.terminationGracePeriod());
	}

	private McpServerSupervisor supervisor(StdioServerDefinition definition) {
		return McpServerSupervisor
			.builder(definition.name(), new StdioConnector(definition, this.scheduler::execute), this.scheduler)
			.reconnect(ReconnectPolicy.builder()
				.enabled(false)
				.initialDelay(Duration.ofMillis(100))
				.maxDelay(Duration.ofSeconds(5))
				.maxAttempts(1)
				.jitter(0)
				.build())
			.calls(TestServers.NO_WAIT)
			.healthCheck(HealthCheckPolicy.disabled(Duration.ofSeconds(5)))
			.build();
	}

}
