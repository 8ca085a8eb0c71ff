package io.github.mcpsupervisor.transport.internal.modern;

import java.io.IOException;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Function;

import io.github.mcpsupervisor.client.internal.ClientHandlers;
import io.github.mcpsupervisor.client.internal.ElicitationLimits;
import io.github.mcpsupervisor.client.internal.McpServerSession;
import io.github.mcpsupervisor.client.internal.RequestGate;
import io.github.mcpsupervisor.client.internal.SamplingGate;
import io.github.mcpsupervisor.client.internal.SamplingLimits;
import io.github.mcpsupervisor.testsupport.CapturedOutput;
import io.github.mcpsupervisor.testsupport.OutputCaptureExtension;
import io.modelcontextprotocol.json.McpJsonDefaults;
import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.modern.McpSchema.InputRequiredResult;
import io.modelcontextprotocol.spec.McpError;
import io.modelcontextprotocol.spec.McpSchema;
import io.modelcontextprotocol.spec.McpSchema.CreateMessageResult;
import io.modelcontextprotocol.spec.McpSchema.ElicitFormRequest;
import io.modelcontextprotocol.spec.McpSchema.ElicitResult;
import io.modelcontextprotocol.spec.McpSchema.Role;
import io.modelcontextprotocol.spec.McpSchema.Root;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import reactor.core.Disposable;
import reactor.core.publisher.Mono;
import reactor.core.publisher.Sinks;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * Tests for {@link InputAnswers}.
 */
@ExtendWith(OutputCaptureExtension.class)
class InputAnswersTests {

	private static final Duration TIMEOUT = Duration.ofSeconds(5);

	private static final String SAMPLING = "{\"method\":\"sampling/createMessage\",\"params\":{\"messages\":[],"
			+ "\"maxTokens\":1000000}}";

	private final McpJsonMapper jsonMapper = McpJsonDefaults.getMapper();

	private final ModernSchema schema = new ModernSchema(this.jsonMapper);

	private final List<Integer> maxTokens = new CopyOnWriteArrayList<>();

	private final ClientHandlers sampling = new ClientHandlers((request) -> {
		this.maxTokens.add(request.maxTokens());
		return Mono.just(CreateMessageResult.builder(Role.ASSISTANT, "red", "scripted").build());
	}, null, null);

	@Test
	void aRequestDeclaresTheCapabilitiesOfTheHandlersAndRootsThereAre() {
		McpServerSession session = new McpServerSession("files", List.of());
		assertThat(new InputAnswers("files", ClientHandlers.NONE, session, this.schema).capabilities()).isEmpty();
		InputAnswers answers = new InputAnswers("files",
				new ClientHandlers((request) -> Mono.empty(), (request) -> Mono.empty(), (request) -> Mono.empty()),
				session, this.schema);
		assertThat(answers.capabilities()).containsOnlyKeys("sampling", "elicitation")
			.containsEntry("elicitation", Map.of("form", Map.of(), "url", Map.of()));
		session.roots(List.of(new Root("file:///srv", "srv")));
		assertThat(answers.capabilities()).containsOnlyKeys("sampling", "elicitation", "roots");
	}

	@Test
	void samplingIsHeldToTheServersGateAndTokenCap() {
		McpServerSession session = new McpServerSession("files", List.of(),
				new SamplingGate("files", new SamplingLimits(2, 1, 100), Clock.systemUTC()));
		InputAnswers answers = new InputAnswers("files", this.sampling, session, this.schema);
		Map<String, Object> answered = answers.answer(requests(SAMPLING)).block(TIMEOUT);
		assertThat(answered).containsOnlyKeys("input");
		assertThat(this.schema.convert(answered.get("input"), CreateMessageResult.class).content())
			.isInstanceOfSatisfying(McpSchema.TextContent.class, (text) -> assertThat(text.text()).isEqualTo("red"));
		assertThat(this.maxTokens).containsExactly(100);
		assertThatExceptionOfType(McpError.class).isThrownBy(() -> answers.answer(requests(SAMPLING)).block(TIMEOUT))
			.withMessageContaining("sampling.max-per-minute");
		assertThat(this.maxTokens).hasSize(1);
	}

