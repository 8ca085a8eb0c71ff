package io.github.mcpsupervisor.autoconfigure;

import io.github.mcpsupervisor.client.internal.ClientHandlers;
import io.modelcontextprotocol.client.McpAsyncClient;
import io.modelcontextprotocol.client.McpClient;
import io.modelcontextprotocol.spec.McpSchema.ClientCapabilities;
import io.modelcontextprotocol.spec.McpSchema.ElicitResult;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Mono;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link ClientHandlerFields}: the handlers of a client as the SDK keeps them.
 */
class ClientHandlerFieldsTests {

	@Test
	@SuppressWarnings("deprecation") // sampling: 2026-07-28 deprecates it
	void theHandlersOfTheDeclaredCapabilitiesAreRead() {
		McpAsyncClient client = McpClient.async(new ClientHandlerFields.Unconnected())
			.capabilities(ClientCapabilities.builder().sampling().elicitation().build())
			.sampling((request) -> Mono.empty())
			.elicitation((request) -> Mono.just(new ElicitResult(ElicitResult.Action.DECLINE, null, null)))
			.applyElicitationDefaults(true)
			.build();
		ClientHandlers handlers = ClientHandlerFields.of(client);
		assertThat(handlers.sampling()).isNotNull();
		assertThat(handlers.formElicitation()).isNotNull();
		assertThat(handlers.urlElicitation()).isNull();
		assertThat(handlers.elicitationDefaults()).isTrue();
	}

	@Test
	void aClientWithoutCapabilitiesAnswersNothing() {
		McpAsyncClient client = McpClient.async(new ClientHandlerFields.Unconnected()).build();
		assertThat(ClientHandlerFields.of(client)).isEqualTo(ClientHandlers.NONE);
	}

}
