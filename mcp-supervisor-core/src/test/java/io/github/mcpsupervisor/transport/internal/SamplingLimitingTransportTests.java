package io.github.mcpsupervisor.transport.internal;

import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;

import io.github.mcpsupervisor.client.internal.ElicitationLimits;
import io.github.mcpsupervisor.client.internal.RequestGate;
import io.github.mcpsupervisor.client.internal.SamplingGate;
import io.github.mcpsupervisor.client.internal.SamplingLimits;
import io.github.mcpsupervisor.testsupport.CapturedOutput;
import io.github.mcpsupervisor.testsupport.OutputCaptureExtension;
import io.modelcontextprotocol.spec.McpSchema;
import io.modelcontextprotocol.spec.McpSchema.JSONRPCMessage;
import io.modelcontextprotocol.spec.McpSchema.JSONRPCRequest;
import io.modelcontextprotocol.spec.McpSchema.JSONRPCResponse;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The bounds of a server's requests for input where they pass below the client.
 */
@ExtendWith(OutputCaptureExtension.class)
class SamplingLimitingTransportTests {

	private final RecordingClientTransport server = new RecordingClientTransport();

	private final SamplingGate gate = new SamplingGate("files", new SamplingLimits(2, 100, 100), Clock.systemUTC());

	private final RequestGate elicitation = RequestGate.elicitation("files", new ElicitationLimits(10, 3),
			Clock.systemUTC());

	private final SamplingLimitingTransport transport = new SamplingLimitingTransport(this.server, this.gate,
			this.elicitation);

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

	@Test
	void aRequestThatComesAsTheGenerationEndsHoldsNoSlotOfTheNextOne() {
		this.transport.connect((message) -> message).block();
		this.transport.close();
		this.server.receive(sampling("late"));
		RecordingClientTransport nextServer = new RecordingClientTransport();
		SamplingLimitingTransport next = new SamplingLimitingTransport(nextServer, this.gate, this.elicitation);
		List<JSONRPCMessage> admitted = new CopyOnWriteArrayList<>();
		next.connect((message) -> message.doOnNext(admitted::add)).block();
		nextServer.receive(sampling("a"));
		nextServer.receive(sampling("b"));
		assertThat(admitted).as("the next generation has both slots").hasSize(2);
	}

	@Test
	void elicitationsBeyondTheServersBoundIsRefusedBeforeAnyHandlerSeesThem() {
		List<JSONRPCMessage> admitted = new CopyOnWriteArrayList<>();
		this.transport.connect((message) -> message.doOnNext(admitted::add)).block();
		for (int i = 0; i < 5; i++) {
			this.server.receive(elicitation("e" + i,
					Map.of("mode", "form", "message", "Name?", "requestedSchema", Map.of("type", "object"))));
			this.transport.sendMessage(new JSONRPCResponse(McpSchema.JSONRPC_VERSION, "e" + i, Map.of(), null)).block();
		}
		assertThat(admitted).as("elicitations the handler saw").hasSize(3);
		assertThat(this.server.sent).filteredOn((message) -> ((JSONRPCResponse) message).error() != null)
			.hasSize(2)
			.allSatisfy((message) -> assertThat(((JSONRPCResponse) message).error().message())
				.contains("MCP server 'files' sent more than 3 elicitation requests within a minute")
				.contains("elicitation.max-per-minute"));
	}

	@Test
	void aUrlElicitationWhoseUrlIsNotHttpIsRefusedNamingTheServerAndNeverReachesTheHandler(CapturedOutput output) {
		List<JSONRPCMessage> admitted = new CopyOnWriteArrayList<>();
		this.transport.connect((message) -> message.doOnNext(admitted::add)).block();
		for (String url : List.of("javascript:alert(document.cookie)", "data:text/html,<b>x</b>", "file:///etc/passwd",
				"//evil.example/path", "not a url")) {
			this.server.receive(
					elicitation(url, Map.of("mode", "url", "message", "Sign in", "elicitationId", "x", "url", url)));
		}
		assertThat(admitted).as("URL elicitations the handler saw").isEmpty();
		assertThat(this.server.sent).hasSize(5)
			.allSatisfy((message) -> assertThat(((JSONRPCResponse) message).error().code()).isEqualTo(-32602));
		assertThat(((JSONRPCResponse) this.server.sent.get(0)).error().message())
			.startsWith("URL elicitation refused: MCP server 'files' asked the user to open 'javascript:")
			.endsWith("which is not an http or https URL");
		assertThat(output).contains("WARN").contains("URL elicitation refused: MCP server 'files'");
		this.server.receive(elicitation("ok", Map.of("mode", "url", "message", "Sign in", "elicitationId", "y", "url",
				"https://auth.example.com/sign-in")));
		assertThat(admitted).as("an https URL reaches the handler").hasSize(1);
	}

	private static JSONRPCRequest elicitation(String id, Map<String, Object> params) {
		return new JSONRPCRequest(McpSchema.JSONRPC_VERSION, McpSchema.METHOD_ELICITATION_CREATE, id, params);
	}

	private static JSONRPCRequest sampling(String id) {
		return new JSONRPCRequest(McpSchema.JSONRPC_VERSION, McpSchema.METHOD_SAMPLING_CREATE_MESSAGE, id,
				Map.of("maxTokens", 10));
	}

}