	@Test
	void aSamplingRequestHoldsItsPlaceInTheGateUntilTheHandlerIsDoneEvenWhenTheCallGaveUp() {
		Sinks.One<CreateMessageResult> model = Sinks.one();
		ClientHandlers slow = new ClientHandlers((request) -> model.asMono(), null, null);
		McpServerSession session = new McpServerSession("files", List.of(),
				new SamplingGate("files", new SamplingLimits(1, 10, 100), Clock.systemUTC()));
		InputAnswers answers = new InputAnswers("files", slow, session, this.schema);
		Disposable waiting = answers.answer(requests(SAMPLING)).subscribe();
		waiting.dispose();
		assertThatExceptionOfType(McpError.class).isThrownBy(() -> answers.answer(requests(SAMPLING)).block(TIMEOUT))
			.withMessageContaining("sampling.max-concurrent");
		model.tryEmitValue(CreateMessageResult.builder(Role.ASSISTANT, "late", "scripted").build());
		InputAnswers answering = new InputAnswers("files", this.sampling, session, this.schema);
		assertThat(answering.answer(requests(SAMPLING)).block(TIMEOUT)).containsOnlyKeys("input");
		assertThat(answering.answer(requests(SAMPLING)).block(TIMEOUT)).as("released after each answer")
			.containsOnlyKeys("input");
	}

	@Test
	void elicitationsAreHeldToTheServersGate() {
		List<String> asked = new CopyOnWriteArrayList<>();
		ClientHandlers forms = new ClientHandlers(null, (request) -> {
			asked.add(request.message());
			return Mono.just(new ElicitResult(ElicitResult.Action.DECLINE, null, null));
		}, null);
		McpServerSession session = new McpServerSession("files", List.of(),
				new SamplingGate("files", SamplingLimits.DEFAULT, Clock.systemUTC()),
				RequestGate.elicitation("files", new ElicitationLimits(1, 2), Clock.systemUTC()), null);
		InputAnswers answers = new InputAnswers("files", forms, session, this.schema);
		String form = "{\"method\":\"elicitation/create\",\"params\":{\"mode\":\"form\",\"message\":\"Name?\","
				+ "\"requestedSchema\":{\"type\":\"object\"}}}";
		assertThat(answers.answer(requests(form)).block(TIMEOUT)).containsOnlyKeys("input");
		assertThat(answers.answer(requests(form)).block(TIMEOUT)).containsOnlyKeys("input");
		assertThatExceptionOfType(McpError.class).isThrownBy(() -> answers.answer(requests(form)).block(TIMEOUT))
			.withMessageContaining("MCP server 'files' sent more than 2 elicitation requests within a minute")
			.withMessageContaining("elicitation.max-per-minute");
		assertThat(asked).as("elicitations the handler saw").hasSize(2);
	}

	@Test
	void aUrlElicitationWhoseUrlIsNotHttpIsRefusedAndNeverReachesTheHandler(CapturedOutput output) {
		List<String> opened = new CopyOnWriteArrayList<>();
		ClientHandlers urls = new ClientHandlers(null, null, (request) -> {
			opened.add(request.url());
			return Mono.just(new ElicitResult(ElicitResult.Action.ACCEPT, null, null));
		});
		InputAnswers answers = new InputAnswers("files", urls, new McpServerSession("files", List.of()), this.schema);
		assertThatExceptionOfType(McpError.class)
			.isThrownBy(
					() -> answers.answer(requests(urlElicitation("javascript:alert(document.cookie)"))).block(TIMEOUT))
			.withMessageStartingWith("URL elicitation refused: MCP server 'files' asked the user to open 'javascript:")
			.satisfies((ex) -> assertThat(ex.getJsonRpcError().code()).isEqualTo(-32602));
		assertThat(opened).as("URLs the handler saw").isEmpty();
		assertThat(output).contains("WARN").contains("URL elicitation refused: MCP server 'files'");
		assertThat(answers.answer(requests(urlElicitation("https://auth.example.com/sign-in"))).block(TIMEOUT))
			.containsOnlyKeys("input");
		assertThat(opened).containsExactly("https://auth.example.com/sign-in");
	}

	private static String urlElicitation(String url) {
		return "{\"method\":\"elicitation/create\",\"params\":{\"mode\":\"url\",\"message\":\"Sign in\","
				+ "\"elicitationId\":\"e1\",\"url\":\"" + url + "\"}}";
	}

	@Test
	void aHandlerThatFailsOrGivesNoAnswerFailsTheRequestAsAnAnsweredError() {
		ClientHandlers failing = new ClientHandlers(
				(request) -> Mono.error(new IllegalStateException("chat model at 10.0.0.7 refused")),
				(request) -> Mono.empty(), null);
		McpServerSession session = new McpServerSession("files", List.of(),
				new SamplingGate("files", new SamplingLimits(1, 10, 100), Clock.systemUTC()));
		InputAnswers answers = new InputAnswers("files", failing, session, this.schema);
		assertThatExceptionOfType(McpError.class).isThrownBy(() -> answers.answer(requests(SAMPLING)).block(TIMEOUT))
			.withMessage("MCP server 'files' asked for input 'input' of kind sampling/createMessage, which the"
					+ " application's handler failed to answer (IllegalStateException)");
		assertThat(session.sampling().admit()).as("the failed request left the gate").isNull();
		assertThatExceptionOfType(McpError.class).isThrownBy(
				() -> answers
					.answer(requests("{\"method\":\"elicitation/create\",\"params\":{\"mode\":"
							+ "\"form\",\"message\":\"Name?\",\"requestedSchema\":{\"type\":\"object\"}}}"))
					.block(TIMEOUT))
			.withMessageContaining("which the application's handler did not answer");
	}

