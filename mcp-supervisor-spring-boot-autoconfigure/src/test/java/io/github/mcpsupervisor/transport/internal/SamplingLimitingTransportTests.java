package io.github.mcpsupervisor.transport.internal;

import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;

import io.github.mcpsupervisor.client.internal.SamplingGate;
import io.github.mcpsupervisor.supervisor.SamplingLimits;
import io.modelcontextprotocol.spec.McpSchema;
import io.modelcontextprotocol.spec.McpSchema.JSONRPCMessage;
import io.modelcontextprotocol.spec.McpSchema.JSONRPCRequest;
import io.modelcontextprotocol.spec.McpSchema.JSONRPCResponse;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The sampling bounds where a server's requests pass below the client.
 */
class SamplingLimitingTransportTests {

	private final RecordingClientTransport server = new RecordingClientTransport();

	private final SamplingGate gate = new SamplingGate("files", new SamplingLimits(2, 100, 100), Clock.systemUTC());

	private final SamplingLimitingTransport transport = new SamplingLimitingTransport(this.server, this.gate);

	@Test
	void aRequestReusingTheIdOfOneInFlightIsRefusedAndCostsNoSlot() {
		List<JSONRPCMessage> admitted = new CopyOnWriteArrayList<>();
		this.transport.connect((message) -> message.doOnNext(admitted::add)).block();
		this.server.receive(sampling("a"));
		this.server.receive(sampling("a"));
		assertThat(admitted).hasSize(1);
		assertThat(this.server.sent).singleElement()
			.satisfies((message) -> assertThat(((JSONRPCResponse) message).error().message())
				.contains("sent the id of a sampling request still in flight"));
		this.transport.sendMessage(new JSONRPCResponse(McpSchema.JSONRPC_VERSION, "a", Map.of(), null)).block();
		this.server.receive(sampling("b"));
		this.server.receive(sampling("c"));
		assertThat(admitted).as("both slots are free again").hasSize(3);
	}

	private static JSONRPCRequest sampling(String id) {
		return new JSONRPCRequest(McpSchema.JSONRPC_VERSION, McpSchema.METHOD_SAMPLING_CREATE_MESSAGE, id,
				Map.of("maxTokens", 10));
	}

}
