package io.github.mcpsupervisor.supervisor;

import java.io.IOException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import io.github.mcpsupervisor.supervisor.FakeConnector.FakeConnection;
import io.github.mcpsupervisor.supervisor.FakeConnector.Outcome;
import io.github.mcpsupervisor.supervisor.McpServerStatus.ExitStatus;
import io.github.mcpsupervisor.supervisor.SupervisorListener.RestartCause;
import io.github.mcpsupervisor.testsupport.CapturedOutput;
import io.github.mcpsupervisor.testsupport.OutputCaptureExtension;
import io.modelcontextprotocol.spec.McpSchema.CallToolRequest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.test.util.ReflectionTestUtils;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

/**
 * The supervisor's state machine and its invariants, on virtual time.
 */
class McpServerSupervisorTests {

	private static final Duration INITIAL = Duration.ofMillis(500);

	private static final Duration MAX = Duration.ofSeconds(30);

	private final VirtualScheduler scheduler = new VirtualScheduler();

	private final FakeConnector connector = new FakeConnector();

	private final List<McpServerStateChange> changes = new ArrayList<>();

	private final List<ToolSet> swaps = new ArrayList<>();

	private final List<String> attempts = new ArrayList<>();

	private final List<Duration> recoveries = new ArrayList<>();

	private final List<RestartCause> restarts = new ArrayList<>();

	private final List<Integer> recoveryAttempts = new ArrayList<>();

	private McpServerSupervisor supervisor = supervisor(
			ReconnectPolicy.builder().initialDelay(INITIAL).maxDelay(MAX).maxAttempts(4).jitter(0).build());

	@Test
	void startConnectsAndRegistersTheTools() {
		var outcome = this.supervisor.start();
		this.scheduler.runReady();
		assertThat(outcome).isCompleted();
		assertThat(this.supervisor.state()).isEqualTo(McpServerState.UP);
		assertThat(this.supervisor.tools().names()).containsExactly("echo", "add");
		assertThat(this.supervisor.status().pid()).isEqualTo(1001L);
		assertThat(this.changes).extracting(McpServerStateChange::to)
			.containsExactly(McpServerState.STARTING, McpServerState.UP);
	}

	@Test
	void aListenerThatFailsCostsTheOthersNothing() {
		List<McpServerStateChange> seen = new ArrayList<>();
		SupervisorListener failing = new SupervisorListener() {

			@Override
			public void stateChanged(McpServerStateChange change) {
				throw new IllegalStateException("a handler's bug");
			}

		};
		SupervisorListener recording = new SupervisorListener() {

			@Override
			public void stateChanged(McpServerStateChange change) {
				seen.add(change);
			}

		};
		McpServerSupervisor supervisor = McpServerSupervisor.builder("demo", this.connector, this.scheduler)
			.listener(SupervisorListener.composite(List.of(failing, recording)))
			.build();
		supervisor.start();
		this.scheduler.runReady();
		assertThat(supervisor.state()).isEqualTo(McpServerState.UP);
		assertThat(seen).extracting(McpServerStateChange::to)
			.containsExactly(McpServerState.STARTING, McpServerState.UP);
	}

	@Test
	void listenersRunOutsideTheStateLock() {
		// a listener that needs the supervisor from another thread deadlocks if it is
		// called under the lock
		List<McpServerStatus> seen = new ArrayList<>();
		this.supervisor = McpServerSupervisor.builder("demo", this.connector, this.scheduler)
			.listener(new SupervisorListener() {

				@Override
				public void stateChanged(McpServerStateChange change) {
					seen.add(CompletableFuture.supplyAsync(() -> McpServerSupervisorTests.this.supervisor.status())
						.orTimeout(5, TimeUnit.SECONDS)
						.join());
				}

			})
			.build();
		this.supervisor.start();
		this.scheduler.runReady();
		this.connector.last().crash(1);
		this.scheduler.runReady();
		assertThat(seen).extracting(McpServerStatus::state)
			.containsExactly(McpServerState.STARTING, McpServerState.UP, McpServerState.RECONNECTING);
	}

	@Test
	void lossIsSeenAtOnceAndTheNextAttemptFollowsTheInitialDelay() {
		startStable();
		this.connector.last().crash(137);
		this.scheduler.runReady();
		assertThat(this.supervisor.state()).isEqualTo(McpServerState.RECONNECTING);
		assertThat(this.supervisor.status().lastExit()).isEqualTo(new ExitStatus(137, "boom"));
		assertThat(this.supervisor.status().lastError()).contains("connection lost").contains("SIGKILL");
		this.scheduler.advance(INITIAL.minusMillis(1));
		assertThat(this.connector.spawns()).isEqualTo(1);
		this.scheduler.advance(Duration.ofMillis(1));
		assertThat(this.connector.spawns()).isEqualTo(2);
		assertThat(this.supervisor.state()).isEqualTo(McpServerState.UP);
		assertThat(this.supervisor.tools().generation()).isEqualTo(2);
		assertThat(this.supervisor.tools().names()).containsExactly("echo", "add");
	}

	@Test
	void listenersAreToldEachBackoffDelayAsItIsApplied() {
		List<String> scheduled = new ArrayList<>();
		McpServerSupervisor supervisor = McpServerSupervisor.builder("demo", this.connector, this.scheduler)
			.reconnect(ReconnectPolicy.builder().initialDelay(INITIAL).maxDelay(MAX).maxAttempts(4).jitter(0).build())
			.healthCheck(HealthCheckPolicy.disabled(Duration.ofSeconds(5)))
			.listener(new SupervisorListener() {

				@Override
				public void retryScheduled(String server, int attempt, Duration delay) {
					scheduled.add(server + " " + attempt + " " + delay.toMillis());
				}

			})
			.build();
		this.connector.then(Outcome.CONNECT, Outcome.FAIL);
		supervisor.start();
		this.scheduler.runReady();
		this.connector.last().crash(137);
		this.scheduler.runReady();
		this.scheduler.advance(Duration.ofSeconds(10));
		// a crash soon after the start: the start took the first slot, so the delays
		// are the second and the third
		assertThat(scheduled).containsExactly("demo 2 1000", "demo 3 2000");
		supervisor.stop();
		this.scheduler.runReady();
	}

