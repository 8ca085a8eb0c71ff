package io.github.mcpsupervisor.supervisor;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;

import io.github.mcpsupervisor.supervisor.FakeConnector.Outcome;
import io.github.mcpsupervisor.supervisor.McpStandbyStatus.McpStandbyState;
import io.github.mcpsupervisor.supervisor.ToolSet.SessionInfo;
import io.github.mcpsupervisor.testsupport.CapturedOutput;
import io.github.mcpsupervisor.testsupport.OutputCaptureExtension;
import io.modelcontextprotocol.spec.McpSchema.CallToolRequest;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import io.modelcontextprotocol.spec.McpSchema.ClientCapabilities;
import io.modelcontextprotocol.spec.McpSchema.Implementation;
import io.modelcontextprotocol.spec.McpSchema.InitializeResult;
import io.modelcontextprotocol.spec.McpSchema.ServerCapabilities;
import io.modelcontextprotocol.spec.McpSchema.TextContent;
import io.modelcontextprotocol.spec.McpSchema.Tool;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.awaitility.Awaitility.await;

/**
 * Servers that cost nothing while unused: started on first use, their tools listed from
 * their catalog, and stopped when idle, on virtual time.
 */
@ExtendWith(OutputCaptureExtension.class)
class UnusedServerTests {

	private static final Duration IDLE_TIME = Duration.ofMinutes(10);

	private final VirtualScheduler scheduler = new VirtualScheduler();

	private final FakeConnector connector = new FakeConnector();

	private final List<McpServerStateChange> changes = new ArrayList<>();

	private final List<String> recoveries = new ArrayList<>();

	@TempDir
	Path directory;

	private McpServerSupervisor supervisor(ToolCatalog catalog, Duration idleTimeout, boolean standby) {
		return McpServerSupervisor.builder("files", this.connector, this.scheduler)
			.reconnect(ReconnectPolicy.builder().initialDelay(Duration.ofMillis(500)).jitter(0).build())
			.calls(CallPolicy.builder().waitForRecovery(Duration.ofSeconds(30)).build())
			.healthCheck(HealthCheckPolicy.disabled(Duration.ofSeconds(5)))
			.listener(new SupervisorListener() {

				@Override
				public void stateChanged(McpServerStateChange change) {
					UnusedServerTests.this.changes.add(change);
				}

				@Override
				public void recovered(String server, int attempts, Duration outage) {
					UnusedServerTests.this.recoveries.add(attempts + " attempt(s), outage " + outage);
				}

			})
			.standby(standby)
			.startOnFirstUse(catalog)
			.idleTimeout(idleTimeout)
			.build();
	}

	private ToolCatalog catalog() {
		return ToolCatalog.in(this.directory, "files", "command=files-server");
	}

	private ToolCatalog kept() {
		ToolCatalog catalog = catalog();
		catalog.keep("files", List.of(FakeConnector.tool("read"), FakeConnector.tool("write")), null, null,
				this.scheduler.clock().instant());
		return catalog;
	}

	@Test
	void aServerWhoseCatalogHoldsItsToolsOffersThemWithoutAProcess() throws Exception {
		McpServerSupervisor supervisor = supervisor(kept(), IDLE_TIME, false);
		McpServerStatus first = supervisor.start().get(1, TimeUnit.SECONDS);
		assertThat(first.state()).isEqualTo(McpServerState.IDLE);
		assertThat(supervisor.tools().names()).containsExactly("read", "write");
		assertThat(this.connector.spawns()).isZero();
		assertThat(this.changes).extracting(McpServerStateChange::to).containsExactly(McpServerState.IDLE);
		stop(supervisor);
	}

	@Test
	void anIdleServerThatMustStartWithTheApplicationDoesNotFailItsStart() {
		McpServerSupervisor supervisor = supervisor(kept(), IDLE_TIME, false);
		McpSupervisors supervisors = new McpSupervisors(List.of(new McpSupervisors.SupervisedServer(supervisor, true,
				true, Duration.ofSeconds(5), Duration.ofSeconds(5))));
		supervisors.start();
		assertThat(supervisor.state()).isEqualTo(McpServerState.IDLE);
		supervisors.stop();
		this.scheduler.runReady();
	}

