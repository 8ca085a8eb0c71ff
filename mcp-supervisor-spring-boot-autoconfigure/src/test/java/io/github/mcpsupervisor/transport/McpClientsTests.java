package io.github.mcpsupervisor.transport;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link McpClients}.
 */
class McpClientsTests {

	@Test
	void theClientAnnouncesTheProjectsNameAndVersion() {
		assertThat(McpClients.CLIENT_INFO.name()).isEqualTo("mcp-supervisor");
		assertThat(McpClients.CLIENT_INFO.version()).isEqualTo(System.getProperty("mcp.test.project-version"))
			.isNotBlank();
	}

}