	@Test
	void delayBeforeAttemptNDoublesFromTheInitialDelayUpToTheMaxDelay() {
		this.supervisor = supervisor(ReconnectPolicy.builder()
			.initialDelay(INITIAL)
			.maxDelay(Duration.ofSeconds(3))
			.maxAttempts(7)
			.jitter(0)
			.build());
		startStable();
		this.connector.always(Outcome.FAIL);
		this.connector.last().crash(1);
		List<Long> delays = new ArrayList<>();
		Instant previous = this.scheduler.now();
		for (int attempt = 1; attempt <= 7; attempt++) {
			this.scheduler.runReady();
			Duration delay = this.scheduler.untilNextTask();
			this.scheduler.advance(delay);
			delays.add(Duration.between(previous, this.scheduler.now()).toMillis());
			previous = this.scheduler.now();
		}
		assertThat(delays).containsExactly(500L, 1000L, 2000L, 3000L, 3000L, 3000L, 3000L);
	}

	@Test
	void jitterKeepsEachDelayWithinItsFraction() {
		ReconnectPolicy policy = ReconnectPolicy.builder()
			.initialDelay(Duration.ofSeconds(1))
			.maxDelay(Duration.ofSeconds(30))
			.maxAttempts(5)
			.jitter(0.2)
			.build();
		for (int run = 0; run < 50; run++) {
			OutageBudget budget = new OutageBudget(policy);
			assertThat(budget.takeNext()).isBetween(Duration.ofMillis(1000), Duration.ofMillis(1200));
			assertThat(budget.takeNext()).isBetween(Duration.ofMillis(1600), Duration.ofMillis(2400));
			assertThat(budget.takeNext()).isBetween(Duration.ofMillis(3200), Duration.ofMillis(4800));
		}
	}

	@Test
	void crashLoopWhoseConnectsBrieflySucceedStillExhaustsTheBudget() {
		startStable();
		for (int i = 0; i < 4; i++) {
			this.connector.last().crash(1);
			this.scheduler.runReady();
			this.scheduler.advance(this.scheduler.untilNextTask());
			assertThat(this.supervisor.state()).isEqualTo(McpServerState.UP);
			this.scheduler.advance(MAX.minusSeconds(1));
		}
		this.connector.last().crash(1);
		this.scheduler.runReady();
		assertThat(this.supervisor.state()).isEqualTo(McpServerState.FAILED);
		assertThat(this.supervisor.tools()).isEqualTo(ToolSet.EMPTY);
		assertThat(this.swaps.get(this.swaps.size() - 1)).isEqualTo(ToolSet.EMPTY);
		assertThat(this.supervisor.status().lastError()).contains("gave up after 4 attempts");
		assertThat(this.connector.spawns()).isEqualTo(1 + 4);
		assertThat(this.scheduler.pendingTimers()).isZero();
		this.scheduler.advance(Duration.ofHours(1));
		assertThat(this.connector.spawns()).isEqualTo(5);
	}

	@Test
	void sustainedUptimeResetsTheBudget() {
		startStable();
		this.connector.last().crash(1);
		this.scheduler.runReady();
		this.scheduler.advance(INITIAL);
		assertThat(this.supervisor.status().attemptsUsed()).isEqualTo(1);
		this.scheduler.advance(MAX);
		assertThat(this.supervisor.status().attemptsUsed()).isZero();
		this.connector.last().crash(1);
		this.scheduler.runReady();
		assertThat(this.scheduler.untilNextTask()).isEqualTo(INITIAL);
	}

	@Test
	void uptimeShorterThanTheStabilityWindowKeepsCountingTheOutage() {
		startStable();
		this.connector.last().crash(1);
		this.scheduler.runReady();
		this.scheduler.advance(INITIAL);
		this.scheduler.advance(MAX.minusMillis(1));
		this.connector.last().crash(1);
		this.scheduler.runReady();
		assertThat(this.supervisor.status().attemptsUsed()).isEqualTo(2);
		assertThat(this.scheduler.untilNextTask()).isEqualTo(INITIAL.multipliedBy(2));
	}

	@Test
	void startupFailuresAreRetriedWithinTheBudgetThenFail() {
		this.connector.always(Outcome.FAIL);
		var outcome = this.supervisor.start();
		this.scheduler.runReady();
		assertThat(outcome).isCompleted();
		assertThat(outcome.join().state()).isEqualTo(McpServerState.RECONNECTING);
		this.scheduler.advance(Duration.ofMinutes(5));
		assertThat(this.connector.spawns()).isEqualTo(4);
		assertThat(this.supervisor.state()).isEqualTo(McpServerState.FAILED);
		assertThat(this.connector.maxAlive).isEqualTo(1);
	}

	@Test
	void configurationErrorFailsAtOnceWithoutRetrying() {
		this.connector.always(Outcome.MISCONFIGURED);
		this.supervisor.start();
		this.scheduler.advance(Duration.ofMinutes(5));
		assertThat(this.connector.spawns()).isEqualTo(1);
		assertThat(this.supervisor.state()).isEqualTo(McpServerState.FAILED);
		assertThat(this.supervisor.status().lastError()).startsWith("configuration error: scripted MISCONFIGURED");
		assertThat(this.scheduler.pendingTimers()).isZero();
	}

	@Test
	void aServerThatNeedsAnAuthorizationWaitsForItWithoutAttemptsOrGivingUp() {
		this.connector.always(Outcome.UNAUTHORIZED);
		this.supervisor.start();
		this.scheduler.advance(Duration.ofHours(1));
		assertThat(this.connector.spawns()).as("attempts while nobody authorizes").isEqualTo(1);
		assertThat(this.supervisor.state()).isEqualTo(McpServerState.NEEDS_AUTHORIZATION);
		assertThat(this.supervisor.status().lastError()).startsWith("needs authorization: scripted UNAUTHORIZED");
		assertThat(this.scheduler.pendingTimers()).isZero();
		this.connector.always(Outcome.CONNECT);
		this.connector.authorize();
		this.scheduler.runReady();
		assertThat(this.supervisor.state()).isEqualTo(McpServerState.UP);
		assertThat(this.connector.spawns()).isEqualTo(2);
	}

	@Test
	void anAuthorizationThatArrivesWhileUpOrStoppedChangesNothing() {
		this.supervisor.start();
		this.scheduler.runReady();
		this.connector.authorize();
		this.scheduler.runReady();
		assertThat(this.supervisor.state()).isEqualTo(McpServerState.UP);
		this.supervisor.stop();
		this.scheduler.runReady();
		this.connector.authorize();
		this.scheduler.advance(Duration.ofMinutes(5));
		assertThat(this.supervisor.state()).isEqualTo(McpServerState.STOPPED);
		assertThat(this.connector.spawns()).isEqualTo(1);
	}

