package io.github.mcpsupervisor.supervisor;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import io.github.mcpsupervisor.internal.Caller;
import io.github.mcpsupervisor.supervisor.FakeConnector.FakeConnection;
import io.github.mcpsupervisor.supervisor.FakeConnector.Outcome;
import io.github.mcpsupervisor.supervisor.McpStandbyStatus.McpStandbyState;
import io.modelcontextprotocol.spec.McpSchema.CallToolRequest;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import io.modelcontextprotocol.spec.McpSchema.TextContent;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The warm standby of a server, on virtual time: a ready spare serves at once when the
 * serving generation ends, never before; at most one spare; a spare that dies is replaced
 * under its own budget and backoff without touching the serving generation; a spare that
 * keeps failing is reported, never hot-looped; a stop ends both, quiescently.
 */
class McpServerSupervisorStandbyTests {

	private static final Duration INITIAL = Duration.ofMillis(500);

	private static final Duration MAX = Duration.ofSeconds(30);

	private static final int ATTEMPTS = 4;

	private final VirtualScheduler scheduler = new VirtualScheduler();

	private final FakeConnector connector = new FakeConnector();

	private final List<McpServerStateChange> changes = new ArrayList<>();

	private final List<String> promotions = new ArrayList<>();

	private final List<ToolSet> swaps = new ArrayList<>();

	private final McpServerSupervisor supervisor = supervisor(true);

	@Test
	void aReadySpareServesAtOnceWhenTheServingGenerationIsLost() {
		startWithReadySpare();
		this.connector.connections.get(0).crash(137);
		this.scheduler.runReady();
		assertThat(this.supervisor.state()).isEqualTo(McpServerState.UP);
		assertThat(this.changes).extracting(McpServerStateChange::to)
			.containsExactly(McpServerState.STARTING, McpServerState.UP);
		assertThat(this.supervisor.status().generation()).isEqualTo(2);
		assertThat(this.supervisor.status().pid()).isEqualTo(1002L);
		assertThat(this.supervisor.tools().generation()).isEqualTo(2);
		assertThat(this.promotions).containsExactly("g2 in place of g1");
		assertThat(call()).isEqualTo("echo from g2");
		// the lost generation is terminated, and a new spare stands by
		assertThat(this.connector.connections.get(0).terminated).isTrue();
		// the start took the first slot of the budget: the spare waits the second
		assertThat(this.supervisor.status().standby().state()).isEqualTo(McpStandbyState.BACKING_OFF);
		this.scheduler.advance(INITIAL.multipliedBy(2));
		McpStandbyStatus standby = this.supervisor.status().standby();
		assertThat(standby.state()).isEqualTo(McpStandbyState.READY);
		assertThat(standby.generation()).isEqualTo(3);
		assertThat(standby.pid()).isEqualTo(1003L);
		assertThat(standby.promotions()).isEqualTo(1);
	}

	@Test
	void aPromotedSpareServesEachCallForItsOwnUser() {
		startWithReadySpare();
		assertThat(Caller.of("ada").call(this::call)).isEqualTo("echo from g1");
		this.connector.connections.get(0).crash(137);
		this.scheduler.runReady();
		assertThat(Caller.of("grace").call(this::call)).isEqualTo("echo from g2");
		assertThat(Caller.of("ada").call(this::call)).isEqualTo("echo from g2");
		assertThat(this.connector.callers).containsExactly("g1 ada", "g2 grace", "g2 ada");
	}

	@Test
	void aSpareNeverServesBeforeItIsPromotedAndAtMostOneSpareIsKept() {
		startWithReadySpare();
		FakeConnection spare = this.connector.connections.get(1);
		List<String> reachedTheSpare = new ArrayList<>();
		spare.onCall = (request) -> {
			reachedTheSpare.add(request.name());
			throw new IllegalStateException("a spare served");
		};
		for (int i = 0; i < 20; i++) {
			assertThat(call()).isEqualTo("echo from g1");
		}
		assertThat(reachedTheSpare).isEmpty();
		for (int kill = 0; kill < 5; kill++) {
			liveConnection().crash(137);
			this.scheduler.runReady();
			// the promoted generation stays up: its spare comes, its budget is reset
			this.scheduler.advance(MAX);
			assertThat(this.supervisor.status().standby().state()).isEqualTo(McpStandbyState.READY);
		}
		// the serving generation and one spare, never more
		assertThat(this.connector.maxAlive).isEqualTo(2);
		assertThat(this.connector.alive).isEqualTo(2);
		assertThat(this.connector.callsOnClosedClients).isZero();
		assertThat(this.promotions).hasSize(5);
	}

