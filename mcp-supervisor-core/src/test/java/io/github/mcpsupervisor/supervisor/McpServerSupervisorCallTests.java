package io.github.mcpsupervisor.supervisor;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Function;

import io.github.mcpsupervisor.internal.Caller;
import io.github.mcpsupervisor.supervisor.CallPolicy.Retry;
import io.github.mcpsupervisor.supervisor.FakeConnector.FakeConnection;
import io.github.mcpsupervisor.supervisor.SupervisorListener.RestartCause;
import io.github.mcpsupervisor.transport.internal.CallTimeouts;
import io.modelcontextprotocol.spec.McpError;
import io.modelcontextprotocol.spec.McpSchema.CallToolRequest;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import io.modelcontextprotocol.spec.McpSchema.JSONRPCResponse.JSONRPCError;
import io.modelcontextprotocol.spec.McpSchema.Tool;
import io.modelcontextprotocol.spec.McpSchema.ToolAnnotations;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Mono;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

/**
 * Tool calls around outages, on virtual time: waiting for recovery, classification of
 * failures, retry eligibility, the liveness probe.
 */
class McpServerSupervisorCallTests {

	private static final Duration INITIAL = Duration.ofMillis(500);

	private static final Duration WAIT = Duration.ofSeconds(5);

	private static final HealthCheckPolicy PROBE = HealthCheckPolicy.builder()
		.interval(Duration.ofSeconds(30))
		.timeout(Duration.ofSeconds(5))
		.failureThreshold(2)
		.build();

	private final VirtualScheduler scheduler = new VirtualScheduler();

	private final FakeConnector connector = new FakeConnector();

	private final List<RestartCause> restarts = new ArrayList<>();

	private McpServerSupervisor supervisor = supervisor(CallPolicy.defaults(), PROBE);

	McpServerSupervisorCallTests() {
		this.connector.serverTools = List.of(tool("read", true, null), tool("write", null, null),
				tool("put", null, true));
	}

	@Test
	void aCallDuringReconnectWaitsAndRunsOnTheNextGeneration() throws Exception {
		startStableBeforeTheFirstProbe();
		this.connector.last().crash(137);
		this.scheduler.runReady();
		CompletableFuture<CallToolResult> call = callAsync("write");
		await().until(() -> this.supervisor.waitingCalls() == 1);
		this.scheduler.advance(INITIAL);
		assertThat(call.get(10, TimeUnit.SECONDS).content().toString()).contains("write from g2");
	}

	@Test
	void aCallWaitsForRecoveryNoLongerThanTheBound() {
		startStableBeforeTheFirstProbe();
		this.connector.always(FakeConnector.Outcome.FAIL);
		this.connector.last().crash(137);
		this.scheduler.runReady();
		CompletableFuture<CallToolResult> call = callAsync("read");
		await().until(() -> this.supervisor.waitingCalls() == 1);
		this.scheduler.advance(WAIT.minusMillis(1));
		assertThat(call).isNotDone();
		this.scheduler.advance(Duration.ofMillis(1));
		assertThat(call).failsWithin(Duration.ofSeconds(5))
			.withThrowableThat()
			.havingCause()
			.isInstanceOf(McpServerUnavailableException.class)
			.withMessageContaining("is reconnecting")
			.withMessageContaining("did not recover within 5000 ms");
		assertThat(this.supervisor.waitingCalls()).isZero();
	}

	@Test
	void aCallToAFailedServerFailsAtOnceSayingHowToReset() {
		this.connector.always(FakeConnector.Outcome.MISCONFIGURED);
		this.supervisor.start();
		this.scheduler.runReady();
		assertThatExceptionOfType(McpServerUnavailableException.class).isThrownBy(() -> call("read"))
			.withMessageContaining("has failed")
			.withMessageContaining("McpSupervisors.reset(\"demo\")");
	}

