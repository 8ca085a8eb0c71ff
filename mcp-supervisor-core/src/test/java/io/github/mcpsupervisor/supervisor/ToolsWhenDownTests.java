package io.github.mcpsupervisor.supervisor;

import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

import io.github.mcpsupervisor.supervisor.McpSupervisors.SupervisedServer;
import io.github.mcpsupervisor.tool.McpSupervisorToolCallbackProvider;
import io.github.mcpsupervisor.tool.ToolCallObserver;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;

import org.springframework.ai.tool.ToolCallback;
import org.springframework.ai.tool.definition.ToolDefinition;
import org.springframework.ai.tool.execution.ToolExecutionException;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

/**
 * What a server's tools become while it is down: withdrawn when it fails (the default),
 * or kept listed with their names and schemas, described as unavailable since the outage
 * began, and answering calls with that notice ({@link ToolsWhenDown#KEEP}), until the
 * next generation's tools replace them.
 */
class ToolsWhenDownTests {

	private static final Duration INITIAL = Duration.ofMillis(500);

	private static final Duration WAIT = Duration.ofSeconds(5);

	private static final String FAILED_NOTICE = "MCP server 'demo' has been unavailable since 2026-01-01T00:00:10Z"
			+ " (failed); it has failed, so it stays unavailable until an operator resets it.";

	private static final String RECONNECTING_NOTICE = "MCP server 'demo' has been unavailable since"
			+ " 2026-01-01T00:00:10Z (reconnecting); it is reconnecting, so a later call may succeed.";

	private final VirtualScheduler scheduler = new VirtualScheduler();

	private final FakeConnector connector = new FakeConnector();

	private final List<String> outcomes = new CopyOnWriteArrayList<>();

	private final List<ToolSet> swaps = new CopyOnWriteArrayList<>();

	@Test
	void byDefaultAFailedServersToolsAreWithdrawnAndACallFails() {
		McpServerSupervisor supervisor = supervisor(null, true);
		McpSupervisorToolCallbackProvider provider = provider(supervisor);
		upThenCrashAtTenSeconds(supervisor);
		assertThat(supervisor.tools().unavailable()).as("reconnecting: listed unchanged").isNull();
		assertThat(descriptions(provider.getToolCallbacks())).containsExactly("the echo tool", "the add tool");
		ToolCallback echo = provider.getToolCallbacks()[0];
		failUntilGivenUp(supervisor);
		assertThat(supervisor.tools()).isSameAs(ToolSet.EMPTY);
		assertThat(provider.getToolCallbacks()).isEmpty();
		assertThatExceptionOfType(ToolExecutionException.class).isThrownBy(() -> echo.call("{}"))
			.havingCause()
			.isInstanceOf(McpServerUnavailableException.class)
			.withMessageContaining("has failed");
		assertThat(this.outcomes).containsExactly("UNAVAILABLE");
	}

	@Test
	void keptToolsKeepTheirNamesAndSchemasAndAreDescribedAsUnavailableSinceTheOutageBegan() {
		McpServerSupervisor supervisor = supervisor(ToolsWhenDown.KEEP, true);
		McpSupervisorToolCallbackProvider provider = provider(supervisor);
		supervisor.start();
		this.scheduler.runReady();
		List<ToolDefinition> up = definitions(provider.getToolCallbacks());
		this.scheduler.advance(Duration.ofSeconds(10));
		this.connector.always(FakeConnector.Outcome.FAIL);
		this.connector.last().crash(137);
		this.scheduler.runReady();
		assertThat(supervisor.state()).isEqualTo(McpServerState.RECONNECTING);
		List<ToolDefinition> reconnecting = definitions(provider.getToolCallbacks());
		assertThat(reconnecting).extracting(ToolDefinition::name).isEqualTo(names(up));
		assertThat(reconnecting).extracting(ToolDefinition::inputSchema)
			.isEqualTo(up.stream().map(ToolDefinition::inputSchema).toList());
		assertThat(reconnecting).extracting(ToolDefinition::description)
			.containsOnly("Unavailable: " + RECONNECTING_NOTICE
					+ " Until it recovers, a call of this tool does not run and answers with this notice.");
		// later moves keep the time the outage began
		this.scheduler.advance(Duration.ofMinutes(1));
		assertThat(supervisor.state()).isEqualTo(McpServerState.FAILED);
		List<ToolDefinition> failed = definitions(provider.getToolCallbacks());
		assertThat(failed).extracting(ToolDefinition::name).isEqualTo(names(up));
		assertThat(failed).extracting(ToolDefinition::description)
			.containsOnly("Unavailable: " + FAILED_NOTICE
					+ " Until it recovers, a call of this tool does not run and answers with this notice.");
		assertThat(supervisor.status().lastError()).as("the notice quotes none of it").isNotBlank();
		assertThat(failed.get(0).description()).doesNotContain(supervisor.status().lastError())
			.doesNotContain("scripted");
		assertThat(supervisor.status().tools()).containsExactly("echo", "add");
	}

