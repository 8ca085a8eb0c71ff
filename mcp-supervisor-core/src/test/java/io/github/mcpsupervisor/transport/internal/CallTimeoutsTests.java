package io.github.mcpsupervisor.transport.internal;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.TimeoutException;

import io.github.mcpsupervisor.internal.CauseChain;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Mono;
import reactor.test.StepVerifier;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Each tool call's own timeout, on virtual time: which bound a call gets, that it fails
 * on time naming the server, the tool and the timeout, and that the one timer the SDK
 * gives every request (fixed per client, set to the longest bound) never cuts a long call
 * short.
 */
class CallTimeoutsTests {

	private static final Duration REQUEST_TIMEOUT = Duration.ofSeconds(20);

	private final CallTimeouts timeouts = new CallTimeouts(REQUEST_TIMEOUT,
			Map.of("run_code", Duration.ofMinutes(5), "lookup", Duration.ofSeconds(2)));

	@Test
	void aToolWithoutATimeoutOfItsOwnKeepsTheRequestTimeout() {
		assertThat(this.timeouts.of("run_code")).isEqualTo(Duration.ofMinutes(5));
		assertThat(this.timeouts.of("lookup")).isEqualTo(Duration.ofSeconds(2));
		assertThat(this.timeouts.of("echo")).isEqualTo(REQUEST_TIMEOUT);
	}

	@Test
	void theLongestBoundIsTheLongestOfTheRequestTimeoutAndTheToolsTimeouts() {
		assertThat(this.timeouts.longest()).isEqualTo(Duration.ofMinutes(5));
		assertThat(new CallTimeouts(REQUEST_TIMEOUT, Map.of("lookup", Duration.ofSeconds(2))).longest())
			.as("a shorter tool timeout does not shorten the other requests' bound")
			.isEqualTo(REQUEST_TIMEOUT);
		assertThat(new CallTimeouts(REQUEST_TIMEOUT, Map.of()).longest()).isEqualTo(REQUEST_TIMEOUT);
	}

	@Test
	void aCallShorterThanTheRequestTimeoutFailsOnItsOwnTimeNamingServerToolAndTimeout() {
		StepVerifier.withVirtualTime(() -> this.timeouts.call(sdkTimer(Mono.never()), "files", "lookup"))
			.expectSubscription()
			.expectNoEvent(Duration.ofMillis(1999))
			.thenAwait(Duration.ofMillis(1))
			.expectErrorSatisfies((ex) -> {
				assertThat(ex).hasMessage("MCP server 'files': tool 'lookup' timed out after 2000 ms");
				assertThat(CallTimeouts.isTimedOut(ex)).isTrue();
				assertThat(CauseChain.hasCause(ex, TimeoutException.class))
					.as("probed by the supervisor as every timed-out call is")
					.isTrue();
			})
			.verify(Duration.ofSeconds(5));
	}

	@Test
	void aCallLongerThanTheRequestTimeoutIsNotCutShortWithinItsOwnTimeout() {
		StepVerifier
			.withVirtualTime(() -> this.timeouts.call(sdkTimer(Mono.delay(Duration.ofMinutes(3)).thenReturn("done")),
					"files", "run_code"))
			.expectSubscription()
			.expectNoEvent(REQUEST_TIMEOUT.plusSeconds(1))
			.thenAwait(Duration.ofMinutes(3))
			.expectNext("done")
			.verifyComplete();
	}

	@Test
	void aCallLongerThanItsOwnTimeoutFailsAtIt() {
		StepVerifier
			.withVirtualTime(() -> this.timeouts.call(sdkTimer(Mono.delay(Duration.ofMinutes(7)).thenReturn("done")),
					"files", "run_code"))
			.expectSubscription()
			.expectNoEvent(Duration.ofMinutes(5).minusMillis(1))
			.thenAwait(Duration.ofMillis(1))
			.expectErrorMessage("MCP server 'files': tool 'run_code' timed out after 300000 ms")
			.verify(Duration.ofSeconds(5));
	}

	@Test
	void aCallOfAToolWithoutATimeoutOfItsOwnFailsAtTheRequestTimeout() {
		StepVerifier.withVirtualTime(() -> this.timeouts.call(sdkTimer(Mono.never()), "files", "echo"))
			.expectSubscription()
			.expectNoEvent(REQUEST_TIMEOUT.minusMillis(1))
			.thenAwait(Duration.ofMillis(1))
			.expectErrorMessage("MCP server 'files': tool 'echo' timed out after 20000 ms")
			.verify(Duration.ofSeconds(5));
	}

	@Test
	void anotherRequestHasTheRequestTimeout() {
		StepVerifier.withVirtualTime(() -> this.timeouts.request(Mono.never(), "files", "resources/read"))
			.expectSubscription()
			.expectNoEvent(REQUEST_TIMEOUT.minusMillis(1))
			.thenAwait(Duration.ofMillis(1))
			.expectErrorMessage("MCP server 'files': request 'resources/read' timed out after 20000 ms")
			.verify(Duration.ofSeconds(5));
	}

	@Test
	void theCallIsCancelledWhenItTimesOut() {
		boolean[] cancelled = { false };
		StepVerifier
			.withVirtualTime(
					() -> this.timeouts.call(Mono.never().doOnCancel(() -> cancelled[0] = true), "files", "lookup"))
			.expectSubscription()
			.thenAwait(Duration.ofSeconds(2))
			.expectError(IllegalStateException.class)
			.verify(Duration.ofSeconds(5));
		assertThat(cancelled[0]).as("the request below, which RequestScope then cancels at the server").isTrue();
	}

	// The SDK's own timer of every request, as the client is built with it: the
	// longest bound, on the request below the call's own timer.
	private <T> Mono<T> sdkTimer(Mono<T> call) {
		return call.timeout(this.timeouts.longest());
	}

}