	@Test
	void waitingCallsFailAsSoonAsTheServerGivesUp() {
		startStableBeforeTheFirstProbe();
		this.connector.always(FakeConnector.Outcome.MISCONFIGURED);
		this.connector.last().crash(1);
		this.scheduler.runReady();
		CompletableFuture<CallToolResult> call = callAsync("read");
		await().until(() -> this.supervisor.waitingCalls() == 1);
		this.scheduler.advance(INITIAL);
		assertThat(this.supervisor.state()).isEqualTo(McpServerState.FAILED);
		assertThat(call).failsWithin(Duration.ofSeconds(5))
			.withThrowableThat()
			.havingCause()
			.withMessageContaining("has failed");
	}

	@Test
	void aServerAnsweredErrorIsReturnedAsItIsNeverRetriedNorAReasonToReconnect() {
		startStableBeforeTheFirstProbe();
		int[] calls = new int[1];
		this.connector.last().onCall = (request) -> {
			calls[0]++;
			throw new McpError(new JSONRPCError(-32602, "bad arguments", null));
		};
		assertThatExceptionOfType(McpError.class).isThrownBy(() -> call("read")).withMessageContaining("bad arguments");
		assertThat(calls[0]).isOne();
		assertThat(this.supervisor.state()).isEqualTo(McpServerState.UP);
		assertThat(this.connector.spawns()).isOne();
	}

	@Test
	void anEligibleCallWhoseGenerationDiesUnderItRunsOnceMoreOnTheNextGeneration() throws Exception {
		startStableBeforeTheFirstProbe();
		crashDuringNextCall();
		CompletableFuture<CallToolResult> call = callAsync("read");
		await().until(() -> this.supervisor.waitingCalls() == 1);
		this.scheduler.advance(INITIAL);
		assertThat(call.get(10, TimeUnit.SECONDS).content().toString()).contains("read from g2");
		assertThat(this.connector.spawns()).isEqualTo(2);
	}

	@Test
	void aCallThatFailsAfterTheServerWasAlreadyHealedRetriesOnTheLiveGenerationWithoutAnotherRestart() {
		startStableBeforeTheFirstProbe();
		FakeConnection first = this.connector.last();
		first.onCall = (request) -> {
			first.crash(137);
			this.scheduler.runReady();
			this.scheduler.advance(INITIAL); // healed before this call notices the loss
			throw new IllegalStateException("MCP session with server terminated");
		};
		assertThat(call("read").content().toString()).contains("read from g2");
		assertThat(this.connector.spawns()).isEqualTo(2);
		assertThat(this.restarts).containsExactly(RestartCause.CRASH);
	}

	@Test
	void aCallThatArrivesAfterTheLossButBeforeTheSupervisorSawItWaitsForTheNextGeneration() throws Exception {
		startStableBeforeTheFirstProbe();
		this.connector.last().crash(137); // lost, not yet retired: the reaction is
											// scheduled
		CompletableFuture<CallToolResult> call = callAsync("write");
		await().until(() -> this.supervisor.waitingCalls() == 1);
		this.scheduler.runReady();
		this.scheduler.advance(INITIAL);
		assertThat(call.get(10, TimeUnit.SECONDS).content().toString()).contains("write from g2");
	}

	@Test
	void aRequestDuringReconnectWaitsAndRunsOnTheNextGeneration() throws Exception {
		startStableBeforeTheFirstProbe();
		this.connector.last().crash(137);
		this.scheduler.runReady();
		CompletableFuture<Object> request = CompletableFuture
			.supplyAsync(() -> this.supervisor.request("resources/read", (client) -> Mono.empty()));
		await().until(() -> this.supervisor.waitingCalls() == 1);
		this.scheduler.advance(INITIAL);
		assertThat(request.get(10, TimeUnit.SECONDS)).isEqualTo("resources/read from g2");
	}

	@Test
	void aRequestWhoseGenerationDiesUnderItRunsOnceMoreOnTheNext() {
		startStableBeforeTheFirstProbe();
		FakeConnection first = this.connector.last();
		first.onRequest = (method) -> {
			first.crash(137);
			this.scheduler.runReady();
			this.scheduler.advance(INITIAL);
			throw new IllegalStateException("MCP session with server terminated");
		};
		assertThat(this.supervisor.<Object>request("prompts/get", (client) -> Mono.empty()))
			.isEqualTo("prompts/get from g2");
	}