	@Test
	void aCallToAFailedServerThatKeepsItsToolsAnswersTheNoticeAtOnce() {
		McpServerSupervisor supervisor = supervisor(ToolsWhenDown.KEEP, true);
		McpSupervisorToolCallbackProvider provider = provider(supervisor);
		upThenCrashAtTenSeconds(supervisor);
		failUntilGivenUp(supervisor);
		assertThat(provider.getToolCallbacks()[0].call("{}")).isEqualTo(FAILED_NOTICE + " The call did not run.");
		assertThat(supervisor.waitingCalls()).isZero();
		assertThat(this.outcomes).containsExactly("UNAVAILABLE");
	}

	@Test
	void aCallDuringAReconnectWaitsForRecoveryThenAnswersTheNotice() throws Exception {
		McpServerSupervisor supervisor = supervisor(ToolsWhenDown.KEEP, true);
		McpSupervisorToolCallbackProvider provider = provider(supervisor);
		upThenCrashAtTenSeconds(supervisor);
		this.connector.always(FakeConnector.Outcome.FAIL);
		ToolCallback echo = provider.getToolCallbacks()[0];
		CompletableFuture<String> call = CompletableFuture.supplyAsync(() -> echo.call("{}"));
		await().until(() -> supervisor.waitingCalls() == 1);
		this.scheduler.advance(WAIT.minusMillis(1));
		assertThat(call).isNotDone();
		this.scheduler.advance(Duration.ofMillis(1));
		assertThat(supervisor.state()).isEqualTo(McpServerState.RECONNECTING);
		assertThat(call.get(10, TimeUnit.SECONDS)).isEqualTo(RECONNECTING_NOTICE + " The call did not run.");
		assertThat(this.outcomes).containsExactly("UNAVAILABLE");
	}

	@Test
	void aCallDuringAShortReconnectRunsOnTheRecoveredGeneration() throws Exception {
		McpServerSupervisor supervisor = supervisor(ToolsWhenDown.KEEP, true);
		McpSupervisorToolCallbackProvider provider = provider(supervisor);
		upThenCrashAtTenSeconds(supervisor);
		ToolCallback echo = provider.getToolCallbacks()[0];
		CompletableFuture<String> call = CompletableFuture.supplyAsync(() -> echo.call("{}"));
		await().until(() -> supervisor.waitingCalls() == 1);
		this.scheduler.advance(INITIAL);
		assertThat(call.get(10, TimeUnit.SECONDS)).contains("echo from g2");
		assertThat(this.outcomes).containsExactly("SUCCESS");
	}

	@Test
	void theNextGenerationsToolsReplaceTheUnavailableOnesInOneSwap() {
		McpServerSupervisor supervisor = supervisor(ToolsWhenDown.KEEP, true);
		McpSupervisorToolCallbackProvider provider = provider(supervisor);
		upThenCrashAtTenSeconds(supervisor);
		failUntilGivenUp(supervisor);
		ToolCallback[] unavailable = provider.getToolCallbacks();
		this.connector.always(FakeConnector.Outcome.CONNECT);
		supervisor.reset();
		this.scheduler.runReady();
		assertThat(supervisor.state()).isEqualTo(McpServerState.UP);
		assertThat(descriptions(provider.getToolCallbacks())).containsExactly("the echo tool", "the add tool");
		assertThat(unavailable[0].call("{}")).as("a callback captured while down routes to the live generation")
			.contains("echo from g");
		// every swap is a whole tool set: the live one, or the same tools marked with the
		// state the server moved to
		assertThat(this.swaps).extracting(ToolsWhenDownTests::describe)
			.containsExactly("g1", "g1 RECONNECTING", "g1 FAILED", "g1 RECONNECTING",
					"g" + supervisor.status().generation());
		assertThat(this.swaps.get(1).tools()).isEqualTo(this.swaps.get(0).tools());
	}

	@Test
	void aCallLostUnderItStillFailsWhenTheToolsAreKept() {
		McpServerSupervisor supervisor = supervisor(ToolsWhenDown.KEEP, true);
		McpSupervisorToolCallbackProvider provider = provider(supervisor);
		supervisor.start();
		this.scheduler.runReady();
		this.connector.crashOnCalls = true;
		ToolCallback echo = provider.getToolCallbacks()[0];
		assertThatExceptionOfType(ToolExecutionException.class).isThrownBy(() -> echo.call("{}"))
			.havingCause()
			.withMessageContaining("crashed during the call")
			.withMessageContaining("may or may not have taken effect");
		this.scheduler.runReady();
		assertThat(supervisor.tools().unavailable()).isNotNull();
		assertThat(this.outcomes).containsExactly("UNAVAILABLE");
	}

