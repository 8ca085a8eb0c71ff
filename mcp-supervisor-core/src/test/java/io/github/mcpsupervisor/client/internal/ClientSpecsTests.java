package io.github.mcpsupervisor.client.internal;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link ClientSpecs}.
 */
class ClientSpecsTests {

	@Test
	void theClientAnnouncesTheProjectsNameAndVersion() {
		assertThat(ClientSpecs.CLIENT.name()).isEqualTo("mcp-supervisor");
		assertThat(ClientSpecs.CLIENT.version()).isEqualTo(System.getProperty("mcpsupervisor.test.project-version"))
			.isNotBlank();
	}

}
