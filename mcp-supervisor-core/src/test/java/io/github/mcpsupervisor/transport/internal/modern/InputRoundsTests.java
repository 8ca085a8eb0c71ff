package io.github.mcpsupervisor.transport.internal.modern;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import io.github.mcpsupervisor.client.internal.ClientHandlers;
import io.github.mcpsupervisor.client.internal.McpServerSession;
import io.modelcontextprotocol.json.McpJsonDefaults;
import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.modern.McpSchema.CallToolResult;
import io.modelcontextprotocol.modern.McpSchema.InputRequiredResult;
import io.modelcontextprotocol.spec.McpError;
import io.modelcontextprotocol.spec.McpSchema.ElicitResult;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Mono;
import reactor.test.StepVerifier;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * Tests for {@link InputRounds}.
 */
class InputRoundsTests {

	private static final Duration TIMEOUT = Duration.ofSeconds(5);

	private final McpJsonMapper jsonMapper = McpJsonDefaults.getMapper();

	private final InputAnswers answers = new InputAnswers("files", new ClientHandlers(null,
			(request) -> Mono
				.just(new ElicitResult(ElicitResult.Action.ACCEPT, Map.of("name", request.message()), null)),
			null), new McpServerSession("files", List.of()), new ModernSchema(this.jsonMapper));

	private final List<InputRounds.Round> sent = new ArrayList<>();

	@Test
	void eachRoundSendsTheResponsesToThePreviousOneWithTheStateTheServerEchoed() {
		CallToolResult done = CallToolResult.builder().build();
		List<Object> outcomes = List.of(required("Ada?", "s1"), required("Grace?", "s2"), done);
		CallToolResult result = InputRounds.complete("files", "tools/call", this.answers, (round) -> {
			this.sent.add(round);
			return Mono.just(outcomes.get(this.sent.size() - 1));
		}, CallToolResult.class).block(TIMEOUT);
		assertThat(result).isSameAs(done);
		assertThat(this.sent).extracting(InputRounds.Round::state).containsExactly(null, "s1", "s2");
		assertThat(this.sent).extracting(InputRounds.Round::responses)
			.containsExactly(Map.of(), Map.of("name", elicited("Ada?")), Map.of("name", elicited("Grace?")));
	}

	@Test
	void aServerThatKeepsRequiringInputIsGivenUpAfterTheMostRounds() {
		assertThatExceptionOfType(McpError.class)
			.isThrownBy(() -> InputRounds.complete("files", "tools/call", this.answers, (round) -> {
				this.sent.add(round);
				return Mono.just(required("Again?", "s" + this.sent.size()));
			}, CallToolResult.class).block(TIMEOUT))
			.withMessage("MCP server 'files' still required input after 10 rounds of tools/call; the request is"
					+ " given up");
		assertThat(this.sent).as("the first request and one for each of the results answered, as the SDK's client")
			.hasSize(InputRounds.MAX_ROUNDS + 1);
	}

	@Test
	void aResultThatAsksForNoInputIsFollowedAfterAGrowingPause() {
		CallToolResult done = CallToolResult.builder().build();
		List<Object> outcomes = List.of(stateOnly("s1"), stateOnly("s2"), done);
		StepVerifier.withVirtualTime(() -> InputRounds.complete("files", "tools/call", this.answers, (round) -> {
			this.sent.add(round);
			return Mono.just(outcomes.get(this.sent.size() - 1));
		}, CallToolResult.class))
			.expectSubscription()
			.expectNoEvent(Duration.ofMillis(49))
			.then(() -> assertThat(this.sent).hasSize(1))
			.thenAwait(Duration.ofMillis(1))
			.then(() -> assertThat(this.sent).hasSize(2))
			.expectNoEvent(Duration.ofMillis(99))
			.thenAwait(Duration.ofMillis(1))
			.expectNext(done)
			.verifyComplete();
		assertThat(this.sent).extracting(InputRounds.Round::state).containsExactly(null, "s1", "s2");
		assertThat(this.sent).extracting(InputRounds.Round::responses).containsOnly(Map.of());
	}

	private InputRequiredResult stateOnly(String state) {
		try {
			return this.jsonMapper.readValue("{\"resultType\":\"input_required\",\"requestState\":\"" + state + "\"}",
					InputRequiredResult.class);
		}
		catch (IOException ex) {
			throw new IllegalStateException(ex);
		}
	}

	private Object elicited(String name) {
		return new ModernSchema(this.jsonMapper).convert(
				new ElicitResult(ElicitResult.Action.ACCEPT, Map.of("name", name), null),
				io.modelcontextprotocol.modern.McpSchema.ElicitResult.class);
	}

	private InputRequiredResult required(String message, String state) {
		try {
			return this.jsonMapper.readValue("{\"resultType\":\"input_required\",\"requestState\":\"" + state
					+ "\",\"inputRequests\":{\"name\":{\"method\":\"elicitation/create\",\"params\":{\"mode\":\"form\","
					+ "\"message\":\"" + message + "\",\"requestedSchema\":{\"type\":\"object\"}}}}}",
					InputRequiredResult.class);
		}
		catch (IOException ex) {
			throw new IllegalStateException(ex);
		}
	}

}