	@Test
	void theFirstCallStartsTheServerAndIsServedByIt() throws Exception {
		McpServerSupervisor supervisor = supervisor(kept(), IDLE_TIME, false);
		supervisor.start();
		CompletableFuture<String> call = CompletableFuture.supplyAsync(() -> call(supervisor));
		await().until(() -> supervisor.state() == McpServerState.STARTING);
		this.scheduler.runReady();
		assertThat(call.get(5, TimeUnit.SECONDS)).isEqualTo("echo from g1");
		assertThat(supervisor.tools().names()).as("the server's own listing replaces the catalog's")
			.containsExactly("echo", "add");
		assertThat(supervisor.status().attemptsUsed()).as("a start on first use is no outage").isZero();
		stop(supervisor);
	}

	@Test
	void aServerUnusedForItsIdleTimeIsStoppedAndItsToolsStayListed() throws Exception {
		McpServerSupervisor supervisor = awake(kept());
		assertThat(call(supervisor)).isEqualTo("echo from g1");
		this.scheduler.advance(IDLE_TIME.minusSeconds(1));
		assertThat(supervisor.state()).isEqualTo(McpServerState.UP);
		this.scheduler.advance(Duration.ofSeconds(1));
		assertThat(supervisor.state()).isEqualTo(McpServerState.IDLE);
		assertThat(this.connector.alive).as("its process terminated").isZero();
		assertThat(supervisor.tools().names()).containsExactly("echo", "add");
		assertThat(supervisor.tools().unavailable()).as("idle is not down").isNull();
		assertThat(supervisor.status().attemptsUsed()).isZero();
		assertThat(this.changes).extracting(McpServerStateChange::to)
			.containsExactly(McpServerState.IDLE, McpServerState.STARTING, McpServerState.UP, McpServerState.IDLE);
		// the next call starts it again
		CompletableFuture<String> call = CompletableFuture.supplyAsync(() -> call(supervisor));
		await().until(() -> supervisor.state() == McpServerState.STARTING);
		this.scheduler.runReady();
		assertThat(call.get(5, TimeUnit.SECONDS)).isEqualTo("echo from g2");
		assertThat(this.connector.maxAlive).as("never two processes").isEqualTo(1);
		stop(supervisor);
	}

	@Test
	void aCallInFlightKeepsTheServerUpPastItsIdleTime() throws Exception {
		McpServerSupervisor supervisor = awake(kept());
		CountDownLatch entered = new CountDownLatch(1);
		CountDownLatch release = new CountDownLatch(1);
		this.connector.last().onCall = (request) -> {
			entered.countDown();
			try {
				release.await(5, TimeUnit.SECONDS);
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
			}
			return CallToolResult.builder().addTextContent("slow").build();
		};
		CompletableFuture<String> slow = CompletableFuture.supplyAsync(() -> call(supervisor));
		assertThat(entered.await(5, TimeUnit.SECONDS)).isTrue();
		this.scheduler.advance(IDLE_TIME.multipliedBy(3));
		assertThat(supervisor.state()).isEqualTo(McpServerState.UP);
		release.countDown();
		assertThat(slow.get(5, TimeUnit.SECONDS)).isEqualTo("slow");
		// idle from the end of the last call
		this.scheduler.advance(IDLE_TIME.minusSeconds(1));
		assertThat(supervisor.state()).isEqualTo(McpServerState.UP);
		this.scheduler.advance(IDLE_TIME);
		assertThat(supervisor.state()).isEqualTo(McpServerState.IDLE);
		stop(supervisor);
	}

	@Test
	void aSubscriptionKeepsTheServerAwake() throws Exception {
		McpServerSupervisor supervisor = awake(kept());
		this.connector.subscribed = true;
		this.scheduler.advance(IDLE_TIME.multipliedBy(3));
		assertThat(supervisor.state()).isEqualTo(McpServerState.UP);
		this.connector.subscribed = false;
		this.scheduler.advance(IDLE_TIME);
		assertThat(supervisor.state()).isEqualTo(McpServerState.IDLE);
		stop(supervisor);
	}