	@Test
	void aServerThatNeedsAnAuthorizationAfterASpentBudgetIsNotFailedByIt() {
		this.connector.then(Outcome.FAIL, Outcome.FAIL, Outcome.FAIL).always(Outcome.UNAUTHORIZED);
		this.supervisor.start();
		this.scheduler.advance(Duration.ofHours(1));
		assertThat(this.supervisor.status().attemptsUsed()).isEqualTo(4);
		assertThat(this.supervisor.state())
			.as("state after %s attempts of %s", this.connector.spawns(), this.supervisor.status().maxAttempts())
			.isEqualTo(McpServerState.NEEDS_AUTHORIZATION);
		this.connector.always(Outcome.CONNECT);
		this.connector.authorize();
		this.scheduler.runReady();
		assertThat(this.supervisor.state()).isEqualTo(McpServerState.UP);
	}

	@Test
	void anOpenThatMeetsAnIncompatibleLibraryFailsAtOnceAndEndsItsProcess() {
		this.connector.always(Outcome.INCOMPATIBLE);
		this.supervisor.start();
		this.scheduler.advance(Duration.ofMinutes(5));
		assertThat(this.connector.spawns()).isEqualTo(1);
		assertThat(this.supervisor.state()).isEqualTo(McpServerState.FAILED);
		assertThat(this.supervisor.status().lastError()).startsWith("configuration error: a library on the class path")
			.contains("NoSuchMethodError");
		assertThat(this.connector.alive).as("the process the open left behind").isZero();
		assertThat(this.scheduler.pendingTimers()).isZero();
	}

	@Test
	void anOpenThatThrowsAnErrorOrAnUndeclaredCheckedExceptionIsAFailedAttemptOfTheBudget() {
		this.connector.then(Outcome.ERROR, Outcome.UNDECLARED);
		this.supervisor.start();
		this.scheduler.runReady();
		assertThat(this.supervisor.state()).isEqualTo(McpServerState.RECONNECTING);
		assertThat(this.supervisor.status().attemptsUsed()).isEqualTo(2);
		assertThat(this.supervisor.status().lastError()).contains("ServiceConfigurationError: scripted ERROR");
		assertThat(this.connector.alive).as("the process the open left behind").isZero();
		this.scheduler.advance(INITIAL.multipliedBy(2));
		assertThat(this.supervisor.status().lastError()).contains("IOException: scripted UNDECLARED");
		this.scheduler.advance(INITIAL.multipliedBy(4));
		assertThat(this.attempts).containsExactly("g1 failed", "g2 failed", "g3 connected");
		assertThat(this.supervisor.state()).isEqualTo(McpServerState.UP);
		assertThat(this.connector.maxAlive).isEqualTo(1);
	}

	@Test
	void aConnectorThatThrowsAnUndeclaredCheckedExceptionCountsAsAFailedAttempt() {
		this.connector.creationThrows = new IOException("scripted creation failure");
		this.supervisor.start();
		this.scheduler.runReady();
		assertThat(this.supervisor.state()).isEqualTo(McpServerState.RECONNECTING);
		assertThat(this.supervisor.status().lastError()).contains("IOException: scripted creation failure");
		this.scheduler.advance(INITIAL.multipliedBy(2));
		assertThat(this.supervisor.state()).isEqualTo(McpServerState.UP);
	}

	@Test
	void anOpenThatThrowsAVirtualMachineErrorIsAFailedAttemptAndTheErrorGoesOn() {
		this.connector.then(Outcome.FATAL);
		this.supervisor.start();
		assertThatExceptionOfType(StackOverflowError.class).isThrownBy(this.scheduler::runReady)
			.withMessage("scripted FATAL");
		assertThat(this.supervisor.state()).isEqualTo(McpServerState.RECONNECTING);
		assertThat(this.attempts).containsExactly("g1 failed");
		assertThat(this.connector.alive).as("the process the open left behind").isZero();
		this.scheduler.advance(INITIAL.multipliedBy(2));
		assertThat(this.supervisor.state()).isEqualTo(McpServerState.UP);
	}

	@Test
	void theNextAttemptStartsOnlyAfterThePreviousTreeIsConfirmedGone() {
		startStable();
		for (int i = 0; i < 3; i++) {
			this.connector.last().crash(1);
			this.scheduler.runReady();
			this.scheduler.advance(this.scheduler.untilNextTask());
		}
		assertThat(this.connector.maxAlive).isEqualTo(1);
		assertThat(this.connector.events).containsExactly("open g1", "crash g1", "terminate g1", "open g2", "crash g2",
				"terminate g2", "open g3", "crash g3", "terminate g3", "open g4");
	}

	@Test
	void aStartWhileAStopStillClosesTheLiveGenerationWaitsForItsTree() {
		startStable();
		// the stop has left its step and closes the client on the caller's thread
		this.connector.duringClose = this.supervisor::start;
		this.supervisor.stop();
		this.scheduler.runReady();
		assertThat(this.connector.events).containsExactly("open g1", "terminate g1", "open g2");
		assertThat(this.connector.maxAlive).isEqualTo(1);
		assertThat(this.supervisor.state()).isEqualTo(McpServerState.UP);
	}

	@Test
	void aStopAndStartWhileARestartStillClosesTheRetiredGenerationWaitForItsTree() {
		startStable();
		this.connector.duringClose = () -> {
			this.supervisor.stop();
			this.supervisor.start();
		};
		this.supervisor.restart();
		this.scheduler.runReady();
		assertThat(this.connector.events).containsExactly("open g1", "terminate g1", "open g2");
		assertThat(this.connector.maxAlive).isEqualTo(1);
		assertThat(this.supervisor.state()).isEqualTo(McpServerState.UP);
	}

	@Test
	void aFailingCloseOfTheSdkClientNeverStopsTheReconnect() {
		startStable();
		this.connector.closeFails = true;
		this.connector.last().crash(137);
		this.scheduler.runReady();
		this.scheduler.advance(INITIAL);
		assertThat(this.supervisor.state()).isEqualTo(McpServerState.UP);
		assertThat(this.connector.spawns()).isEqualTo(2);
		assertThat(this.connector.maxAlive).isEqualTo(1);
	}