	@Test
	void theSpareAfterAPromotionFollowsTheServersBackoffAndGenerationsThatKeepEndingSpendItsBudget() {
		startWithReadySpare();
		// the start took the budget's first attempt
		for (int promotion = 1; promotion < ATTEMPTS; promotion++) {
			liveConnection().crash(137);
			this.scheduler.runReady();
			McpStandbyStatus standby = this.supervisor.status().standby();
			assertThat(standby.state()).isEqualTo(McpStandbyState.BACKING_OFF);
			assertThat(this.supervisor.status().attemptsUsed()).isEqualTo(promotion + 1);
			Duration delay = Duration.between(this.scheduler.now(), standby.nextAttemptAt());
			assertThat(delay).isEqualTo(INITIAL.multipliedBy(1L << promotion));
			this.scheduler.advance(delay);
			assertThat(this.supervisor.status().standby().state()).isEqualTo(McpStandbyState.READY);
		}
		// the last spare is promoted with the budget spent: none follows it
		liveConnection().crash(137);
		this.scheduler.runReady();
		assertThat(this.promotions).hasSize(ATTEMPTS);
		assertThat(this.supervisor.status().standby().state()).isEqualTo(McpStandbyState.FAILED);
		assertThat(this.supervisor.status().standby().lastError()).contains("outage budget is spent");
		int spawns = this.connector.spawns();
		liveConnection().crash(137);
		this.scheduler.advance(Duration.ofHours(1));
		assertThat(this.supervisor.state()).isEqualTo(McpServerState.FAILED);
		assertThat(this.connector.spawns()).isEqualTo(spawns);
		assertThat(this.connector.alive).isZero();
	}

	@Test
	void aCallWaitingForTheNextGenerationIsReleasedByThePromotion() throws Exception {
		startWithReadySpare();
		this.connector.connections.get(0).crash(137);
		// the loss is not yet seen: a call that finds the lost generation waits
		CompletableFuture<String> waiting = CompletableFuture.supplyAsync(this::call);
		await().until(() -> this.supervisor.waitingCalls() == 1);
		this.scheduler.runReady();
		assertThat(waiting.get(5, TimeUnit.SECONDS)).isEqualTo("echo from g2");
	}

	@Test
	void aSpareThatDiesIsReplacedAfterItsBackoffWithoutTouchingTheServingGeneration() {
		startWithReadySpare();
		int swapsBefore = this.swaps.size();
		this.connector.connections.get(1).crash(137);
		this.scheduler.runReady();
		assertThat(this.connector.connections.get(1).terminated).isTrue();
		McpStandbyStatus standby = this.supervisor.status().standby();
		assertThat(standby.state()).isEqualTo(McpStandbyState.BACKING_OFF);
		assertThat(standby.lastError()).contains("spare ended").contains("SIGKILL");
		// the spare's first attempt took the first slot: the second waits twice the
		// initial delay
		assertThat(standby.nextAttemptAt()).isEqualTo(this.scheduler.now().plus(INITIAL.multipliedBy(2)));
		this.scheduler.advance(INITIAL.multipliedBy(2).minusMillis(1));
		assertThat(this.connector.spawns()).isEqualTo(2);
		this.scheduler.advance(Duration.ofMillis(1));
		assertThat(this.connector.spawns()).isEqualTo(3);
		assertThat(this.supervisor.status().standby().state()).isEqualTo(McpStandbyState.READY);
		// the serving generation saw nothing of it
		assertThat(this.supervisor.status().generation()).isEqualTo(1);
		assertThat(this.changes).extracting(McpServerStateChange::to)
			.containsExactly(McpServerState.STARTING, McpServerState.UP);
		assertThat(this.swaps).hasSize(swapsBefore);
		assertThat(call()).isEqualTo("echo from g1");
	}

