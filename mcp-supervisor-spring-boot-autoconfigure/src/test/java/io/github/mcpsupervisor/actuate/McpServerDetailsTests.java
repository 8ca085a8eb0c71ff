package io.github.mcpsupervisor.actuate;

import java.lang.reflect.RecordComponent;
import java.net.URI;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;

import io.github.mcpsupervisor.actuate.McpEndpoint.McpServerDetails;
import io.github.mcpsupervisor.authorization.McpAuthorizationRequest;
import io.github.mcpsupervisor.authorization.McpServerAuthorizations.McpAuthorizationState;
import io.github.mcpsupervisor.authorization.McpServerAuthorizations.McpServerAuthorization;
import io.github.mcpsupervisor.supervisor.McpServerState;
import io.github.mcpsupervisor.supervisor.McpServerStatus;
import io.github.mcpsupervisor.supervisor.McpStandbyStatus;
import io.github.mcpsupervisor.supervisor.McpStandbyStatus.McpStandbyState;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What health and the endpoint show of a server given up: when it tries again after its
 * cooldown, or that no attempt is planned.
 */
class McpServerDetailsTests {

	private static final Instant NOW = Instant.parse("2026-01-01T00:00:00Z");

	private final Clock clock = Clock.fixed(NOW, ZoneOffset.UTC);

	@Test
	void aServerCoolingDownShowsItsCooldownAndTheTimeToItsNextAttempt() {
		McpServerDetails details = McpServerDetails.of(failed(NOW.plus(Duration.ofMinutes(3)), Duration.ofMinutes(5)),
				true, 0, this.clock);
		assertThat(details.nextAttemptIn()).isEqualTo(Duration.ofMinutes(3));
		assertThat(details.cooldown()).isEqualTo(Duration.ofMinutes(5));
		JsonNode json = JsonMapper.builder().build().valueToTree(details);
		assertThat(json.get("nextAttemptIn").asString()).isEqualTo("PT3M");
		assertThat(json.get("cooldown").asString()).isEqualTo("PT5M");
	}

	@Test
	void aServerGivenUpWithoutACooldownShowsNoAttemptPlanned() {
		McpServerDetails details = McpServerDetails.of(failed(null, null), true, 0, this.clock);
		assertThat(details.nextAttemptIn()).isNull();
		assertThat(details.cooldown()).isNull();
		JsonNode json = JsonMapper.builder().build().valueToTree(details);
		assertThat(json.has("nextAttemptIn")).isFalse();
		assertThat(json.has("cooldown")).isFalse();
	}

	@Test
	void aServerWithAWarmStandbyShowsItsSpare() {
		McpStandbyStatus spare = new McpStandbyStatus(McpStandbyState.BACKING_OFF, null, null, 2, 10,
				NOW.plus(Duration.ofSeconds(4)), "spare ended: exit code 1", 3);
		McpServerStatus up = new McpServerStatus("files", McpServerState.UP, 4, 4242L, NOW.minusSeconds(60), 0, 10,
				null, null, null, List.of(), List.of(), "2025-11-25", null, spare);
		JsonNode json = JsonMapper.builder().build().valueToTree(McpServerDetails.of(up, true, 0, this.clock));
		JsonNode standby = json.get("standby");
		assertThat(standby.get("state").asString()).isEqualTo("BACKING_OFF");
		assertThat(standby.get("attempts").asInt()).isEqualTo(2);
		assertThat(standby.get("maxAttempts").asInt()).isEqualTo(10);
		assertThat(standby.get("nextAttemptIn").asString()).isEqualTo("PT4S");
		assertThat(standby.get("lastError").asString()).isEqualTo("spare ended: exit code 1");
		assertThat(standby.get("promotions").asLong()).isEqualTo(3);
		assertThat(standby.has("pid")).isFalse();
		assertThat(standby.has("generation")).isFalse();
		McpStandbyStatus ready = new McpStandbyStatus(McpStandbyState.READY, 5, 4343L, 0, 10, null, null, 3);
		McpServerDetails details = McpServerDetails.of(new McpServerStatus("files", McpServerState.UP, 4, 4242L,
				NOW.minusSeconds(60), 0, 10, null, null, null, List.of(), List.of(), "2025-11-25", null, ready), true,
				0, this.clock);
		assertThat(details.standby())
			.isEqualTo(new McpServerDetails.Standby(McpStandbyState.READY, 5, 4343L, 0, 10, null, null, 3));
		assertThat(details.pid()).as("the serving process").isEqualTo(4242L);
	}