	@Test
	void aTreeThatCannotBeConfirmedGoneStopsReconnecting() {
		startUp();
		this.connector.terminationConfirmed = false;
		this.connector.last().crash(1);
		this.scheduler.advance(Duration.ofMinutes(5));
		assertThat(this.supervisor.state()).isEqualTo(McpServerState.FAILED);
		assertThat(this.supervisor.status().lastError()).contains("could not be confirmed gone");
		assertThat(this.connector.spawns()).isEqualTo(1);
	}

	@Test
	void staleGenerationsAreInert() {
		startStable();
		FakeConnection first = this.connector.last();
		first.crash(1);
		this.scheduler.runReady();
		this.scheduler.advance(INITIAL);
		FakeConnection second = this.connector.last();
		int swapsBefore = this.swaps.size();
		first.toolsChanged.run();
		first.lost.obtrudeValue(new ExitStatus(9, "late"));
		first.crash(2);
		this.scheduler.advance(Duration.ofMinutes(1));
		assertThat(this.supervisor.state()).isEqualTo(McpServerState.UP);
		assertThat(this.supervisor.tools().generation()).isEqualTo(second.generation);
		assertThat(this.swaps).hasSize(swapsBefore);
		assertThat(this.connector.listings).isZero();
		assertThat(this.connector.spawns()).isEqualTo(2);
	}

	@Test
	void nothingReachableFromACallHoldsAClosedClient() {
		startStable();
		this.connector.last().crash(137);
		this.scheduler.runReady();
		assertThatExceptionOfType(McpServerUnavailableException.class)
			.isThrownBy(() -> this.supervisor.callTool(call("echo")))
			.withMessageContaining("MCP server 'demo' is reconnecting (attempt 1/4")
			.withMessageContaining("tool 'echo' is unavailable");
		assertThat(this.connector.callsOnClosedClients).isZero();
		this.scheduler.advance(INITIAL);
		assertThat(this.supervisor.callTool(call("echo")).content().toString()).contains("echo from g2");
	}

	@Test
	void aCallInFlightWhenItsGenerationDiesFailsFastNamingTheServer() {
		startUp();
		FakeConnection connection = this.connector.last();
		connection.onCall = (request) -> {
			connection.crash(137);
			throw new IllegalStateException("MCP session with server terminated");
		};
		assertThatExceptionOfType(McpServerUnavailableException.class)
			.isThrownBy(() -> this.supervisor.callTool(call("echo")))
			.withMessageContaining("MCP server 'demo' crashed during the call to tool 'echo'")
			.withMessageContaining("exit code 137 (signal 9, SIGKILL)")
			.withMessageContaining("may or may not have taken effect")
			.withMessageContaining("not retry-eligible")
			.withMessageContaining("Reconnecting");
	}

	@Test
	void aFailedReListingIsRetriedWithBackoffUntilItSucceeds() {
		startUp();
		this.connector.serverTools = List.of(FakeConnector.tool("echo"), FakeConnector.tool("late"));
		this.connector.failingListings = 3;
		this.connector.last().toolsChanged.run();
		this.scheduler.runReady();
		assertThat(this.connector.listings).isOne();
		this.scheduler.advance(Duration.ofSeconds(1));
		assertThat(this.connector.listings).as("retried after 1 s").isEqualTo(2);
		this.scheduler.advance(Duration.ofSeconds(2));
		assertThat(this.connector.listings).as("then after 2 s more").isEqualTo(3);
		this.scheduler.advance(Duration.ofSeconds(4));
		assertThat(this.connector.listings).isEqualTo(4);
		assertThat(this.supervisor.tools().names()).containsExactly("echo", "late");
		this.scheduler.advance(Duration.ofMinutes(10));
		assertThat(this.connector.listings).as("nothing more once it succeeded").isEqualTo(4);
	}

	@Test
	void aFailedReListingIsNotRetriedOnceItsGenerationEnded() {
		startUp();
		this.connector.failingListings = 100;
		this.connector.last().toolsChanged.run();
		this.scheduler.runReady();
		this.connector.last().crash(1);
		this.scheduler.advance(Duration.ofMinutes(10));
		assertThat(this.connector.listings).isOne();
	}

	@Test
	@ExtendWith(OutputCaptureExtension.class)
	void aReListingCutShortByTheEndOfItsGenerationIsNotSaidToBeRetried(CapturedOutput output) {
		startUp();
		FakeConnection live = this.connector.last();
		this.connector.failingListings = 1;
		this.connector.duringListing = () -> {
			live.crash(1);
			this.scheduler.runReady(); // the loss is handled while the listing runs
		};
		live.toolsChanged.run();
		this.scheduler.runReady();
		assertThat(this.connector.listings).isOne();
		assertThat(output).doesNotContain("retried later");
	}

	@Test
	void aToolTheLiveGenerationNoLongerOffersFailsClearly() {
		startUp();
		this.connector.serverTools = List.of(FakeConnector.tool("echo"));
		this.connector.last().toolsChanged.run();
		this.scheduler.runReady();
		assertThatExceptionOfType(McpServerUnavailableException.class)
			.isThrownBy(() -> this.supervisor.callTool(call("add")))
			.withMessage("MCP server 'demo' no longer offers tool 'add' (it offers [echo])");
	}

	@Test
	void toolChangeNotificationsAreSerializedAndCoalesced() {
		startUp();
		FakeConnection live = this.connector.last();
		this.connector.serverTools = List.of(FakeConnector.tool("one"));
		live.toolsChanged.run();
		live.toolsChanged.run();
		live.toolsChanged.run();
		this.connector.serverTools = List.of(FakeConnector.tool("two"));
		this.scheduler.runReady();
		assertThat(this.connector.listings).isEqualTo(1);
		assertThat(this.supervisor.tools().names()).containsExactly("two");
		live.toolsChanged.run();
		this.scheduler.advance(ToolSync.PAUSE);
		assertThat(this.connector.listings).isEqualTo(2);
	}

	@Test
	void aFloodOfToolChangeNotificationsCostsOneListingPerPause() {
		startUp();
		FakeConnection live = this.connector.last();
		for (int i = 0; i < 1000; i++) {
			this.connector.serverTools = List.of(FakeConnector.tool("t" + i));
			live.toolsChanged.run();
			this.scheduler.advance(Duration.ofMillis(1));
		}
		this.scheduler.advance(Duration.ofSeconds(1));
		assertThat(this.connector.listings).as("listings for a notification every ms for 1 s")
			.isLessThanOrEqualTo(1000 / 100 + 1);
		assertThat(this.supervisor.tools().names()).as("the last change is seen").containsExactly("t999");
	}