	@Test
	void aRequestIsRetriedAtMostOnce() {
		startStableBeforeTheFirstProbe();
		this.connector.crashOnCalls = true;
		CompletableFuture<Object> request = CompletableFuture
			.supplyAsync(() -> this.supervisor.request("resources/read", (client) -> Mono.empty()));
		await().until(() -> this.supervisor.waitingCalls() == 1);
		this.scheduler.advance(INITIAL);
		assertThat(request).failsWithin(Duration.ofSeconds(10))
			.withThrowableThat()
			.havingCause()
			.isInstanceOf(McpServerUnavailableException.class)
			.withMessage("MCP server 'demo' crashed during request 'resources/read' (exit code 137 (signal 9,"
					+ " SIGKILL)). It was retried" + " once already. Reconnecting.");
	}

	@Test
	void anIdempotentToolIsEligibleToo() throws Exception {
		startStableBeforeTheFirstProbe();
		crashDuringNextCall();
		CompletableFuture<CallToolResult> call = callAsync("put");
		await().until(() -> this.supervisor.waitingCalls() == 1);
		this.scheduler.advance(INITIAL);
		assertThat(call.get(10, TimeUnit.SECONDS).content().toString()).contains("put from g2");
	}

	@Test
	void aCallIsRetriedAtMostOnce() {
		startStableBeforeTheFirstProbe();
		this.connector.crashOnCalls = true;
		CompletableFuture<CallToolResult> call = callAsync("read");
		await().until(() -> this.supervisor.waitingCalls() == 1);
		this.scheduler.advance(INITIAL);
		assertThat(call).failsWithin(Duration.ofSeconds(10))
			.withThrowableThat()
			.havingCause()
			.isInstanceOf(McpServerUnavailableException.class)
			.withMessageContaining("crashed during the call to tool 'read'")
			.withMessageContaining("retried once already");
		assertThat(this.connector.spawns()).isEqualTo(2);
	}

	@Test
	void aCallThatIsNotEligibleFailsAtOnceSayingItMayHaveTakenEffect() {
		startStableBeforeTheFirstProbe();
		crashDuringNextCall();
		assertThatExceptionOfType(McpServerUnavailableException.class).isThrownBy(() -> call("write"))
			.withMessageContaining("crashed during the call to tool 'write'")
			.withMessageContaining("may or may not have taken effect")
			.withMessageContaining("not retry-eligible");
	}

	@Test
	void aCallInFlightDuringARestartIsToldOfTheRestartNotOfACrash() {
		startStableBeforeTheFirstProbe();
		FakeConnection live = this.connector.last();
		live.onCall = (request) -> {
			this.supervisor.restart();
			this.scheduler.runReady();
			throw new IllegalStateException("MCP session with server terminated");
		};
		assertThatExceptionOfType(McpServerUnavailableException.class).isThrownBy(() -> call("write"))
			.withMessage("MCP server 'demo' was restarted on request during the call to tool 'write': the call may or"
					+ " may not have taken effect. It was not retried: tool 'write' is not retry-eligible.")
			.satisfies((ex) -> assertThat(ex.getState()).isEqualTo(McpServerState.RECONNECTING));
		assertThat(this.supervisor.state()).isEqualTo(McpServerState.UP);
	}

	@Test
	void anEligibleCallInFlightDuringARestartRunsOnTheNextGeneration() {
		startStableBeforeTheFirstProbe();
		FakeConnection live = this.connector.last();
		live.onCall = (request) -> {
			this.supervisor.restart();
			this.scheduler.runReady();
			throw new IllegalStateException("MCP session with server terminated");
		};
		assertThat(call("read").content().toString()).contains("read from g2");
	}

	@Test
	void withRetryNeverNoCallIsRetried() {
		this.supervisor = supervisor(CallPolicy.builder().waitForRecovery(WAIT).retry(Retry.NEVER).build(), PROBE);
		startStableBeforeTheFirstProbe();
		crashDuringNextCall();
		assertThatExceptionOfType(McpServerUnavailableException.class).isThrownBy(() -> call("read"))
			.withMessageContaining("not retry-eligible");
	}

