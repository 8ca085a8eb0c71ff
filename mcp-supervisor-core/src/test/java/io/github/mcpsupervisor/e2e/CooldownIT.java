package io.github.mcpsupervisor.e2e;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

import io.github.mcpsupervisor.supervisor.HealthCheckPolicy;
import io.github.mcpsupervisor.supervisor.McpServerState;
import io.github.mcpsupervisor.supervisor.McpServerSupervisor;
import io.github.mcpsupervisor.supervisor.ReconnectPolicy;
import io.github.mcpsupervisor.supervisor.SupervisorListener;
import io.github.mcpsupervisor.supervisor.ThreadPoolSupervisorScheduler;
import io.github.mcpsupervisor.transport.StdioServerDefinition;
import io.github.mcpsupervisor.transport.internal.stdio.StdioConnector;
import io.modelcontextprotocol.spec.McpSchema.CallToolRequest;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A real server that spends its outage budget twice, each cooldown twice the one before,
 * and is back on its own once its dependency (a marker file its wrapper waits for) is.
 */
@Tag("boot-independent")
class CooldownIT {

	private static final Duration COOLDOWN = Duration.ofMillis(500);

	private final ThreadPoolSupervisorScheduler scheduler = new ThreadPoolSupervisorScheduler();

	private final List<Duration> cooldowns = new CopyOnWriteArrayList<>();

	private McpServerSupervisor supervisor;

	@AfterEach
	void stop() throws Exception {
		if (this.supervisor != null) {
			this.supervisor.stop().get(30, TimeUnit.SECONDS);
		}
		this.scheduler.close();
		await().atMost(TestServers.PATIENCE).until(() -> ProcessHandle.current().descendants().findAny().isEmpty());
	}

	@Test
	void aServerGivenUpIsBackOnItsOwnAfterItsCooldown(@TempDir Path directory) throws Exception {
		Path ready = directory.resolve("ready");
		String script = "if [ -e \"$READY\" ]; then " + TestServers.demoShellCommand()
				+ "; else echo 'dependency not ready' >&2; exit 1; fi";
		StdioServerDefinition definition = TestServers.definition("flaky", "sh", List.of("-c", script),
				Map.of("READY", ready.toString()));
		this.supervisor = McpServerSupervisor
			.builder(definition.name(), new StdioConnector(definition, this.scheduler::execute), this.scheduler)
			.reconnect(ReconnectPolicy.builder()
				.initialDelay(Duration.ofMillis(50))
				.maxDelay(Duration.ofMillis(200))
				.maxAttempts(2)
				.jitter(0)
				.cooldown(ReconnectPolicy.Cooldown.of(COOLDOWN, COOLDOWN.multipliedBy(4)))
				.build())
			.calls(TestServers.NO_WAIT)
			.healthCheck(HealthCheckPolicy.disabled(Duration.ofSeconds(5)))
			.listener(new SupervisorListener() {

				@Override
				public void cooldownOver(String server, Duration cooldown) {
					CooldownIT.this.cooldowns.add(cooldown);
				}

			})
			.build();
		this.supervisor.start();
		await().atMost(TestServers.PATIENCE)
			.until(() -> this.supervisor.state() == McpServerState.FAILED
					&& COOLDOWN.multipliedBy(2).equals(this.supervisor.status().cooldown()));
		assertThat(this.supervisor.status().nextAttemptAt()).isNotNull();
		assertThat(this.supervisor.status().stderrTail()).contains("dependency not ready");
		assertThat(this.supervisor.tools().tools()).isEmpty();
		Files.createFile(ready);
		await().atMost(TestServers.PATIENCE).until(() -> this.supervisor.state() == McpServerState.UP);
		assertThat(this.cooldowns).containsExactly(COOLDOWN, COOLDOWN.multipliedBy(2));
		assertThat(this.supervisor.status().generation()).isEqualTo(5);
		assertThat(this.supervisor.status().cooldown()).isNull();
		assertThat(TestServers.text(
				this.supervisor.callTool(CallToolRequest.builder("echo").arguments(Map.of("message", "back")).build())))
			.contains("back");
	}

}