	@Test
	void aSpareThatKeepsFailingIsReportedAndNeverHotLooped() {
		this.connector.then(Outcome.CONNECT).always(Outcome.FAIL);
		this.supervisor.start();
		this.scheduler.runReady();
		this.scheduler.advance(Duration.ofHours(1));
		// the serving generation, then the standby's whole budget, then nothing
		assertThat(this.connector.spawns()).isEqualTo(1 + ATTEMPTS);
		McpStandbyStatus standby = this.supervisor.status().standby();
		assertThat(standby.state()).isEqualTo(McpStandbyState.FAILED);
		assertThat(standby.lastError()).contains("scripted FAIL").contains("gave up after 4 spare attempts");
		assertThat(standby.nextAttemptAt()).isNull();
		this.scheduler.advance(Duration.ofDays(1));
		assertThat(this.connector.spawns()).isEqualTo(1 + ATTEMPTS);
		assertThat(this.supervisor.state()).isEqualTo(McpServerState.UP);
		assertThat(call()).isEqualTo("echo from g1");
		// a reset keeps spares again
		this.connector.always(Outcome.CONNECT);
		this.supervisor.reset();
		this.scheduler.runReady();
		assertThat(this.supervisor.status().standby().state()).isEqualTo(McpStandbyState.READY);
	}

	@Test
	void aMisconfiguredSpareIsNotRetried() {
		this.connector.then(Outcome.CONNECT, Outcome.MISCONFIGURED);
		this.supervisor.start();
		this.scheduler.runReady();
		this.scheduler.advance(Duration.ofHours(1));
		assertThat(this.connector.spawns()).isEqualTo(2);
		assertThat(this.supervisor.status().standby().state()).isEqualTo(McpStandbyState.FAILED);
	}

	@Test
	void theStandbyBudgetResetsOnlyWhenASpareStaysReadyForTheStabilityWindow() {
		startWithReadySpare();
		this.connector.connections.get(1).crash(137);
		this.scheduler.runReady();
		this.scheduler.advance(INITIAL.multipliedBy(2));
		assertThat(this.supervisor.status().standby().attemptsUsed()).isEqualTo(2);
		this.scheduler.advance(MAX.minusMillis(1));
		assertThat(this.supervisor.status().standby().attemptsUsed()).isEqualTo(2);
		this.scheduler.advance(Duration.ofMillis(1));
		assertThat(this.supervisor.status().standby().attemptsUsed()).isZero();
	}

	@Test
	void aSpareStillStartingWhenTheServingGenerationIsLostBecomesTheReconnectionsAttempt() {
		FakeConnection[] first = new FakeConnection[1];
		this.connector.duringOpen = () -> {
			// generation 1 opens first: arm the hook for the spare's open
			first[0] = this.connector.last();
			this.connector.duringOpen = () -> {
				first[0].crash(137);
				this.scheduler.runReady();
			};
		};
		this.supervisor.start();
		this.scheduler.runReady();
		assertThat(this.changes).extracting(McpServerStateChange::to)
			.containsExactly(McpServerState.STARTING, McpServerState.UP, McpServerState.RECONNECTING,
					McpServerState.UP);
		assertThat(this.supervisor.status().generation()).isEqualTo(2);
		assertThat(call()).isEqualTo("echo from g2");
		assertThat(first[0].terminated).isTrue();
		// no attempt besides the spare's, and a new spare stands by
		assertThat(this.connector.spawns()).isEqualTo(3);
		assertThat(this.supervisor.status().standby().state()).isEqualTo(McpStandbyState.READY);
		assertThat(this.connector.maxAlive).isEqualTo(2);
	}

	@Test
	void aRestartPromotesAReadySpare() {
		startWithReadySpare();
		this.supervisor.restart();
		this.scheduler.runReady();
		assertThat(this.supervisor.state()).isEqualTo(McpServerState.UP);
		assertThat(this.changes).extracting(McpServerStateChange::to)
			.containsExactly(McpServerState.STARTING, McpServerState.UP);
		assertThat(this.supervisor.status().generation()).isEqualTo(2);
		assertThat(this.connector.connections.get(0).terminated).isTrue();
		this.scheduler.advance(INITIAL);
		assertThat(this.supervisor.status().standby().generation()).isEqualTo(3);
	}