	@Test
	void aListingThatFindsTheToolsUnchangedSwapsNothing() {
		startUp();
		int swapsBefore = this.swaps.size();
		this.connector.last().toolsChanged.run();
		this.scheduler.advance(Duration.ofSeconds(1));
		assertThat(this.connector.listings).isOne();
		assertThat(this.swaps).hasSize(swapsBefore);
	}

	@Test
	void theListingPauseEndsWithItsGeneration() {
		startUp();
		this.connector.last().toolsChanged.run();
		this.scheduler.runReady();
		assertThat(this.scheduler.pendingTimers()).isPositive();
		this.supervisor.stop();
		this.scheduler.runReady();
		assertThat(this.scheduler.pendingTimers()).isZero();
	}

	@Test
	void everySwapReplacesTheWholeToolSetOfAGeneration() {
		startStable();
		this.connector.serverTools = List.of(FakeConnector.tool("three"));
		this.connector.last().crash(1);
		this.scheduler.runReady();
		assertThat(this.supervisor.tools().names()).as("kept during the outage").containsExactly("echo", "add");
		this.scheduler.advance(INITIAL);
		assertThat(this.swaps).extracting(ToolSet::generation).containsExactly(1, 2);
		assertThat(this.supervisor.tools().names()).containsExactly("three");
	}

	@Test
	void withReconnectDisabledALostServerKeepsItsToolsUntilReset() {
		this.supervisor = supervisor(ReconnectPolicy.builder()
			.enabled(false)
			.initialDelay(INITIAL)
			.maxDelay(MAX)
			.maxAttempts(4)
			.jitter(0)
			.build());
		startUp();
		this.connector.last().crash(3);
		this.scheduler.advance(Duration.ofHours(1));
		assertThat(this.supervisor.state()).isEqualTo(McpServerState.DISCONNECTED);
		assertThat(this.supervisor.tools().names()).containsExactly("echo", "add");
		assertThat(this.connector.spawns()).isEqualTo(1);
		assertThatExceptionOfType(McpServerUnavailableException.class)
			.isThrownBy(() -> this.supervisor.callTool(call("echo")))
			.withMessageContaining("reconnect is disabled");
		this.supervisor.reset();
		this.scheduler.runReady();
		assertThat(this.supervisor.state()).isEqualTo(McpServerState.UP);
		assertThat(this.connector.spawns()).isEqualTo(2);
	}

	@Test
	void resetOfAFailedServerClearsTheBudgetAndConnectsNow() {
		this.connector.always(Outcome.FAIL);
		this.supervisor.start();
		this.scheduler.advance(Duration.ofMinutes(5));
		assertThat(this.supervisor.state()).isEqualTo(McpServerState.FAILED);
		this.connector.always(Outcome.CONNECT);
		McpServerStatus afterReset = this.supervisor.reset();
		assertThat(afterReset.state()).isEqualTo(McpServerState.RECONNECTING);
		assertThat(afterReset.attemptsUsed()).isEqualTo(1);
		this.scheduler.runReady();
		assertThat(this.supervisor.state()).isEqualTo(McpServerState.UP);
		assertThat(this.supervisor.tools().names()).containsExactly("echo", "add");
	}

	@Test
	void resetDuringBackoffConnectsNowAndTheOldTimerIsInert() {
		startStable();
		this.connector.last().crash(1);
		this.scheduler.runReady();
		this.supervisor.reset();
		this.scheduler.runReady();
		assertThat(this.connector.spawns()).isEqualTo(2);
		assertThat(this.supervisor.state()).isEqualTo(McpServerState.UP);
		this.scheduler.advance(Duration.ofMinutes(1));
		assertThat(this.connector.spawns()).isEqualTo(2);
	}

	@Test
	void aLossWithinTheStabilityWindowOfTheStartWaitsTheSecondDelay() {
		// the start's attempt is attempt 1 of the budget: the first retry is attempt 2
		startUp();
		this.connector.last().crash(1);
		this.scheduler.runReady();
		this.scheduler.advance(INITIAL.multipliedBy(2).minusMillis(1));
		assertThat(this.connector.spawns()).isEqualTo(1);
		this.scheduler.advance(Duration.ofMillis(1));
		assertThat(this.connector.spawns()).isEqualTo(2);
		assertThat(this.supervisor.status().attemptsUsed()).isEqualTo(2);
	}

	@Test
	void resetOfAnUpServerOnlyClearsTheBudget() {
		startStable();
		this.connector.last().crash(1);
		this.scheduler.runReady();
		this.scheduler.advance(INITIAL);
		assertThat(this.supervisor.status().attemptsUsed()).isEqualTo(1);
		McpServerStatus status = this.supervisor.reset();
		assertThat(status.attemptsUsed()).isZero();
		assertThat(status.state()).isEqualTo(McpServerState.UP);
		assertThat(this.connector.spawns()).isEqualTo(2);
	}

	@Test
	void restartOfAnUpServerRetiresItsGenerationAndConnectsANewOneAfterTheTreeIsGone() {
		startUp();
		FakeConnection first = this.connector.last();
		McpServerStatus status = this.supervisor.restart();
		assertThat(status.state()).isEqualTo(McpServerState.RECONNECTING);
		assertThat(status.attemptsUsed()).isZero();
		this.scheduler.runReady();
		assertThat(first.clientClosed).isTrue();
		assertThat(this.supervisor.state()).isEqualTo(McpServerState.UP);
		assertThat(this.connector.events).containsExactly("open g1", "terminate g1", "open g2");
		assertThat(this.connector.maxAlive).isEqualTo(1);
		assertThat(this.restarts).containsExactly(RestartCause.RESTART);
		first.crash(143);
		this.scheduler.advance(Duration.ofMinutes(1));
		assertThat(this.connector.spawns()).as("the retired generation's exit is inert").isEqualTo(2);
	}

	@Test
	void concurrentRestartsAndResetsJoinIntoOneNewGeneration() {
		startUp();
		this.supervisor.restart();
		this.supervisor.restart();
		this.supervisor.reset();
		this.supervisor.restart();
		this.scheduler.runReady();
		assertThat(this.supervisor.state()).isEqualTo(McpServerState.UP);
		assertThat(this.connector.spawns()).isEqualTo(2);
		assertThat(this.connector.maxAlive).isEqualTo(1);
	}