	@Test
	void withRetryAlwaysEveryCallIsRetried() throws Exception {
		this.supervisor = supervisor(CallPolicy.builder().waitForRecovery(WAIT).retry(Retry.ALWAYS).build(), PROBE);
		startStableBeforeTheFirstProbe();
		crashDuringNextCall();
		CompletableFuture<CallToolResult> call = callAsync("write");
		await().until(() -> this.supervisor.waitingCalls() == 1);
		this.scheduler.advance(INITIAL);
		assertThat(call.get(10, TimeUnit.SECONDS).content().toString()).contains("write from g2");
	}

	@Test
	void aRetriedCallActsForItsUserOnTheNextGeneration() throws Exception {
		this.supervisor = supervisor(CallPolicy.builder().waitForRecovery(WAIT).retry(Retry.ALWAYS).build(), PROBE);
		startStableBeforeTheFirstProbe();
		crashDuringNextCall();
		CompletableFuture<CallToolResult> call = CompletableFuture
			.supplyAsync(() -> Caller.of("ada").call(() -> call("write")));
		await().until(() -> this.supervisor.waitingCalls() == 1);
		this.scheduler.advance(INITIAL);
		assertThat(call.get(10, TimeUnit.SECONDS).content().toString()).contains("write from g2");
		assertThat(this.connector.callers).containsExactly("g1 ada", "g2 ada");
		assertThat(call("write").content().toString()).contains("write from g2");
		assertThat(this.connector.callers).last().isEqualTo("g2 no user");
	}

	@Test
	void aSubscriptionActsForTheApplicationWhoeverAsksForIt() {
		startUp();
		Caller.of("ada").call(() -> this.supervisor.request("resources/read", (client) -> Mono.empty()));
		Caller.of("ada").call(() -> this.supervisor.request("resources/subscribe", (client) -> Mono.empty()));
		Caller.of("ada").call(() -> this.supervisor.send("resources/unsubscribe", (requests) -> Mono.empty()));
		assertThat(this.connector.callers).containsExactly("g1 ada", "g1 supervisor", "g1 supervisor");
	}

	@Test
	void listedToolsAreEligibleAndUntrustedAnnotationsAreNot() {
		CallPolicy policy = CallPolicy.builder()
			.waitForRecovery(WAIT)
			.retry(Retry.SAFE)
			.trustAnnotations(false)
			.retryTools(Set.of("write"))
			.build();
		assertThat(policy.isRetryEligible(tool("write", null, null))).isTrue();
		assertThat(policy.isRetryEligible(tool("read", true, null))).isFalse();
		assertThat(CallPolicy.defaults().isRetryEligible(tool("read", true, null))).isTrue();
		assertThat(CallPolicy.defaults().isRetryEligible(tool("read", false, false))).isFalse();
	}

	@Test
	void anInterruptedCallerIsNeverRetried() {
		startStableBeforeTheFirstProbe();
		FakeConnection live = this.connector.last();
		live.onCall = (request) -> {
			live.crash(137);
			Thread.currentThread().interrupt();
			throw new IllegalStateException("interrupted", new InterruptedException());
		};
		try {
			assertThatExceptionOfType(IllegalStateException.class).isThrownBy(() -> call("read"));
			assertThat(this.supervisor.waitingCalls()).isZero();
		}
		finally {
			Thread.interrupted();
		}
	}

	@Test
	void aTimeoutOfALiveServerIsReturnedAsTheCallsFailure() {
		startStableBeforeTheFirstProbe();
		this.connector.last().onCall = timeout();
		assertThatExceptionOfType(IllegalStateException.class).isThrownBy(() -> call("read"))
			.withRootCauseInstanceOf(TimeoutException.class);
		assertThat(this.connector.pings).isOne();
		this.scheduler.runReady();
		assertThat(this.supervisor.state()).isEqualTo(McpServerState.UP);
		assertThat(this.connector.spawns()).isOne();
	}