	@Test
	void stopEndsTheServingGenerationAndTheSpareQuiescently() {
		startWithReadySpare();
		CompletableFuture<Void> stopped = this.supervisor.stop();
		this.scheduler.runReady();
		assertThat(stopped).isCompleted();
		assertThat(this.connector.alive).isZero();
		assertThat(this.connector.connections).allMatch((connection) -> connection.terminated);
		assertThat(this.scheduler.pendingTimers()).isZero();
		this.scheduler.advance(Duration.ofHours(1));
		assertThat(this.connector.spawns()).isEqualTo(2);
		assertThat(this.supervisor.status().standby().state()).isEqualTo(McpStandbyState.WAITING);
	}

	@Test
	void stopEndsASpareThatIsStillStarting() {
		this.connector.duringOpen = () -> this.connector.duringOpen = this.supervisor::stop;
		this.supervisor.start();
		this.scheduler.runReady();
		assertThat(this.supervisor.state()).isEqualTo(McpServerState.STOPPED);
		assertThat(this.supervisor.quiescence()).isCompleted();
		assertThat(this.connector.spawns()).isEqualTo(2);
		assertThat(this.connector.alive).isZero();
		assertThat(this.scheduler.pendingTimers()).isZero();
	}

	@Test
	void aSpareBackingOffIsForgottenWhileTheServerIsDownAndStartedOnceItIsUp() {
		startWithReadySpare();
		this.connector.connections.get(1).crash(137);
		this.scheduler.runReady();
		assertThat(this.supervisor.status().standby().state()).isEqualTo(McpStandbyState.BACKING_OFF);
		this.connector.connections.get(0).crash(137);
		this.scheduler.runReady();
		assertThat(this.supervisor.state()).isEqualTo(McpServerState.RECONNECTING);
		assertThat(this.supervisor.status().standby().state()).isEqualTo(McpStandbyState.WAITING);
		this.scheduler.advance(Duration.ofSeconds(5));
		assertThat(this.supervisor.state()).isEqualTo(McpServerState.UP);
		assertThat(this.supervisor.status().standby().state()).isEqualTo(McpStandbyState.READY);
		assertThat(this.connector.maxAlive).isEqualTo(2);
	}

	@Test
	void withoutReconnectNoSpareIsKept() {
		McpServerSupervisor supervisor = McpServerSupervisor.builder("demo", this.connector, this.scheduler)
			.reconnect(ReconnectPolicy.builder().enabled(false).build())
			.healthCheck(HealthCheckPolicy.disabled(Duration.ofSeconds(5)))
			.standby(true)
			.build();
		assertKeepsNoSpare(supervisor);
	}

	@Test
	void aRetiredTreeNotConfirmedGoneIsEndedBeforeTheNextOutagesAttempt() {
		startWithReadySpare();
		FakeConnection first = this.connector.generation(1);
		this.connector.terminationConfirmed = false;
		this.supervisor.restart();
		this.scheduler.runReady();
		assertThat(this.supervisor.state()).isEqualTo(McpServerState.UP);
		assertThat(first.processAlive).as("the restarted generation's tree, not confirmed gone").isTrue();
		this.connector.terminationConfirmed = true;
		List<Boolean> firstAliveAtTheNextOpen = new ArrayList<>();
		this.connector.duringOpen = () -> firstAliveAtTheNextOpen.add(first.processAlive);
		liveConnection().crash(1);
		this.scheduler.runReady();
		this.scheduler.advance(MAX);
		assertThat(this.supervisor.state()).isEqualTo(McpServerState.UP);
		assertThat(firstAliveAtTheNextOpen).as("the old tree at the next attempt").containsExactly(false);
	}