	@Test
	void anAcceptedFormGetsTheSchemasDefaultsWhereTheClientAppliesThem() {
		String form = "{\"method\":\"elicitation/create\",\"params\":{\"mode\":\"form\",\"message\":\"Order?\","
				+ "\"requestedSchema\":{\"type\":\"object\",\"properties\":{\"item\":{\"type\":\"string\"},"
				+ "\"color\":{\"type\":\"string\",\"default\":\"blue\"},\"size\":{\"type\":\"integer\","
				+ "\"default\":2}}}}}";
		McpServerSession session = new McpServerSession("files", List.of());
		Function<ElicitFormRequest, Mono<ElicitResult>> user = (request) -> Mono
			.just(new ElicitResult(ElicitResult.Action.ACCEPT, Map.of("item", "tea", "size", 3), null));
		Map<String, Object> applied = new InputAnswers("files", new ClientHandlers(null, user, null, true), session,
				this.schema)
			.answer(requests(form))
			.block(TIMEOUT);
		assertThat(this.schema.convert(applied.get("input"), ElicitResult.class).content())
			.isEqualTo(Map.of("item", "tea", "size", 3, "color", "blue"));
		Map<String, Object> asGiven = new InputAnswers("files", new ClientHandlers(null, user, null, false), session,
				this.schema)
			.answer(requests(form))
			.block(TIMEOUT);
		assertThat(this.schema.convert(asGiven.get("input"), ElicitResult.class).content())
			.isEqualTo(Map.of("item", "tea", "size", 3));
	}

	@Test
	void inputWhoseCapabilityWasNotDeclaredIsRefusedNamingIt() {
		InputAnswers answers = new InputAnswers("files", ClientHandlers.NONE, new McpServerSession("files", List.of()),
				this.schema);
		assertThatExceptionOfType(McpError.class).isThrownBy(() -> answers.answer(requests(SAMPLING)).block(TIMEOUT))
			.withMessage("MCP server 'files' asked for input 'input' of kind sampling/createMessage, whose capability"
					+ " the request did not declare (the application has no handler for it)");
		assertThatExceptionOfType(McpError.class)
			.isThrownBy(() -> answers.answer(requests("{\"method\":\"roots/list\"}")).block(TIMEOUT))
			.withMessageContaining("of kind roots/list, whose capability");
		assertThatExceptionOfType(McpError.class)
			.isThrownBy(() -> answers.answer(requests("{\"method\":\"tasks/\\u001b[31mrun\"}")).block(TIMEOUT))
			.withMessage("MCP server 'files' asked for input 'input' of kind tasks/[31mrun, which no revision of"
					+ " MCP defines");
	}

	@Test
	void aRoundAskingForMoreInputsThanAllowedIsRefused() {
		StringBuilder many = new StringBuilder("{\"resultType\":\"input_required\",\"inputRequests\":{");
		for (int i = 0; i <= InputAnswers.MAX_REQUESTS_PER_ROUND; i++) {
			many.append((i > 0) ? "," : "").append("\"r").append(i).append("\":").append(SAMPLING);
		}
		InputAnswers answers = new InputAnswers("files", this.sampling, new McpServerSession("files", List.of()),
				this.schema);
		assertThatExceptionOfType(McpError.class)
			.isThrownBy(() -> answers.answer(read(many.append("}}").toString()).inputRequests()).block(TIMEOUT))
			.withMessage("MCP server 'files' asked for 17 inputs at once, more than the 16 allowed");
		assertThat(this.maxTokens).isEmpty();
	}

	private Map<String, io.modelcontextprotocol.modern.McpSchema.InputRequest> requests(String request) {
		return read("{\"resultType\":\"input_required\",\"inputRequests\":{\"input\":" + request + "}}")
			.inputRequests();
	}

	private InputRequiredResult read(String json) {
		try {
			return this.jsonMapper.readValue(json, InputRequiredResult.class);
		}
		catch (IOException ex) {
			throw new IllegalStateException(ex);
		}
	}

}
