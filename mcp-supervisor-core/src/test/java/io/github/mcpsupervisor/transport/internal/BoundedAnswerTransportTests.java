package io.github.mcpsupervisor.transport.internal;

import java.util.List;
import java.util.Map;

import io.modelcontextprotocol.spec.McpSchema;
import io.modelcontextprotocol.spec.McpSchema.JSONRPCResponse;
import io.modelcontextprotocol.spec.McpSchema.JSONRPCResponse.JSONRPCError;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What of a server's errors the SDK's client gets, and so logs.
 */
class BoundedAnswerTransportTests {

	private final BoundedAnswerTransport transport = new BoundedAnswerTransport(new RecordingClientTransport(), "files",
			(text) -> text.replace("tok-8f3a9c2e71", "******"));

	@Test
	void theStringsOfAnErrorsDataAreOnOneLineAndMasked() {
		String forged = "\n2026-12-01 ERROR forged tok-8f3a9c2e71";
		JSONRPCError error = new JSONRPCError(-32603, "failed",
				Map.of("detail" + forged, List.of("why" + forged, 42), "code", 7));
		JSONRPCResponse bounded = (JSONRPCResponse) this.transport
			.bounded(new JSONRPCResponse(McpSchema.JSONRPC_VERSION, 1, null, error));
		String logged = bounded.error().toString();
		assertThat(logged).doesNotContain("\n").doesNotContain("tok-8f3a9c2e71").contains("ERROR forged ******");
		assertThat(bounded.error().data()).isEqualTo(Map.of("detail 2026-12-01 ERROR forged ******",
				List.of("why 2026-12-01 ERROR forged ******", 42), "code", 7));
	}

	@Test
	void anErrorWithPlainDataIsPassedAsItIs() {
		JSONRPCResponse response = new JSONRPCResponse(McpSchema.JSONRPC_VERSION, 1, null,
				new JSONRPCError(-32603, "failed", Map.of("code", 7, "reason", "busy")));
		assertThat(this.transport.bounded(response)).isSameAs(response);
	}

}