	@Test
	void aServerWithoutAStandbyShowsNone() {
		JsonNode json = JsonMapper.builder()
			.build()
			.valueToTree(McpServerDetails.of(failed(null, null), true, 0, this.clock));
		assertThat(json.has("standby")).isFalse();
	}

	@Test
	void asHealthDetailsEveryValueIsShownAsInTheJsonOfTheDetails() {
		McpServerDetails all = new McpServerDetails(McpServerState.NEEDS_AUTHORIZATION, true, 4, 4242L,
				Duration.ofSeconds(60), 2, 10, Duration.ofSeconds(3), new McpServerDetails.Exit(137, 9, "signal 9"),
				"lost", List.of("boom"), 2, "2025-11-25",
				new McpServerDetails.Authorization(URI.create("http://127.0.0.1:2/authorize"), List.of("mcp:read"),
						Duration.ofMinutes(10)),
				new McpServerDetails.OAuth("jdbc", Instant.parse("2026-12-05T10:00:00Z"), Duration.ofMinutes(4), true),
				Duration.ofMinutes(5),
				new McpServerDetails.Standby(McpStandbyState.READY, 5, 4343L, 0, 10, null, null, 3));
		JsonMapper json = JsonMapper.builder().build();
		assertThat((JsonNode) json.valueToTree(all.asMap())).isEqualTo(json.valueToTree(all));
		assertThat(all.asMap().keySet()).containsExactly(Arrays.stream(McpServerDetails.class.getRecordComponents())
			.map(RecordComponent::getName)
			.toArray(String[]::new));
		McpServerDetails few = McpServerDetails.of(failed(null, null), false, 0, this.clock);
		assertThat((JsonNode) json.valueToTree(few.asMap())).isEqualTo(json.valueToTree(few));
	}

	@Test
	void anOAuthServerShowsWhereItsAuthorizationIsKeptAndItsLastRenewalButTheAwaitedUrlOnlyWhereAsked() {
		Instant renewed = NOW.minus(Duration.ofMinutes(2));
		McpAuthorizationRequest awaited = new McpAuthorizationRequest("flaky", "people",
				URI.create("http://127.0.0.1:2/authorize?state=s"), List.of("mcp:read"), NOW.plusSeconds(600));
		McpServerAuthorization oauth = authorization(() -> Optional.of(awaited),
				() -> new McpAuthorizationState("jdbc", renewed, NOW.plusSeconds(180), true));
		McpServerDetails health = McpServerDetails.of(failed(null, null), true, 5, this.clock, oauth, false);
		assertThat(health.authorization()).isNull();
		assertThat(health.oauth()).isEqualTo(new McpServerDetails.OAuth("jdbc", renewed, Duration.ofMinutes(3), true));
		McpServerDetails endpoint = McpServerDetails.of(failed(null, null), true, 0, this.clock, oauth, true);
		assertThat(endpoint.authorization()).isNotNull();
		assertThat(endpoint.authorization().uri()).isEqualTo(awaited.authorizationUri());
		assertThat(endpoint.oauth()).isEqualTo(health.oauth());
	}

	@Test
	void aStoreThatCannotBeReadLeavesTheAuthorizationOutInsteadOfFailingHealth() {
		McpServerAuthorization unreadable = authorization(() -> {
			throw new IllegalStateException("the database is down");
		}, () -> {
			throw new IllegalStateException("the database is down");
		});
		McpServerDetails details = McpServerDetails.of(failed(null, null), true, 0, this.clock, unreadable, true);
		assertThat(details.authorization()).isNull();
		assertThat(details.oauth()).isNull();
		assertThat(details.state()).isEqualTo(McpServerState.FAILED);
	}

	private static McpServerAuthorization authorization(Supplier<Optional<McpAuthorizationRequest>> pending,
			Supplier<McpAuthorizationState> state) {
		return new McpServerAuthorization() {

			@Override
			public Optional<McpAuthorizationRequest> pending() {
				return pending.get();
			}

			@Override
			public boolean awaits(String awaited) {
				return false;
			}

			@Override
			public void complete(String awaited, String code, @Nullable String issuer) {
			}

			@Override
			public McpAuthorizationState state() {
				return state.get();
			}

		};
	}

	private static McpServerStatus failed(Instant nextAttemptAt, Duration cooldown) {
		return new McpServerStatus("flaky", McpServerState.FAILED, 3, null, null, 3, 3, nextAttemptAt, null,
				"gave up after 3 attempts", List.of(), List.of(), null, cooldown, null);
	}

}