	@Test
	void noStandbyIsKeptWhileIdle() throws Exception {
		McpServerSupervisor supervisor = supervisor(kept(), IDLE_TIME, true);
		supervisor.start();
		CompletableFuture<String> call = CompletableFuture.supplyAsync(() -> call(supervisor));
		await().until(() -> supervisor.state() == McpServerState.STARTING);
		this.scheduler.runReady();
		call.get(5, TimeUnit.SECONDS);
		assertThat(supervisor.status().standby().state()).isEqualTo(McpStandbyState.READY);
		this.scheduler.advance(IDLE_TIME);
		assertThat(supervisor.state()).isEqualTo(McpServerState.IDLE);
		assertThat(supervisor.status().standby().state()).isEqualTo(McpStandbyState.WAITING);
		assertThat(this.connector.alive).as("the spare terminated too").isZero();
		stop(supervisor);
	}

	@Test
	void aStartOnFirstUseThatFailsIsAnOutageBackedOffFromTheBudget() throws Exception {
		McpServerSupervisor supervisor = supervisor(kept(), IDLE_TIME, false);
		supervisor.start();
		this.connector.then(Outcome.FAIL);
		supervisor.lifecycle().view().nextGeneration(null);
		this.scheduler.runReady();
		assertThat(supervisor.state()).isEqualTo(McpServerState.RECONNECTING);
		assertThat(supervisor.status().attemptsUsed()).isEqualTo(1);
		this.scheduler.advance(Duration.ofSeconds(1));
		assertThat(supervisor.state()).isEqualTo(McpServerState.UP);
		stop(supervisor);
	}

	@Test
	void withoutACatalogTheServerIsStartedToListItsToolsThenStoppedAndTheNextStartNeedsNone(CapturedOutput output)
			throws Exception {
		McpServerSupervisor supervisor = supervisor(catalog(), IDLE_TIME, false);
		supervisor.start();
		this.scheduler.runReady();
		assertThat(output).contains("MCP server 'files': starts on first use, but no tool catalog of an earlier run "
				+ "holds for its configuration: starting it to list its tools");
		assertThat(supervisor.state()).isEqualTo(McpServerState.IDLE);
		assertThat(this.connector.spawns()).isEqualTo(1);
		assertThat(this.connector.alive).isZero();
		assertThat(supervisor.tools().names()).containsExactly("echo", "add");
		stop(supervisor);
		// the next run of the application: listed from the catalog, nothing started
		McpServerSupervisor next = supervisor(catalog(), IDLE_TIME, false);
		next.start();
		this.scheduler.runReady();
		assertThat(next.state()).isEqualTo(McpServerState.IDLE);
		assertThat(next.tools().names()).containsExactly("echo", "add");
		assertThat(this.connector.spawns()).isEqualTo(1);
		stop(next);
	}

	@Test
	void aCatalogKeptForAnotherConfigurationOrPastItsTimeIsNotUsed() throws Exception {
		ToolCatalog.in(this.directory, "files", "command=other-server")
			.keep("files", List.of(FakeConnector.tool("read")), null, null, this.scheduler.clock().instant());
		McpServerSupervisor other = supervisor(catalog(), IDLE_TIME, false);
		other.start();
		assertThat(other.state()).isEqualTo(McpServerState.STARTING);
		stop(other);
		catalog().keep("files", List.of(FakeConnector.tool("read")), null, Duration.ofMinutes(1),
				this.scheduler.clock().instant());
		this.scheduler.advance(Duration.ofMinutes(1));
		McpServerSupervisor stale = supervisor(catalog(), IDLE_TIME, false);
		stale.start();
		assertThat(stale.state()).isEqualTo(McpServerState.STARTING);
		stop(stale);
		catalog().keep("files", List.of(FakeConnector.tool("read")), null, Duration.ofMinutes(1),
				this.scheduler.clock().instant());
		McpServerSupervisor fresh = supervisor(catalog(), IDLE_TIME, false);
		fresh.start();
		assertThat(fresh.state()).isEqualTo(McpServerState.IDLE);
		stop(fresh);
	}

	@Test
	void theTimeAListingHoldsAsItsServerSaysBoundsItsCatalog() throws Exception {
		this.connector.toolsFreshFor = Duration.ofMinutes(30);
		McpServerSupervisor first = supervisor(catalog(), IDLE_TIME, false);
		first.start();
		this.scheduler.runReady();
		assertThat(first.state()).isEqualTo(McpServerState.IDLE);
		stop(first);
		this.scheduler.advance(Duration.ofMinutes(29));
		McpServerSupervisor within = supervisor(catalog(), IDLE_TIME, false);
		within.start();
		assertThat(within.state()).isEqualTo(McpServerState.IDLE);
		stop(within);
		this.scheduler.advance(Duration.ofMinutes(1));
		McpServerSupervisor past = supervisor(catalog(), IDLE_TIME, false);
		past.start();
		assertThat(past.state()).as("listed again").isEqualTo(McpServerState.STARTING);
		stop(past);
	}