	@Test
	void aTimeoutOfAServerThatNoLongerAnswersEndsItsGenerationAndTheCallIsRetried() throws Exception {
		startStableBeforeTheFirstProbe();
		this.connector.last().onCall = timeout();
		this.connector.answersPings = false;
		CompletableFuture<CallToolResult> call = callAsync("read");
		await().until(() -> this.supervisor.waitingCalls() == 1);
		this.connector.answersPings = true;
		this.scheduler.runReady();
		assertThat(this.supervisor.status().lastError()).contains("liveness: no reply to ping after a request timeout");
		this.scheduler.advance(INITIAL);
		assertThat(call.get(10, TimeUnit.SECONDS).content().toString()).contains("read from g2");
		assertThat(this.restarts).containsExactly(RestartCause.LIVENESS);
	}

	@Test
	void aCallThatOutlastsItsToolsOwnTimeoutIsProbedAsATimedOutCall() throws Exception {
		startStableBeforeTheFirstProbe();
		this.connector.last().onCall = (request) -> {
			throw CallTimeouts.timedOut("demo", "tool '" + request.name() + "'", Duration.ofMillis(300));
		};
		assertThatExceptionOfType(IllegalStateException.class).isThrownBy(() -> call("read"))
			.withMessage("MCP server 'demo': tool 'read' timed out after 300 ms");
		assertThat(this.connector.pings).as("the server answered the probe: slow, not hung").isOne();
		this.connector.answersPings = false;
		CompletableFuture<CallToolResult> hung = callAsync("read");
		await().until(() -> this.supervisor.waitingCalls() == 1);
		this.connector.answersPings = true;
		this.scheduler.runReady();
		assertThat(this.supervisor.status().lastError()).contains("liveness: no reply to ping after a request timeout");
		this.scheduler.advance(INITIAL);
		assertThat(hung.get(10, TimeUnit.SECONDS).content().toString()).contains("read from g2");
		assertThat(this.restarts).containsExactly(RestartCause.LIVENESS);
	}

	@Test
	void theLivenessProbeEndsAGenerationAfterTheThresholdOfUnansweredPings() {
		startStableBeforeTheFirstProbe();
		this.connector.answersPings = false;
		this.scheduler.advance(PROBE.interval());
		assertThat(this.supervisor.state()).isEqualTo(McpServerState.UP);
		FakeConnection first = this.connector.last();
		this.scheduler.advance(PROBE.interval());
		assertThat(first.terminated).isTrue();
		assertThat(this.restarts).containsExactly(RestartCause.LIVENESS);
		assertThat(this.supervisor.status().lastError())
			.isEqualTo("connection lost: liveness: no reply to ping (2 in a row, 5000 ms each)");
		assertThat(this.supervisor.state()).isEqualTo(McpServerState.UP);
		assertThat(this.supervisor.status().generation()).isEqualTo(2);
	}

	@Test
	void aHungGenerationThatCannotBeKilledIsGivenUpInsteadOfStayingUp() {
		startStableBeforeTheFirstProbe();
		this.connector.answersPings = false;
		this.connector.terminationConfirmed = false;
		this.scheduler.advance(PROBE.interval().multipliedBy(2));
		assertThat(this.connector.last().terminated).isTrue();
		assertThat(this.supervisor.state()).isEqualTo(McpServerState.FAILED);
		assertThat(this.supervisor.status().lastError()).contains("generation 1 could not be confirmed gone");
		assertThat(this.connector.spawns()).isOne();
	}

	@Test
	void aPingThatThrowsCountsAsUnansweredAndProbingGoesOn() {
		startStableBeforeTheFirstProbe();
		this.connector.pingsThrow = true;
		this.scheduler.advance(PROBE.interval().multipliedBy(2));
		assertThat(this.restarts).containsExactly(RestartCause.LIVENESS);
		assertThat(this.supervisor.status().generation()).isEqualTo(2);
	}

	@Test
	void unansweredPingsWhileACallIsInFlightAreNotCounted() {
		startStableBeforeTheFirstProbe();
		this.connector.answersPings = false;
		this.connector.callsInFlight = 1;
		this.scheduler.advance(PROBE.interval().multipliedBy(4));
		assertThat(this.supervisor.status().generation()).isOne();
		assertThat(this.restarts).isEmpty();
		this.connector.callsInFlight = 0;
		this.scheduler.advance(PROBE.interval().multipliedBy(2));
		assertThat(this.restarts).containsExactly(RestartCause.LIVENESS);
	}