	@Test
	void aCooldownThatEndsOnATreeNotConfirmedGoneTriesItAgainAndNoLongerSaysWhenTheServerTriesAgain() {
		McpServerSupervisor supervisor = McpServerSupervisor.builder("demo", this.connector, this.scheduler)
			.reconnect(ReconnectPolicy.builder()
				.initialDelay(INITIAL)
				.maxDelay(MAX)
				.maxAttempts(ATTEMPTS)
				.jitter(0)
				.cooldown(ReconnectPolicy.Cooldown.of(Duration.ofMinutes(5), Duration.ofMinutes(5)))
				.build())
			.healthCheck(HealthCheckPolicy.disabled(Duration.ofSeconds(5)))
			.standby(true)
			.toolsWhenDown(ToolsWhenDown.KEEP)
			.build();
		supervisor.start();
		this.scheduler.runReady();
		// the outage runs into its cooldown while the restarted generation's tree is
		// being terminated, by a termination that cannot confirm it gone
		this.connector.duringTermination = () -> {
			this.connector.always(Outcome.FAIL);
			this.connector.generation(2).crash(1);
			this.scheduler.runReady();
			this.scheduler.advance(Duration.ofMinutes(1));
			this.connector.terminationConfirmed = false;
		};
		supervisor.restart();
		this.scheduler.runReady();
		assertThat(supervisor.state()).isEqualTo(McpServerState.FAILED);
		assertThat(supervisor.status().nextAttemptAt()).isNotNull();
		int spawns = this.connector.spawns();
		this.scheduler.advance(Duration.ofMinutes(5));
		assertThat(supervisor.state()).isEqualTo(McpServerState.FAILED);
		assertThat(this.connector.spawns()).as("nothing launched beside the old tree").isEqualTo(spawns);
		assertThat(supervisor.status().nextAttemptAt()).isNull();
		assertThat(supervisor.tools().unavailable().description()).doesNotContain("tries again")
			.contains("until an operator resets it");
		this.connector.terminationConfirmed = true;
		this.connector.always(Outcome.CONNECT);
		supervisor.reset();
		this.scheduler.runReady();
		assertThat(supervisor.state()).isEqualTo(McpServerState.UP);
		supervisor.stop();
		this.scheduler.runReady();
		assertThat(this.connector.alive).isZero();
	}

	@Test
	void aServerWithoutStandbyShowsNone() {
		McpServerSupervisor supervisor = supervisor(false);
		assertKeepsNoSpare(supervisor);
	}

	private void assertKeepsNoSpare(McpServerSupervisor supervisor) {
		supervisor.start();
		this.scheduler.runReady();
		assertThat(this.connector.spawns()).isEqualTo(1);
		assertThat(supervisor.status().standby()).isNull();
		supervisor.stop();
		this.scheduler.runReady();
	}

	private void startWithReadySpare() {
		this.supervisor.start();
		this.scheduler.runReady();
		assertThat(this.supervisor.state()).isEqualTo(McpServerState.UP);
		McpStandbyStatus standby = this.supervisor.status().standby();
		assertThat(standby.state()).isEqualTo(McpStandbyState.READY);
		assertThat(standby.generation()).isEqualTo(2);
		assertThat(this.supervisor.status().generation()).isEqualTo(1);
	}

	private FakeConnection liveConnection() {
		int generation = this.supervisor.status().generation();
		return this.connector.connections.stream()
			.filter((connection) -> connection.generation == generation)
			.findFirst()
			.orElseThrow();
	}

	private String call() {
		CallToolResult result = this.supervisor.callTool(CallToolRequest.builder("echo").arguments(Map.of()).build());
		return ((TextContent) result.content().get(0)).text();
	}

	private McpServerSupervisor supervisor(boolean standby) {
		return McpServerSupervisor.builder("demo", this.connector, this.scheduler)
			.reconnect(ReconnectPolicy.builder()
				.initialDelay(INITIAL)
				.maxDelay(MAX)
				.maxAttempts(ATTEMPTS)
				.jitter(0)
				.build())
			.calls(CallPolicy.builder().waitForRecovery(Duration.ofSeconds(10)).build())
			.healthCheck(HealthCheckPolicy.disabled(Duration.ofSeconds(5)))
			.standby(standby)
			.listener(new SupervisorListener() {

				@Override
				public void stateChanged(McpServerStateChange change) {
					McpServerSupervisorStandbyTests.this.changes.add(change);
				}

				@Override
				public void toolsChanged(String server, ToolSet tools) {
					McpServerSupervisorStandbyTests.this.swaps.add(tools);
				}

				@Override
				public void promoted(String server, int generation, int replaced) {
					McpServerSupervisorStandbyTests.this.promotions.add("g" + generation + " in place of g" + replaced);
				}

			})
			.build();
	}

}