	@Test
	void listenersHearAttemptsRecoveriesAndRestartCausesInOrder() {
		startStable();
		this.connector.then(Outcome.FAIL);
		this.connector.last().crash(1);
		this.scheduler.runReady();
		this.scheduler.advance(INITIAL);
		this.scheduler.advance(INITIAL.multipliedBy(2));
		assertThat(this.attempts).containsExactly("g1 connected", "g2 failed", "g3 connected");
		assertThat(this.recoveries).containsExactly(Duration.ofMillis(1500));
		assertThat(this.restarts).containsExactly(RestartCause.CRASH);
		this.connector.always(Outcome.FAIL);
		this.connector.last().crash(1);
		this.scheduler.advance(Duration.ofMinutes(5));
		this.supervisor.reset();
		assertThat(this.restarts).containsExactly(RestartCause.CRASH, RestartCause.CRASH, RestartCause.RESET);
	}

	@Test
	void eachOutageOfACrashLoopIsTimedFromItsLossWithoutTheUptimeBetweenCrashes() {
		startStable();
		this.connector.last().crash(1);
		this.scheduler.runReady();
		this.scheduler.advance(INITIAL);
		this.scheduler.advance(Duration.ofSeconds(10));
		this.connector.last().crash(1);
		this.scheduler.runReady();
		this.scheduler.advance(INITIAL.multipliedBy(2));
		assertThat(this.supervisor.state()).isEqualTo(McpServerState.UP);
		assertThat(this.recoveries).containsExactly(INITIAL, INITIAL.multipliedBy(2));
		assertThat(this.recoveryAttempts).containsExactly(1, 1);
		assertThat(this.supervisor.status().attemptsUsed()).as("the budget spans the crash loop").isEqualTo(2);
	}

	@Test
	void anOutageGivenUpLastsUntilAResetBringsTheServerBackWithEveryAttemptCounted() {
		startStable();
		this.connector.always(Outcome.FAIL);
		this.connector.last().crash(1);
		this.scheduler.advance(Duration.ofMinutes(5));
		assertThat(this.supervisor.state()).isEqualTo(McpServerState.FAILED);
		assertThat(this.recoveries).isEmpty();
		this.connector.always(Outcome.CONNECT);
		this.supervisor.reset();
		this.scheduler.runReady();
		assertThat(this.supervisor.state()).isEqualTo(McpServerState.UP);
		assertThat(this.recoveries).containsExactly(Duration.ofMinutes(5));
		assertThat(this.recoveryAttempts).containsExactly(5);
	}

	@Test
	void aServerThatNeverConnectedHasNeitherOutagesNorRestarts() {
		this.connector.always(Outcome.FAIL);
		this.supervisor.start();
		this.scheduler.runReady();
		assertThat(this.supervisor.state()).isEqualTo(McpServerState.RECONNECTING);
		this.supervisor.restart();
		this.scheduler.advance(Duration.ofMinutes(5));
		assertThat(this.supervisor.state()).isEqualTo(McpServerState.FAILED);
		this.connector.always(Outcome.CONNECT);
		this.supervisor.reset();
		this.scheduler.runReady();
		assertThat(this.supervisor.state()).isEqualTo(McpServerState.UP);
		assertThat(this.restarts).isEmpty();
		assertThat(this.recoveries).isEmpty();
	}

	@Test
	void aResetDuringTheBackoffHastensTheRestartAlreadyCounted() {
		startStable();
		this.connector.then(Outcome.FAIL);
		this.connector.last().crash(1);
		this.scheduler.runReady();
		this.scheduler.advance(INITIAL);
		assertThat(this.attempts).containsExactly("g1 connected", "g2 failed");
		this.supervisor.reset();
		this.scheduler.runReady();
		assertThat(this.supervisor.state()).isEqualTo(McpServerState.UP);
		assertThat(this.restarts).containsExactly(RestartCause.CRASH);
		assertThat(this.recoveries).containsExactly(INITIAL);
		assertThat(this.recoveryAttempts).containsExactly(2);
	}

	@Test
	void withReconnectDisabledTheResetAfterALossIsTheRestart() {
		this.supervisor = supervisor(ReconnectPolicy.builder()
			.enabled(false)
			.initialDelay(INITIAL)
			.maxDelay(MAX)
			.maxAttempts(4)
			.jitter(0)
			.build());
		startUp();
		this.connector.last().crash(1);
		this.scheduler.advance(Duration.ofMinutes(1));
		assertThat(this.supervisor.state()).isEqualTo(McpServerState.DISCONNECTED);
		assertThat(this.restarts).isEmpty();
		this.supervisor.reset();
		this.scheduler.runReady();
		assertThat(this.supervisor.state()).isEqualTo(McpServerState.UP);
		assertThat(this.restarts).containsExactly(RestartCause.RESET);
		assertThat(this.recoveries).containsExactly(Duration.ofMinutes(1));
	}

	@Test
	void aConnectionLostWithoutAProcessExitRestartsWithItsOwnCause() {
		startUp();
		this.connector.last().disconnect("transport failure: Connection refused");
		this.scheduler.runReady();
		assertThat(this.supervisor.status().lastError())
			.isEqualTo("connection lost: transport failure: Connection refused");
		assertThat(this.restarts).containsExactly(RestartCause.valueOf("CONNECTION_LOST"));
	}

	@Test
	void aStoppedServerCannotBeReset() {
		assertThatIllegalStateException().isThrownBy(this.supervisor::reset)
			.withMessage("MCP server 'demo' is stopped and cannot be reset");
	}

	@Test
	void stopIsQuiescent() {
		startUp();
		this.connector.last().crash(1);
		this.scheduler.runReady();
		assertThat(this.scheduler.pendingTimers()).isOne();
		var stopped = this.supervisor.stop();
		this.scheduler.runReady();
		assertThat(stopped).isCompleted();
		assertThat(this.scheduler.pendingTimers()).isZero();
		assertThat(this.supervisor.state()).isEqualTo(McpServerState.STOPPED);
		assertThat(this.supervisor.tools()).isEqualTo(ToolSet.EMPTY);
		this.scheduler.advance(Duration.ofHours(1));
		assertThat(this.connector.spawns()).isEqualTo(1);
		assertThat(this.connector.alive).isZero();
	}