	@Test
	void aDisconnectedServerKeepsItsToolsMarkedDisconnected() {
		McpServerSupervisor supervisor = supervisor(ToolsWhenDown.KEEP, false);
		McpSupervisorToolCallbackProvider provider = provider(supervisor);
		upThenCrashAtTenSeconds(supervisor);
		assertThat(supervisor.state()).isEqualTo(McpServerState.DISCONNECTED);
		assertThat(provider.getToolCallbacks()[1].call("{}")).isEqualTo("MCP server 'demo' has been unavailable"
				+ " since 2026-01-01T00:00:10Z (disconnected); reconnect is disabled, so it stays unavailable until"
				+ " an operator resets it. The call did not run.");
	}

	@Test
	void aServerWaitingForAnAuthorizationKeepsItsToolsMarkedSo() {
		McpServerSupervisor supervisor = supervisor(ToolsWhenDown.KEEP, true);
		McpSupervisorToolCallbackProvider provider = provider(supervisor);
		upThenCrashAtTenSeconds(supervisor);
		this.connector.always(FakeConnector.Outcome.UNAUTHORIZED);
		this.scheduler.advance(INITIAL);
		assertThat(supervisor.state()).isEqualTo(McpServerState.NEEDS_AUTHORIZATION);
		assertThat(provider.getToolCallbacks()[0].getToolDefinition().description())
			.startsWith("Unavailable: MCP server 'demo' has been unavailable since 2026-01-01T00:00:10Z"
					+ " (needs authorization); it needs an authorization, so it stays unavailable until the"
					+ " application's operators give it.");
	}

	@Test
	void aServerThatNeverConnectedHasNoToolsToKeep() {
		McpServerSupervisor supervisor = supervisor(ToolsWhenDown.KEEP, true);
		this.connector.always(FakeConnector.Outcome.MISCONFIGURED);
		supervisor.start();
		this.scheduler.runReady();
		assertThat(supervisor.state()).isEqualTo(McpServerState.FAILED);
		assertThat(supervisor.tools()).isSameAs(ToolSet.EMPTY);
		assertThat(provider(supervisor).getToolCallbacks()).isEmpty();
	}

	@Test
	void aStopWithdrawsKeptTools() {
		McpServerSupervisor supervisor = supervisor(ToolsWhenDown.KEEP, true);
		upThenCrashAtTenSeconds(supervisor);
		failUntilGivenUp(supervisor);
		supervisor.stop();
		this.scheduler.runReady();
		assertThat(supervisor.tools()).isSameAs(ToolSet.EMPTY);
	}

	private void upThenCrashAtTenSeconds(McpServerSupervisor supervisor) {
		supervisor.start();
		this.scheduler.runReady();
		assertThat(supervisor.state()).isEqualTo(McpServerState.UP);
		this.scheduler.advance(Duration.ofSeconds(10));
		this.connector.last().crash(137);
		this.scheduler.runReady();
	}

	private void failUntilGivenUp(McpServerSupervisor supervisor) {
		this.connector.always(FakeConnector.Outcome.FAIL);
		this.scheduler.advance(Duration.ofMinutes(1));
		assertThat(supervisor.state()).isEqualTo(McpServerState.FAILED);
	}

	// no toolsWhenDown: the builder's default
	private McpServerSupervisor supervisor(@Nullable ToolsWhenDown toolsWhenDown, boolean reconnect) {
		McpServerSupervisor.Builder builder = McpServerSupervisor.builder("demo", this.connector, this.scheduler)
			.reconnect(ReconnectPolicy.builder()
				.enabled(reconnect)
				.initialDelay(INITIAL)
				.maxDelay(Duration.ofSeconds(2))
				.maxAttempts(5)
				.jitter(0)
				.build())
			.calls(CallPolicy.builder().waitForRecovery(WAIT).build())
			.healthCheck(HealthCheckPolicy.disabled(Duration.ofSeconds(5)))
			.listener(new SupervisorListener() {

				@Override
				public void toolsChanged(String server, ToolSet tools) {
					ToolsWhenDownTests.this.swaps.add(tools);
				}

			});
		return (toolsWhenDown != null) ? builder.toolsWhenDown(toolsWhenDown).build() : builder.build();
	}

	private McpSupervisorToolCallbackProvider provider(McpServerSupervisor supervisor) {
		ToolCallObserver observer = (server, serverTool, tool, outcome, duration) -> this.outcomes.add(outcome.name());
		return new McpSupervisorToolCallbackProvider(
				new McpSupervisors(List
					.of(new SupervisedServer(supervisor, false, false, Duration.ofSeconds(1), Duration.ofSeconds(1)))),
				observer);
	}

	private static String describe(ToolSet tools) {
		return "g" + tools.generation() + ((tools.unavailable() != null) ? " " + tools.unavailable().state() : "");
	}

	private static List<ToolDefinition> definitions(ToolCallback[] callbacks) {
		return Arrays.stream(callbacks).map(ToolCallback::getToolDefinition).toList();
	}

	private static List<String> descriptions(ToolCallback[] callbacks) {
		return definitions(callbacks).stream().map(ToolDefinition::description).toList();
	}

	private static List<String> names(List<ToolDefinition> definitions) {
		return definitions.stream().map(ToolDefinition::name).toList();
	}

}