	@Test
	void aCatalogLargerThanAnyListingOrReachedThroughALinkIsNotRead(CapturedOutput output) throws Exception {
		kept();
		Path file;
		try (var files = Files.list(this.directory)) {
			file = files.findFirst().orElseThrow();
		}
		Path elsewhere = Files.move(file, this.directory.resolve("elsewhere.json"));
		Files.createSymbolicLink(file, elsewhere);
		assertThat(catalog().read("files", this.scheduler.clock().instant())).isNull();
		assertThat(output).contains("its tool catalog cannot be read");
		Files.delete(file);
		Files.write(file, new byte[(int) ToolCatalog.MAX_SIZE + 1]);
		assertThat(catalog().read("files", this.scheduler.clock().instant())).isNull();
		assertThat(output).contains("its tool catalog is larger than " + ToolCatalog.MAX_SIZE + " bytes");
	}

	@Test
	void anUnreadableCatalogIsNoCatalog(CapturedOutput output) throws Exception {
		kept();
		try (var files = Files.list(this.directory)) {
			for (Path file : files.toList()) {
				Files.writeString(file, "{ not json");
			}
		}
		McpServerSupervisor supervisor = supervisor(catalog(), IDLE_TIME, false);
		supervisor.start();
		assertThat(supervisor.state()).isEqualTo(McpServerState.STARTING);
		assertThat(output).contains("MCP server 'files': its tool catalog cannot be read");
		stop(supervisor);
	}

	@Test
	void aStopWhileIdleLeavesNoTimer() throws Exception {
		McpServerSupervisor supervisor = awake(kept());
		supervisor.stop();
		this.scheduler.runReady();
		assertThat(this.scheduler.scheduledTasks()).isZero();
		McpServerSupervisor idle = supervisor(kept(), IDLE_TIME, false);
		idle.start();
		idle.stop();
		this.scheduler.runReady();
		assertThat(this.scheduler.scheduledTasks()).isZero();
		assertThat(idle.tools().tools()).isEmpty();
	}

	@Test
	void anIdlePeriodIsNotReportedAsAnOutage() throws Exception {
		McpServerSupervisor supervisor = awake(kept());
		this.scheduler.advance(IDLE_TIME);
		assertThat(supervisor.state()).isEqualTo(McpServerState.IDLE);
		this.scheduler.advance(Duration.ofHours(5));
		CompletableFuture<String> call = CompletableFuture.supplyAsync(() -> call(supervisor));
		await().until(() -> supervisor.state() == McpServerState.STARTING);
		this.scheduler.runReady();
		call.get(5, TimeUnit.SECONDS);
		assertThat(this.recoveries).as("idle is not an outage").isEmpty();
		stop(supervisor);
	}

	@Test
	void aStartOnFirstUseWhileAStopEndsSpendsNoAttempt() throws Exception {
		McpServerSupervisor supervisor = awake(kept());
		supervisor.stop();
		supervisor.start();
		assertThat(supervisor.lifecycle().phase()).isEqualTo(ServerPhase.STARTING_AWAITING_STOP);
		this.scheduler.runReady();
		assertThat(supervisor.state()).isEqualTo(McpServerState.IDLE);
		assertThat(supervisor.status().attemptsUsed()).as("idle spends no attempt").isZero();
		stop(supervisor);
	}

	@Test
	void aResetWhileACallWaitsForTheIdleStopLeavesTheStartWithoutAnAttempt() throws Exception {
		McpServerSupervisor supervisor = awake(kept());
		this.connector.duringTermination = () -> {
			supervisor.lifecycle().view().nextGeneration(null);
			assertThat(supervisor.lifecycle().phase()).isEqualTo(ServerPhase.IDLE_STOPPING_THEN_CONNECT);
			supervisor.reset();
		};
		this.scheduler.advance(IDLE_TIME);
		assertThat(supervisor.state()).isEqualTo(McpServerState.UP);
		assertThat(supervisor.status().attemptsUsed()).as("a start on first use takes no attempt").isZero();
		stop(supervisor);
	}