	@Test
	void anyMessageWhileAPingWaitsCountsAsAlive() {
		startStableBeforeTheFirstProbe();
		this.connector.answersPings = false;
		this.connector.messagesDuringPings = true;
		this.scheduler.advance(PROBE.interval().multipliedBy(4));
		assertThat(this.supervisor.status().generation()).isOne();
		assertThat(this.restarts).isEmpty();
	}

	@Test
	void aCallThatTimesOutWhileAnotherCallIsInFlightFailsWithoutEndingTheGeneration() {
		startStableBeforeTheFirstProbe();
		this.connector.last().onCall = timeout();
		this.connector.answersPings = false;
		this.connector.callsInFlight = 1;
		assertThatExceptionOfType(IllegalStateException.class).isThrownBy(() -> call("read"))
			.withMessage("request timed out");
		this.scheduler.runReady();
		assertThat(this.connector.last().terminated).isFalse();
		assertThat(this.supervisor.status().generation()).isOne();
	}

	@Test
	void anAnsweredPingResetsTheCountOfFailures() {
		startStableBeforeTheFirstProbe();
		this.connector.answersPings = false;
		this.scheduler.advance(PROBE.interval());
		this.connector.answersPings = true;
		this.scheduler.advance(PROBE.interval());
		this.connector.answersPings = false;
		this.scheduler.advance(PROBE.interval());
		assertThat(this.supervisor.state()).isEqualTo(McpServerState.UP);
		assertThat(this.connector.pings).isEqualTo(3);
	}

	@Test
	void theProbeStopsWithItsGeneration() {
		startStableBeforeTheFirstProbe();
		int pings = this.connector.pings;
		this.supervisor.stop();
		this.scheduler.advance(Duration.ofHours(1));
		assertThat(this.connector.pings).isEqualTo(pings);
		assertThat(this.scheduler.pendingTimers()).isZero();
	}

	private Function<CallToolRequest, CallToolResult> timeout() {
		return (request) -> {
			throw new IllegalStateException("request timed out", new TimeoutException("20000 ms"));
		};
	}

	private void crashDuringNextCall() {
		FakeConnection live = this.connector.last();
		live.onCall = (request) -> {
			live.crash(137);
			throw new IllegalStateException("MCP session with server terminated");
		};
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
	 * Starts, stays up past the stability window (the next loss opens a fresh outage),
	 * and stops the clock just short of the first liveness probe.
	 */
	private void startStableBeforeTheFirstProbe() {
		startUp();
		this.scheduler.advance(PROBE.interval().minusSeconds(1));
		assertThat(PROBE.interval().minusSeconds(1)).isGreaterThan(this.supervisor.policy().stabilityWindow());
		assertThat(this.supervisor.status().attemptsUsed()).isZero();
	}

	private CallToolResult call(String tool) {
		return this.supervisor.callTool(CallToolRequest.builder(tool).arguments(Map.of()).build());
	}

	private CompletableFuture<CallToolResult> callAsync(String tool) {
		return CompletableFuture.supplyAsync(() -> call(tool));
	}

	private McpServerSupervisor supervisor(CallPolicy callPolicy, HealthCheckPolicy healthCheck) {
		return McpServerSupervisor.builder("demo", this.connector, this.scheduler)
			.reconnect(ReconnectPolicy.builder()
				.initialDelay(INITIAL)
				.maxDelay(Duration.ofSeconds(10))
				.maxAttempts(4)
				.jitter(0)
				.build())
			.calls(callPolicy)
			.healthCheck(healthCheck)
			.listener(new SupervisorListener() {

				@Override
				public void restarting(String server, RestartCause cause) {
					McpServerSupervisorCallTests.this.restarts.add(cause);
				}

			})
			.build();
	}

	private static Tool tool(String name, Boolean readOnly, Boolean idempotent) {
		return Tool.builder(name, Map.of("type", "object"))
			.annotations(ToolAnnotations.builder().readOnlyHint(readOnly).idempotentHint(idempotent).build())
			.build();
	}

}
