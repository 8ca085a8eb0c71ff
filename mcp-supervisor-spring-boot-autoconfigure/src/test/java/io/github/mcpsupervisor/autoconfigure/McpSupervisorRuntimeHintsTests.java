package io.github.mcpsupervisor.autoconfigure;

import io.modelcontextprotocol.client.McpSyncClient;
import org.junit.jupiter.api.Test;

import org.springframework.aot.hint.RuntimeHints;
import org.springframework.aot.hint.predicate.RuntimeHintsPredicates;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link McpSupervisorRuntimeHints}.
 */
class McpSupervisorRuntimeHintsTests {

	@Test
	void theFieldThatSyncClientsReadIsRegisteredForReflection() {
		RuntimeHints hints = new RuntimeHints();
		new McpSupervisorRuntimeHints().registerHints(hints, getClass().getClassLoader());
		assertThat(RuntimeHintsPredicates.reflection().onFieldAccess(McpSyncClient.class, "delegate")).accepts(hints);
	}

}
