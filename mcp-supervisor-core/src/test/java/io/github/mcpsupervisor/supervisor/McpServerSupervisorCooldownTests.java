package io.github.mcpsupervisor.supervisor;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import io.github.mcpsupervisor.supervisor.FakeConnector.Outcome;
import io.github.mcpsupervisor.supervisor.SupervisorListener.RestartCause;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The cooldown of a server given up after a spent outage budget, on virtual time: when it
 * tries again, what starts its sequence over, what never cools down, and that a stop
 * leaves no timer.
 */
class McpServerSupervisorCooldownTests {

	private static final Duration INITIAL = Duration.ofMillis(500);

	private static final Duration MAX = Duration.ofSeconds(30);

	private static final Duration COOLDOWN = Duration.ofMinutes(5);

	private static final Duration COOLDOWN_MAX = Duration.ofMinutes(30);

	private static final int ATTEMPTS = 3;

	private final VirtualScheduler scheduler = new VirtualScheduler();

	private final FakeConnector connector = new FakeConnector();

	private final List<Duration> cooldowns = new ArrayList<>();

	private final List<RestartCause> restarts = new ArrayList<>();

	private final McpServerSupervisor supervisor = McpServerSupervisor.builder("demo", this.connector, this.scheduler)
		.reconnect(ReconnectPolicy.builder()
			.initialDelay(INITIAL)
			.maxDelay(MAX)
			.maxAttempts(ATTEMPTS)
			.jitter(0)
			.cooldown(ReconnectPolicy.Cooldown.of(COOLDOWN, COOLDOWN_MAX))
			.build())
		.healthCheck(HealthCheckPolicy.disabled(Duration.ofSeconds(5)))
		.listener(new SupervisorListener() {

			@Override
			public void cooldownOver(String server, Duration cooldown) {
				McpServerSupervisorCooldownTests.this.cooldowns.add(cooldown);
			}

			@Override
			public void restarting(String server, RestartCause cause) {
				McpServerSupervisorCooldownTests.this.restarts.add(cause);
			}

		})
		.build();

	@Test
	void eachGiveUpInARowDoublesTheCooldownUpToItsBoundAndAFreshBudgetFollowsIt() {
		this.connector.always(Outcome.FAIL);
		this.supervisor.start();
		List<Duration> schedule = new ArrayList<>();
		for (int giveUp = 1; giveUp <= 5; giveUp++) {
			Duration cooldown = spendTheBudget();
			schedule.add(cooldown);
			assertThat(this.connector.spawns()).isEqualTo(giveUp * ATTEMPTS);
			this.scheduler.advance(cooldown.minusMillis(1));
			assertThat(this.connector.spawns()).isEqualTo(giveUp * ATTEMPTS);
			assertThat(this.supervisor.state()).isEqualTo(McpServerState.FAILED);
			this.scheduler.advance(Duration.ofMillis(1));
			assertThat(this.connector.spawns()).isEqualTo(giveUp * ATTEMPTS + 1);
			assertThat(this.supervisor.state()).isEqualTo(McpServerState.RECONNECTING);
			// a fresh budget: its first attempt failed, its second is pending
			assertThat(this.supervisor.status().attemptsUsed()).isEqualTo(2);
			assertThat(this.supervisor.status().cooldown()).isNull();
		}
		assertThat(schedule).containsExactly(Duration.ofMinutes(5), Duration.ofMinutes(10), Duration.ofMinutes(20),
				Duration.ofMinutes(30), Duration.ofMinutes(30));
		assertThat(this.cooldowns).isEqualTo(schedule);
		assertThat(this.connector.maxAlive).isOne();
	}

	@Test
	void theStatusOfAServerCoolingDownSaysWhenItTriesAgain() {
		this.connector.always(Outcome.FAIL);
		this.supervisor.start();
		spendTheBudget();
		McpServerStatus status = this.supervisor.status();
		assertThat(status.state()).isEqualTo(McpServerState.FAILED);
		assertThat(status.cooldown()).isEqualTo(COOLDOWN);
		assertThat(status.nextAttemptAt()).isEqualTo(this.scheduler.clock().instant().plus(COOLDOWN));
		assertThat(status.lastError()).isEqualTo("gave up after " + ATTEMPTS + " attempts");
		assertThat(this.supervisor.tools()).isEqualTo(ToolSet.EMPTY);
		this.scheduler.advance(Duration.ofMinutes(2));
		assertThat(UnavailableMessages.notUp(this.supervisor.status(), this.scheduler.clock().instant(), "tool 'echo'",
				""))
			.contains("has failed; it tries again after its cooldown, in 180000 ms");
	}

