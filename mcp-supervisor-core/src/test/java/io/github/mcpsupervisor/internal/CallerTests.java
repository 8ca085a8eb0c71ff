package io.github.mcpsupervisor.internal;

import io.modelcontextprotocol.common.McpTransportContext;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Mono;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link Caller}.
 */
class CallerTests {

	@Test
	void theCallerReachesTheTransportContextOfItsRequestsOnly() {
		Mono<Object> request = Mono.deferContextual((context) -> Mono
			.justOrEmpty(Caller.of(context.getOrDefault(McpTransportContext.KEY, McpTransportContext.EMPTY))));
		Object seen = Caller.of("ada").call(() -> request.contextWrite(Caller.carried()).block());
		assertThat(seen).isEqualTo(Caller.of("ada"));
		assertThat(request.contextWrite(Caller.carried()).block()).isNull();
		assertThat(Caller.current()).isNull();
	}

	@Test
	void subscriptionsAndNotificationsActForTheApplication() {
		assertThat(Caller.actsForApplication("resources/read")).isFalse();
		assertThat(Caller.actsForApplication("tools/call")).isFalse();
		assertThat(Caller.actsForApplication("resources/subscribe")).isTrue();
		assertThat(Caller.actsForApplication("resources/unsubscribe")).isTrue();
		assertThat(Caller.actsForApplication("notifications/roots/list_changed")).isTrue();
	}

	@Test
	void aRequestOfTheSupervisorsOwnHasNoCallerAndTheCallersIsRestored() {
		Caller.of("ada").call(() -> {
			assertThat(Caller.none(Caller::current)).isNull();
			assertThat(Caller.current()).isEqualTo(Caller.of("ada"));
			return null;
		});
	}

	@Test
	void aNestedCallerIsUndoneOnReturn() {
		Caller.of("ada").call(() -> {
			Caller.NO_USER.call(() -> assertThat(Caller.current()).isEqualTo(Caller.NO_USER));
			assertThat(Caller.current()).isEqualTo(Caller.of("ada"));
			return null;
		});
		assertThat(Caller.current()).isNull();
	}

	@Test
	void theUserIsNeverInTheCallersText() {
		assertThat(Caller.of("ada")).hasToString("Caller[a user]");
		assertThat(Caller.NO_USER).hasToString("Caller[no user]");
	}

}
