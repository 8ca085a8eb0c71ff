package io.github.mcpsupervisor.client.internal;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/**
 * The bounds of a server's sampling requests, on a clock of the test's.
 */
class SamplingGateTests {

	private Instant now = Instant.parse("2026-01-01T00:00:00Z");

	private final Clock clock = new Clock() {

		@Override
		public ZoneOffset getZone() {
			return ZoneOffset.UTC;
		}

		@Override
		public Clock withZone(java.time.ZoneId zone) {
			return this;
		}

		@Override
		public Instant instant() {
			return SamplingGateTests.this.now;
		}

	};

	@Test
	void theRateRefillsEvenlyOverAMinuteAndNeverAboveItsBound() {
		SamplingGate gate = new SamplingGate("files", new SamplingLimits(10, 2, 100), this.clock);
		assertThat(admitAndRelease(gate)).isNull();
		assertThat(admitAndRelease(gate)).isNull();
		assertThat(admitAndRelease(gate)).contains("more than 2 sampling requests within a minute")
			.contains("sampling.max-per-minute");
		this.now = this.now.plus(Duration.ofSeconds(29));
		assertThat(admitAndRelease(gate)).as("half a token after 29 s").isNotNull();
		this.now = this.now.plus(Duration.ofSeconds(1));
		assertThat(admitAndRelease(gate)).as("one token after 30 s").isNull();
		this.now = this.now.plus(Duration.ofHours(1));
		assertThat(admitAndRelease(gate)).isNull();
		assertThat(admitAndRelease(gate)).isNull();
		assertThat(admitAndRelease(gate)).as("an idle hour refills 2, not 120").isNotNull();
	}

	@Test
	void requestsInFlightAreBoundedUntilReleasedAndARefusalCostsNoRate() {
		SamplingGate gate = new SamplingGate("files", new SamplingLimits(1, 2, 100), this.clock);
		assertThat(gate.admit()).isNull();
		assertThat(gate.admit()).contains("already has 1 sampling request(s) in flight")
			.contains("sampling.max-concurrent");
		assertThat(gate.admit()).isNotNull();
		gate.release();
		assertThat(gate.admit()).as("the second token is left").isNull();
	}

	@Test
	void maxTokensOverTheCapIsLoweredToItAndTheRestIsKept() {
		SamplingGate gate = new SamplingGate("files", new SamplingLimits(1, 1, 100), this.clock);
		assertThat(gate.capped(Map.of("maxTokens", 100_000, "systemPrompt", "be brief")))
			.isEqualTo(Map.of("maxTokens", 100, "systemPrompt", "be brief"));
		Map<String, Object> within = Map.of("maxTokens", 100);
		assertThat(gate.capped(within)).isSameAs(within);
	}

	@Test
	void maxTokensThatIsNotANumberIsReplacedByTheCap() {
		// the SDK's JSON mapper coerces "1000000" to 1000000 for the handler
		SamplingGate gate = new SamplingGate("files", new SamplingLimits(1, 1, 100), this.clock);
		assertThat(gate.capped(Map.of("maxTokens", "1000000"))).isEqualTo(Map.of("maxTokens", 100));
		assertThat(gate.capped(Map.of("maxTokens", List.of(1_000_000)))).isEqualTo(Map.of("maxTokens", 100));
		Map<String, Object> without = Map.of("systemPrompt", "be brief");
		assertThat(gate.capped(without)).isSameAs(without);
	}

	@Test
	void boundsMustBePositive() {
		assertThatIllegalArgumentException().isThrownBy(() -> new SamplingLimits(0, 1, 1))
			.withMessageContaining("max-concurrent=0");
	}

	private static String admitAndRelease(SamplingGate gate) {
		String refusal = gate.admit();
		if (refusal == null) {
			gate.release();
		}
		return refusal;
	}

}
