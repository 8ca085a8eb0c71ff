package io.github.mcpsupervisor.tool;

import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Set;

import io.github.mcpsupervisor.supervisor.CallPolicy;
import io.github.mcpsupervisor.supervisor.FakeConnector;
import io.github.mcpsupervisor.supervisor.HealthCheckPolicy;
import io.github.mcpsupervisor.supervisor.McpServerSupervisor;
import io.github.mcpsupervisor.supervisor.McpServerUnavailableException;
import io.github.mcpsupervisor.supervisor.McpSupervisors;
import io.github.mcpsupervisor.supervisor.McpSupervisors.SupervisedServer;
import io.github.mcpsupervisor.supervisor.ReconnectPolicy;
import io.github.mcpsupervisor.supervisor.VirtualScheduler;
import org.junit.jupiter.api.Test;

import org.springframework.ai.tool.ToolCallback;
import org.springframework.ai.tool.definition.ToolDefinition;
import org.springframework.ai.tool.execution.ToolExecutionException;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * The tool bridge: deterministic names, identical definitions across generations, routing
 * of captured callbacks to the live generation.
 */
class McpSupervisorToolCallbackProviderTests {

	private final VirtualScheduler scheduler = new VirtualScheduler();

	private final FakeConnector connector = new FakeConnector();

	private final McpServerSupervisor supervisor = McpServerSupervisor.builder("demo", this.connector, this.scheduler)
		.reconnect(new ReconnectPolicy(true, Duration.ofMillis(500), Duration.ofSeconds(30), 5, 0))
		.calls(new CallPolicy(Duration.ZERO, CallPolicy.Retry.SAFE, true, Set.of()))
		.healthCheck(HealthCheckPolicy.disabled(Duration.ofSeconds(5)))
		.build();

	private final McpSupervisorToolCallbackProvider provider = new McpSupervisorToolCallbackProvider(
			new McpSupervisors(List.of(new SupervisedServer(this.supervisor, false, false, Duration.ofSeconds(1),
					Duration.ofSeconds(1)))));

	@Test
	void toolsAreNamedServerUnderscoreTool() {
		startUp();
		assertThat(names(this.provider.getToolCallbacks())).containsExactly("demo_echo", "demo_add");
	}

	@Test
	void aRecoveredServerWithTheSameToolsYieldsIdenticalDefinitions() {
		startUp();
		List<ToolDefinition> before = definitions(this.provider.getToolCallbacks());
		recover();
		assertThat(this.supervisor.tools().generation()).isEqualTo(2);
		assertThat(definitions(this.provider.getToolCallbacks())).isEqualTo(before);
	}

	@Test
	void theCallbacksAreCachedUntilTheToolsAreSwapped() {
		startUp();
		ToolCallback[] first = this.provider.getToolCallbacks();
		assertThat(this.provider.getToolCallbacks()[0]).isSameAs(first[0]);
		recover();
		assertThat(this.provider.getToolCallbacks()[0]).isNotSameAs(first[0]);
	}

	@Test
	void aCallbackCapturedBeforeASwapRoutesToTheLiveGeneration() {
		startUp();
		ToolCallback echo = this.provider.getToolCallbacks()[0];
		assertThat(echo.call("{}")).contains("echo from g1");
		recover();
		assertThat(echo.call("{}")).contains("echo from g2");
	}

	@Test
	void aToolTheNewGenerationNoLongerOffersFailsWithAClearMessage() {
		startUp();
		ToolCallback add = this.provider.getToolCallbacks()[1];
		this.connector.serverTools = List.of(FakeConnector.tool("echo"));
		recover();
		assertThat(names(this.provider.getToolCallbacks())).containsExactly("demo_echo");
		assertThatExceptionOfType(ToolExecutionException.class).isThrownBy(() -> add.call("{}"))
			.withCauseInstanceOf(McpServerUnavailableException.class)
			.havingCause()
			.withMessage("MCP server 'demo' no longer offers tool 'add' (it offers [echo])");
	}

	@Test
	void callsDuringAnOutageFailFastWithTheServersState() {
		startUp();
		ToolCallback echo = this.provider.getToolCallbacks()[0];
		this.connector.last().crash(137);
		this.scheduler.runReady();
		assertThat(names(this.provider.getToolCallbacks())).as("the last tool set stays registered")
			.containsExactly("demo_echo", "demo_add");
		assertThatExceptionOfType(ToolExecutionException.class).isThrownBy(() -> echo.call("{}"))
			.havingCause()
			.withMessageStartingWith("MCP server 'demo' is reconnecting");
	}

	@Test
	void namesAreSanitizedCutAt64AndUniqueDeterministically() {
		McpToolNames names = new McpToolNames();
		assertThat(names.assign("fs", "read.file/v2")).isEqualTo("fs_read_file_v2");
		assertThat(names.assign("fs", "read_file_v2")).startsWith("fs_read_file_v2_").hasSize(24);
		String longName = names.assign("server", "t".repeat(80));
		assertThat(longName).hasSize(64).startsWith("server_ttt");
		assertThat(new McpToolNames().assign("server", "t".repeat(80))).isEqualTo(longName);
		assertThat(new McpToolNames().assign("a_b", "c")).isEqualTo("a_b_c");
	}

	private void startUp() {
		this.supervisor.start();
		this.scheduler.runReady();
	}

	private void recover() {
		this.connector.last().crash(1);
		this.scheduler.runReady();
		this.scheduler.advance(Duration.ofSeconds(5));
	}

	private static List<String> names(ToolCallback[] callbacks) {
		return definitions(callbacks).stream().map(ToolDefinition::name).toList();
	}

	private static List<ToolDefinition> definitions(ToolCallback[] callbacks) {
		return Arrays.stream(callbacks).map(ToolCallback::getToolDefinition).toList();
	}

}