	@Test
	void noIdleCheckIsLeftOnceTheServerLeftUp() throws Exception {
		McpServerSupervisor supervisor = awake(kept());
		supervisor.restart();
		this.scheduler.runReady();
		assertThat(supervisor.state()).isEqualTo(McpServerState.UP);
		this.connector.last().crash(1);
		this.scheduler.runReady();
		assertThat(supervisor.state()).isEqualTo(McpServerState.RECONNECTING);
		assertThat(this.scheduler.scheduledTasks()).as("only the retry is scheduled").isEqualTo(1);
		stop(supervisor);
	}

	@Test
	void aStartOnlyToListTheToolsStartsNoSpare() throws Exception {
		McpServerSupervisor supervisor = supervisor(catalog(), IDLE_TIME, true);
		supervisor.start();
		this.scheduler.runReady();
		assertThat(supervisor.state()).isEqualTo(McpServerState.IDLE);
		assertThat(this.connector.spawns()).as("processes spawned to list the tools").isEqualTo(1);
		stop(supervisor);
	}

	@Test
	void whatTheServerSaidOfItselfIsKeptWithItsTools() throws Exception {
		this.connector.session = new SessionInfo(Implementation.builder("client", "1").build(),
				ClientCapabilities.builder().build(),
				InitializeResult
					.builder("2025-11-25", ServerCapabilities.builder().tools(false).build(),
							Implementation.builder("files-server", "1.2").build())
					.instructions("read and write files")
					.build());
		McpServerSupervisor first = supervisor(catalog(), IDLE_TIME, false);
		first.start();
		this.scheduler.runReady();
		stop(first);
		McpServerSupervisor next = supervisor(catalog(), IDLE_TIME, false);
		next.start();
		assertThat(next.state()).isEqualTo(McpServerState.IDLE);
		assertThat(next.tools().session()).as("what tool naming and filters read").isEqualTo(this.connector.session);
		stop(next);
	}

	@Test
	void aCatalogOfAnyListingTheSupervisorAcceptsIsReadBack() {
		String description = "d".repeat(15 * 1024);
		List<Tool> tools = IntStream.range(0, 700)
			.mapToObj((i) -> Tool.builder("tool" + i, Map.of("type", "object")).description(description).build())
			.toList();
		ToolCatalog catalog = catalog();
		Instant now = this.scheduler.clock().instant();
		catalog.keep("files", tools, null, null, now);
		assertThat(catalog.read("files", now)).as("a listing of 700 tools of 15 KB each").isNotNull();
	}

	@Test
	void aListingThatHoldsForAsLongAsItsServerCanSayIsKept() {
		ToolCatalog catalog = catalog();
		Instant now = this.scheduler.clock().instant();
		catalog.keep("files", List.of(FakeConnector.tool("echo")), null, Duration.ofMillis(Long.MAX_VALUE), now);
		assertThat(catalog.read("files", now)).isNotNull();
	}

	@Test
	void aServerWhoseCallsDoNotWaitCannotStartOnFirstUse() {
		assertThatIllegalArgumentException()
			.isThrownBy(() -> McpServerSupervisor.builder("files", this.connector, this.scheduler)
				.calls(CallPolicy.builder().waitForRecovery(Duration.ZERO).build())
				.idleTimeout(IDLE_TIME)
				.build())
			.withMessage("MCP server 'files' runs only while it is used, but its calls do not wait for its start "
					+ "(call.wait-for-recovery is 0): each first call after an idle time would fail; give "
					+ "call.wait-for-recovery a positive duration");
	}

	// A server that starts on first use, started and called once.
	private McpServerSupervisor awake(ToolCatalog catalog) throws Exception {
		McpServerSupervisor supervisor = supervisor(catalog, IDLE_TIME, false);
		supervisor.start();
		CompletableFuture<String> call = CompletableFuture.supplyAsync(() -> call(supervisor));
		await().until(() -> supervisor.state() == McpServerState.STARTING);
		this.scheduler.runReady();
		assertThat(call.get(5, TimeUnit.SECONDS)).isEqualTo("echo from g1");
		return supervisor;
	}

	private String call(McpServerSupervisor supervisor) {
		CallToolResult result = supervisor.callTool(CallToolRequest.builder("echo").arguments(Map.of()).build());
		return ((TextContent) result.content().get(0)).text();
	}

	private void stop(McpServerSupervisor supervisor) {
		supervisor.stop();
		this.scheduler.runReady();
	}

}