	@Test
	void theKeptToolsOfAServerCoolingDownSayWhenItTriesAgainOnItsOwn() {
		McpServerSupervisor keeping = McpServerSupervisor.builder("demo", this.connector, this.scheduler)
			.reconnect(ReconnectPolicy.builder()
				.initialDelay(INITIAL)
				.maxDelay(MAX)
				.maxAttempts(ATTEMPTS)
				.jitter(0)
				.cooldown(ReconnectPolicy.Cooldown.of(COOLDOWN, COOLDOWN_MAX))
				.build())
			.healthCheck(HealthCheckPolicy.disabled(Duration.ofSeconds(5)))
			.toolsWhenDown(ToolsWhenDown.KEEP)
			.build();
		keeping.start();
		this.scheduler.runReady();
		this.connector.always(Outcome.FAIL);
		this.connector.last().crash(1);
		this.scheduler.runReady();
		while (keeping.state() != McpServerState.FAILED) {
			this.scheduler.advance(this.scheduler.untilNextTask());
		}
		ToolSet.Unavailability unavailability = keeping.tools().unavailable();
		assertThat(unavailability).isNotNull();
		assertThat(unavailability.retryAt()).isEqualTo(this.scheduler.clock().instant().plus(COOLDOWN))
			.isEqualTo(keeping.status().nextAttemptAt());
		assertThat(unavailability.callResult()).contains("(failed); it has failed and tries again on its own at ")
			.contains(", or sooner if an operator resets it.")
			.doesNotContain("stays unavailable");
		keeping.stop();
	}

	@Test
	void aServerThatHadConnectedRestartsAfterTheCooldownAndRecovers() {
		this.supervisor.start();
		this.scheduler.runReady();
		this.connector.always(Outcome.FAIL);
		this.connector.last().crash(1);
		Duration cooldown = spendTheBudget();
		this.connector.always(Outcome.CONNECT);
		this.scheduler.advance(cooldown);
		assertThat(this.supervisor.state()).isEqualTo(McpServerState.UP);
		assertThat(this.supervisor.tools().names()).containsExactly("echo", "add");
		assertThat(this.restarts).containsExactly(RestartCause.CRASH, RestartCause.COOLDOWN);
		assertThat(this.cooldowns).containsExactly(COOLDOWN);
	}

	@Test
	void aResetDuringTheCooldownConnectsNowStartsTheSequenceOverAndLeavesTheOldTimerInert() {
		this.connector.always(Outcome.FAIL);
		this.supervisor.start();
		this.scheduler.advance(spendTheBudget());
		assertThat(spendTheBudget()).isEqualTo(COOLDOWN.multipliedBy(2));
		int spawns = this.connector.spawns();
		this.supervisor.reset();
		this.scheduler.runReady();
		assertThat(this.connector.spawns()).isEqualTo(spawns + 1);
		assertThat(this.supervisor.state()).isEqualTo(McpServerState.RECONNECTING);
		assertThat(spendTheBudget()).isEqualTo(COOLDOWN);
		assertThat(this.connector.spawns()).isEqualTo(spawns + ATTEMPTS);
		// the 10 minutes of the cancelled cooldown are over: only the new one's end
		// counts
		this.scheduler.advance(COOLDOWN.minusMillis(1));
		assertThat(this.connector.spawns()).isEqualTo(spawns + ATTEMPTS);
		this.scheduler.advance(Duration.ofMillis(1));
		assertThat(this.connector.spawns()).isEqualTo(spawns + ATTEMPTS + 1);
	}

	@Test
	void aRestartDuringTheCooldownStartsTheSequenceOver() {
		this.connector.always(Outcome.FAIL);
		this.supervisor.start();
		this.scheduler.advance(spendTheBudget());
		spendTheBudget();
		this.supervisor.restart();
		assertThat(spendTheBudget()).isEqualTo(COOLDOWN);
	}

	@Test
	void aConnectionThatStaysUpForTheStabilityWindowStartsTheSequenceOver() {
		this.connector.always(Outcome.FAIL);
		this.supervisor.start();
		this.scheduler.advance(spendTheBudget());
		Duration second = spendTheBudget();
		this.connector.always(Outcome.CONNECT);
		this.scheduler.advance(second);
		assertThat(this.supervisor.state()).isEqualTo(McpServerState.UP);
		this.scheduler.advance(MAX);
		this.connector.always(Outcome.FAIL);
		this.connector.last().crash(1);
		assertThat(spendTheBudget()).isEqualTo(COOLDOWN);
	}

	@Test
	void aConnectionShorterThanTheStabilityWindowKeepsTheSequence() {
		this.connector.always(Outcome.FAIL);
		this.supervisor.start();
		this.scheduler.advance(spendTheBudget());
		Duration second = spendTheBudget();
		this.connector.always(Outcome.CONNECT);
		this.scheduler.advance(second);
		assertThat(this.supervisor.state()).isEqualTo(McpServerState.UP);
		this.scheduler.advance(MAX.minusMillis(1));
		this.connector.always(Outcome.FAIL);
		this.connector.last().crash(1);
		assertThat(spendTheBudget()).isEqualTo(COOLDOWN.multipliedBy(4));
	}

