package io.github.mcpsupervisor.transport.internal.modern;

import java.util.List;
import java.util.Map;

import io.modelcontextprotocol.json.McpJsonDefaults;
import io.modelcontextprotocol.modern.McpSchema.Annotations;
import io.modelcontextprotocol.modern.McpSchema.ImageContent;
import io.modelcontextprotocol.modern.McpSchema.Role;
import io.modelcontextprotocol.modern.McpSchema.TextContent;
import io.modelcontextprotocol.spec.McpSchema;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link ModernSchema}.
 */
class ModernSchemaTests {

	private final ModernSchema schema = new ModernSchema(McpJsonDefaults.getMapper());

	@Test
	void aCallResultOfPlainTextIsTheResultItsJsonFormGives() {
		var result = new io.modelcontextprotocol.modern.McpSchema.CallToolResult(
				List.of(new TextContent(null, "one", Map.of("k", "v")), new TextContent(null, "two", null)),
				Map.of("count", 2, "items", List.of("a")), true, "complete", Map.of("trace", "t-1"));
		McpSchema.CallToolResult converted = this.schema.callToolResult(result);
		assertThat(converted).isEqualTo(this.schema.convert(result, McpSchema.CallToolResult.class));
		assertThat(converted.content()).containsExactly(new McpSchema.TextContent(null, "one", Map.of("k", "v")),
				new McpSchema.TextContent(null, "two", null));
		assertThat(converted.isError()).isTrue();
		assertThat(converted.structuredContent()).isEqualTo(Map.of("count", 2, "items", List.of("a")));
		assertThat(converted.meta()).containsEntry("trace", "t-1");
	}

	@Test
	void aCallResultWithOtherContentKeepsWhatItsJsonFormHas() {
		var result = new io.modelcontextprotocol.modern.McpSchema.CallToolResult(
				List.of(new TextContent(new Annotations(List.of(Role.USER), 0.5, null), "annotated", null),
						new ImageContent(null, "aW1n", "image/png", null)),
				null, null, "complete", null);
		McpSchema.CallToolResult converted = this.schema.callToolResult(result);
		assertThat(converted).isEqualTo(this.schema.convert(result, McpSchema.CallToolResult.class));
		assertThat(converted.content()).hasSize(2);
		assertThat(((McpSchema.TextContent) converted.content().get(0)).annotations().priority()).isEqualTo(0.5);
		assertThat(((McpSchema.ImageContent) converted.content().get(1)).mimeType()).isEqualTo("image/png");
	}

}