	@Test
	void stopTerminatesTheLiveGenerationAndCancelsTheStabilityTimer() {
		startUp();
		FakeConnection live = this.connector.last();
		this.supervisor.stop();
		this.scheduler.runReady();
		assertThat(live.clientClosed).isTrue();
		assertThat(live.terminated).isTrue();
		assertThat(this.connector.alive).isZero();
		assertThat(this.scheduler.pendingTimers()).isZero();
		live.crash(143);
		this.scheduler.advance(Duration.ofHours(1));
		assertThat(this.connector.spawns()).isEqualTo(1);
		assertThat(this.supervisor.state()).isEqualTo(McpServerState.STOPPED);
	}

	@Test
	void stopDuringAnAttemptTerminatesWhatTheAttemptStarted() {
		this.supervisor.start();
		var stopped = this.supervisor.stop();
		this.scheduler.runReady();
		assertThat(stopped).isCompleted();
		assertThat(this.connector.last().terminated).isTrue();
		assertThat(this.connector.alive).isZero();
		assertThat(this.supervisor.state()).isEqualTo(McpServerState.STOPPED);
		assertThat(this.supervisor.tools()).isEqualTo(ToolSet.EMPTY);
	}

	@Test
	void anAttemptStartedBeforeAStopIsNeverAdoptedByTheNextStart() {
		this.supervisor.start();
		this.supervisor.stop();
		var outcome = this.supervisor.start();
		this.scheduler.runReady();
		assertThat(this.attempts).as("the stopped attempt is not the new start's").containsExactly("g2 connected");
		assertThat(outcome).isCompleted();
		assertThat(outcome.join().generation()).isEqualTo(2);
		assertThat(this.supervisor.state()).isEqualTo(McpServerState.UP);
		assertThat(this.supervisor.status().generation()).isEqualTo(2);
		assertThat(this.connector.events).containsExactly("open g1", "terminate g1", "open g2");
		assertThat(this.connector.maxAlive).isEqualTo(1);
		assertThat(this.restarts).isEmpty();
	}

	@Test
	void aFailureOfAnAttemptStartedBeforeAStopCostsTheNextStartNothing() {
		this.connector.then(Outcome.FAIL);
		this.supervisor.start();
		this.supervisor.stop();
		var outcome = this.supervisor.start();
		this.scheduler.runReady();
		assertThat(this.attempts).containsExactly("g2 connected");
		assertThat(outcome.join().state()).isEqualTo(McpServerState.UP);
		assertThat(this.supervisor.status().attemptsUsed()).isEqualTo(1);
		assertThat(this.supervisor.status().lastError()).isNull();
	}

	@Test
	void aRestartWhileAStopsTerminationsRunStartsNoSecondProcess() {
		startUp();
		this.supervisor.stop();
		this.supervisor.start();
		this.supervisor.restart();
		this.supervisor.reset();
		assertTheNextGenerationOpensOnlyOnceTheStopsTerminationEnded();
	}

	@Test
	void aResetAfterAnUnconfirmedTerminationChecksTheOldTreeBeforeLaunching() {
		crashWithATreeThatCannotBeConfirmedGone();
		assertThat(this.supervisor.state()).isEqualTo(McpServerState.FAILED);
		this.supervisor.reset();
		this.scheduler.runReady();
		assertThat(this.connector.spawns()).as("the old tree still runs: nothing new").isOne();
		assertThat(this.supervisor.state()).isEqualTo(McpServerState.FAILED);
		assertThat(this.supervisor.status().lastError()).contains("generation 1 could not be confirmed gone");
		this.connector.terminationConfirmed = true;
		this.supervisor.reset();
		this.scheduler.runReady();
		assertThat(this.supervisor.state()).isEqualTo(McpServerState.UP);
		assertThat(this.connector.spawns()).isEqualTo(2);
		assertThat(this.connector.maxAlive).isEqualTo(1);
	}

	@Test
	void aStopAfterAnUnconfirmedTerminationTriesToEndTheOldTreeAgain() {
		crashWithATreeThatCannotBeConfirmedGone();
		this.connector.terminationConfirmed = true;
		this.supervisor.stop();
		this.scheduler.runReady();
		assertThat(this.connector.alive).isZero();
	}

	@Test
	void aStartAfterTwoStopsWaitsForTheTerminationsOfTheLastStop() {
		crashWithATreeThatCannotBeConfirmedGone();
		this.connector.terminationConfirmed = true;
		// each stop terminates the old tree; the second start waits for the second stop's
		this.supervisor.stop();
		this.supervisor.start();
		this.supervisor.stop();
		this.supervisor.start();
		List<Integer> spawnsDuringTheSecondStopsTermination = new ArrayList<>();
		Runnable countSpawns = () -> spawnsDuringTheSecondStopsTermination.add(this.connector.spawns());
		// the first stop's termination hands the hook on to the second stop's
		this.connector.duringTermination = () -> this.connector.duringTermination = countSpawns;
		this.scheduler.runReady();
		assertThat(spawnsDuringTheSecondStopsTermination).as("no attempt while the second stop's termination runs")
			.containsExactly(1);
		assertThat(this.supervisor.state()).isEqualTo(McpServerState.UP);
		assertThat(this.connector.spawns()).isEqualTo(2);
		assertThat(this.connector.maxAlive).isEqualTo(1);
	}

	@Test
	void aTreeLeftBehindByATerminationThatAStopCutShortIsEndedBeforeTheNextLaunch() {
		startUp();
		this.connector.terminationConfirmed = false;
		// the stop arrives while the lost generation's tree is being terminated
		this.connector.duringTermination = this.supervisor::stop;
		this.connector.last().crash(1);
		this.scheduler.runReady();
		assertThat(this.supervisor.state()).isEqualTo(McpServerState.STOPPED);
		assertThat(this.connector.alive).as("the tree survived its termination").isOne();
		this.connector.terminationConfirmed = true;
		this.supervisor.start();
		this.scheduler.runReady();
		assertThat(this.supervisor.state()).isEqualTo(McpServerState.UP);
		assertThat(this.connector.maxAlive).as("the old tree is ended before the next one starts").isEqualTo(1);
	}

