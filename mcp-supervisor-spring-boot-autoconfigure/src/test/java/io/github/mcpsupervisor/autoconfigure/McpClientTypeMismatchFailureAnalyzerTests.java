package io.github.mcpsupervisor.autoconfigure;

import java.util.List;

import io.github.mcpsupervisor.autoconfigure.properties.McpClientType;
import org.junit.jupiter.api.Test;

import org.springframework.boot.diagnostics.FailureAnalysis;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link McpClientTypeMismatchFailureAnalyzer}.
 */
class McpClientTypeMismatchFailureAnalyzerTests {

	@Test
	void namesTheCustomizersAndBothWaysOut() {
		FailureAnalysis analysis = new McpClientTypeMismatchFailureAnalyzer()
			.analyze(new McpClientTypeMismatchException(McpClientType.SYNC, List.of("com.example.Sampling")));
		assertThat(analysis.getDescription())
			.isEqualTo(String.format("mcp.client-type is sync, but these McpClientCustomizer<McpClient.AsyncSpec> beans"
					+ " were found:%n    - com.example.Sampling%nThey would not be applied to any MCP client."));
		assertThat(analysis.getAction()).isEqualTo("Either set mcp.client-type=async (the equivalent of"
				+ " spring.ai.mcp.client.type), or rewrite them as McpClientCustomizer<McpClient.SyncSpec> beans.");
	}

}