	@Test
	void aConfigurationErrorNeverCoolsDown() {
		this.connector.always(Outcome.MISCONFIGURED);
		this.supervisor.start();
		this.scheduler.runReady();
		assertNoAttemptPlanned();
		this.scheduler.advance(Duration.ofHours(2));
		assertThat(this.connector.spawns()).isOne();
		assertThat(this.supervisor.state()).isEqualTo(McpServerState.FAILED);
	}

	@Test
	void aConfigurationErrorFoundAfterACooldownEndsTheCooldowns() {
		this.connector.always(Outcome.FAIL);
		this.supervisor.start();
		Duration cooldown = spendTheBudget();
		this.connector.always(Outcome.MISCONFIGURED);
		this.scheduler.advance(cooldown);
		assertNoAttemptPlanned();
		int spawns = this.connector.spawns();
		this.scheduler.advance(Duration.ofHours(2));
		assertThat(this.connector.spawns()).isEqualTo(spawns);
		assertThat(this.cooldowns).containsExactly(COOLDOWN);
	}

	@Test
	void aTreeNotConfirmedGoneNeverCoolsDown() {
		this.supervisor.start();
		this.scheduler.runReady();
		this.connector.terminationConfirmed = false;
		this.connector.last().crash(1);
		this.scheduler.runReady();
		assertNoAttemptPlanned();
		this.scheduler.advance(Duration.ofHours(2));
		assertThat(this.connector.spawns()).isOne();
	}

	@Test
	void aServerThatNeedsAnAuthorizationNeverCoolsDown() {
		this.connector.always(Outcome.UNAUTHORIZED);
		this.supervisor.start();
		this.scheduler.advance(Duration.ofHours(2));
		assertThat(this.supervisor.state()).isEqualTo(McpServerState.NEEDS_AUTHORIZATION);
		assertThat(this.supervisor.status().nextAttemptAt()).isNull();
		assertThat(this.supervisor.status().cooldown()).isNull();
		assertThat(this.connector.spawns()).isOne();
	}

	@Test
	void stopIsQuiescentDuringACooldown() {
		this.connector.always(Outcome.FAIL);
		this.supervisor.start();
		spendTheBudget();
		assertThat(this.scheduler.pendingTimers()).isOne();
		var stopped = this.supervisor.stop();
		this.scheduler.runReady();
		assertThat(stopped).isCompleted();
		assertThat(this.scheduler.pendingTimers()).isZero();
		assertThat(this.supervisor.status().nextAttemptAt()).isNull();
		int spawns = this.connector.spawns();
		this.scheduler.advance(Duration.ofHours(2));
		assertThat(this.connector.spawns()).isEqualTo(spawns);
		assertThat(this.supervisor.state()).isEqualTo(McpServerState.STOPPED);
		assertThat(this.cooldowns).isEmpty();
	}

	@Test
	void aStartAfterAStopDuringACooldownStartsTheSequenceOver() {
		this.connector.always(Outcome.FAIL);
		this.supervisor.start();
		this.scheduler.advance(spendTheBudget());
		spendTheBudget();
		this.supervisor.stop();
		this.scheduler.runReady();
		this.supervisor.start();
		assertThat(spendTheBudget()).isEqualTo(COOLDOWN);
	}

	@Test
	void withoutACooldownAGivenUpServerWaitsForAReset() {
		McpServerSupervisor plain = McpServerSupervisor.builder("plain", this.connector, this.scheduler)
			.reconnect(ReconnectPolicy.builder().initialDelay(INITIAL).maxDelay(MAX).maxAttempts(ATTEMPTS).build())
			.healthCheck(HealthCheckPolicy.disabled(Duration.ofSeconds(5)))
			.build();
		this.connector.always(Outcome.FAIL);
		plain.start();
		this.scheduler.advance(Duration.ofMinutes(1));
		assertThat(plain.state()).isEqualTo(McpServerState.FAILED);
		assertThat(this.scheduler.pendingTimers()).isZero();
		assertThat(plain.status().cooldown()).isNull();
		this.scheduler.advance(Duration.ofDays(1));
		assertThat(this.connector.spawns()).isEqualTo(ATTEMPTS);
	}

	// Runs the attempts of the budget until the server is given up; returns its cooldown.
	private Duration spendTheBudget() {
		this.scheduler.runReady();
		while (this.supervisor.state() != McpServerState.FAILED) {
			this.scheduler.advance(this.scheduler.untilNextTask());
		}
		assertThat(this.scheduler.pendingTimers()).isOne();
		Duration cooldown = this.supervisor.status().cooldown();
		assertThat(cooldown).isNotNull();
		assertThat(this.scheduler.untilNextTask()).isEqualTo(cooldown);
		return cooldown;
	}

	private void assertNoAttemptPlanned() {
		McpServerStatus status = this.supervisor.status();
		assertThat(status.state()).isEqualTo(McpServerState.FAILED);
		assertThat(status.nextAttemptAt()).isNull();
		assertThat(status.cooldown()).isNull();
		assertThat(this.scheduler.pendingTimers()).isZero();
	}

}