	@Test
	void aHungGenerationThatSurvivesItsKillFailsAtOnceAndAStopRightAfterEndsTheSurvivor() {
		startUp();
		SupervisorLock lock = (SupervisorLock) ReflectionTestUtils.getField(this.supervisor.lifecycle(), "lock");
		this.connector.terminationConfirmed = false;
		// the step that learns of the survivor reads its stderr tail: the stop runs right
		// after that step
		this.connector.duringTermination = () -> this.connector.duringStderrTail = () -> lock
			.later(this.supervisor::stop);
		this.supervisor.lifecycle().view().end(this.connector.last(), "liveness: no reply to ping");
		this.scheduler.runReady();
		assertThat(this.changes).extracting(McpServerStateChange::to)
			.containsExactly(McpServerState.STARTING, McpServerState.UP, McpServerState.FAILED, McpServerState.STOPPED);
		assertThat(this.connector.alive).as("the stop's termination cannot confirm it gone either").isOne();
		this.connector.terminationConfirmed = true;
		this.supervisor.start();
		this.scheduler.runReady();
		assertThat(this.supervisor.state()).isEqualTo(McpServerState.UP);
		assertThat(this.connector.maxAlive).as("the survivor is ended before the next generation starts").isEqualTo(1);
	}

	@Test
	void aConnectorThatThrowsCountsAsAFailedAttemptAndTheNextOneFollows() {
		startStable();
		this.connector.failingCreations = 1;
		this.connector.last().crash(1);
		this.scheduler.runReady();
		this.scheduler.advance(INITIAL);
		assertThat(this.supervisor.state()).isEqualTo(McpServerState.RECONNECTING);
		assertThat(this.supervisor.status().lastError())
			.isEqualTo("connection failed: scripted failure to create generation 2");
		this.scheduler.advance(INITIAL.multipliedBy(2));
		assertThat(this.supervisor.state()).isEqualTo(McpServerState.UP);
	}

	@Test
	void aStartRightAfterAStopWaitsForTheStopsTerminations() {
		startUp();
		this.supervisor.stop();
		this.supervisor.start();
		assertTheNextGenerationOpensOnlyOnceTheStopsTerminationEnded();
	}

	@Test
	void aStartWhileTheLastWorkOfAStopEndsOutsideTheLockStillConnects() throws Exception {
		// the stop's last work is the attempt it cut short: after its last step, the
		// attempt ends its process outside the lock, on its worker
		CompletableFuture<Void> lastStepTaken = new CompletableFuture<>();
		CompletableFuture<Void> startWaits = new CompletableFuture<>();
		this.connector.duringOpen = () -> {
			this.supervisor.stop();
			this.scheduler.runReady();
			this.connector.duringTermination = () -> {
				lastStepTaken.complete(null);
				startWaits.join();
			};
		};
		this.supervisor.start();
		Thread worker = new Thread(this.scheduler::runReady, "worker");
		worker.start();
		lastStepTaken.get(10, TimeUnit.SECONDS);
		// the stop's work ends while the start holds the lock: after the start saw it
		// running, before the start waits for it
		this.supervisor.lifecycle().observeMoves((edge) -> {
			if (edge.to() == ServerPhase.STARTING_AWAITING_STOP) {
				startWaits.complete(null);
				try {
					worker.join(TimeUnit.SECONDS.toMillis(10));
				}
				catch (InterruptedException ex) {
					Thread.currentThread().interrupt();
				}
			}
		});
		this.supervisor.start();
		assertThat(worker.isAlive()).isFalse();
		this.scheduler.runReady();
		assertThat(this.supervisor.lifecycle().phase()).isEqualTo(ServerPhase.UP);
		assertThat(this.connector.events).containsExactly("open g1", "terminate g1", "open g2");
		assertThat(this.connector.maxAlive).isEqualTo(1);
	}

	@Test
	void aStoppedSupervisorCanStartAgainWithAFreshBudget() {
		startUp();
		this.supervisor.stop();
		this.scheduler.runReady();
		this.supervisor.start();
		this.scheduler.runReady();
		assertThat(this.supervisor.state()).isEqualTo(McpServerState.UP);
		assertThat(this.supervisor.status().attemptsUsed()).isEqualTo(1);
	}

	private void assertTheNextGenerationOpensOnlyOnceTheStopsTerminationEnded() {
		assertThat(this.connector.spawns()).as("no attempt before the stop's termination ended").isOne();
		this.scheduler.runReady();
		assertThat(this.supervisor.state()).isEqualTo(McpServerState.UP);
		assertThat(this.connector.events).containsExactly("open g1", "terminate g1", "open g2");
		assertThat(this.connector.maxAlive).isEqualTo(1);
	}

	private void crashWithATreeThatCannotBeConfirmedGone() {
		startUp();
		this.connector.terminationConfirmed = false;
		this.connector.last().crash(1);
		this.scheduler.runReady();
	}

	/**
	 * Starts and waits for UP.
	 */
	private void startUp() {
		this.supervisor.start();
		this.scheduler.runReady();
		assertThat(this.supervisor.state()).isEqualTo(McpServerState.UP);
	}

	/**
	 * Starts, and stays up for the stability window: the next loss opens a fresh outage.
	 */
	private void startStable() {
		startUp();
		this.scheduler.advance(this.supervisor.policy().stabilityWindow());
		assertThat(this.supervisor.status().attemptsUsed()).isZero();
	}

	private McpServerSupervisor supervisor(ReconnectPolicy policy) {
		return McpServerSupervisor.builder("demo", this.connector, this.scheduler)
			.reconnect(policy)
			.calls(CallPolicy.builder().waitForRecovery(Duration.ZERO).retry(CallPolicy.Retry.SAFE).build())
			.healthCheck(HealthCheckPolicy.disabled(Duration.ofSeconds(5)))
			.listener(new SupervisorListener() {

				@Override
				public void toolsChanged(String server, ToolSet tools) {
					McpServerSupervisorTests.this.swaps.add(tools);
				}

				@Override
				public void stateChanged(McpServerStateChange change) {
					McpServerSupervisorTests.this.changes.add(change);
				}

				@Override
				public void attemptFinished(String server, int generation, boolean connected) {
					McpServerSupervisorTests.this.attempts
						.add("g" + generation + (connected ? " connected" : " failed"));
				}

				@Override
				public void recovered(String server, int attempts, Duration outage) {
					McpServerSupervisorTests.this.recoveries.add(outage);
					McpServerSupervisorTests.this.recoveryAttempts.add(attempts);
				}

				@Override
				public void restarting(String server, RestartCause cause) {
					McpServerSupervisorTests.this.restarts.add(cause);
				}

			})
			.build();
	}

	private static CallToolRequest call(String tool) {
		return CallToolRequest.builder(tool).arguments(Map.of()).build();
	}

}
