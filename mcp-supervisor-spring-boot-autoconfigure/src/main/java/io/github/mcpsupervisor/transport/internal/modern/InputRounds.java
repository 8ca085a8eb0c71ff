package io.github.mcpsupervisor.transport.internal.modern;

import java.util.Map;
import java.util.function.Function;

import io.modelcontextprotocol.modern.McpSchema.InputRequired;
import io.modelcontextprotocol.spec.McpError;
import io.modelcontextprotocol.spec.McpSchema;
import org.jspecify.annotations.Nullable;
import reactor.core.publisher.Mono;

/**
 * Completes a request of a 2026-07-28 server that may answer with a multi-round-trip
 * result: while the server answers that it requires input, the input requests are
 * answered and the request is sent again (with a new id) with the responses and the
 * {@code requestState} the server echoed, at most {@link #MAX_ROUNDS} times.
 */
final class InputRounds {

	/** The most rounds of one request, as many as the SDK's client allows. */
	static final int MAX_ROUNDS = 10;

	private InputRounds() {
	}

	/**
	 * Sends the request until the server completes it.
	 * @param <R> the type of the complete result
	 * @param server the server's name
	 * @param method the request's method, for the error of a request that never completes
	 * @param answers answers the input requests
	 * @param send sends one round of the request
	 * @param complete the type of the complete result
	 * @return the complete result
	 */
	static <R> Mono<R> complete(String server, String method, InputAnswers answers, Function<Round, Mono<?>> send,
			Class<R> complete) {
		return round(1, Round.FIRST, server, method, answers, send, complete);
	}

	private static <R> Mono<R> round(int number, Round round, String server, String method, InputAnswers answers,
			Function<Round, Mono<?>> send, Class<R> complete) {
		return send.apply(round).flatMap((outcome) -> {
			if (complete.isInstance(outcome)) {
				return Mono.just(complete.cast(outcome));
			}
			if (!(outcome instanceof InputRequired required)) {
				return Mono.error(new IllegalStateException("MCP server '" + server + "' answered " + method
						+ " with a result of another kind: " + outcome.getClass().getSimpleName()));
			}
			if (number == MAX_ROUNDS) {
				return Mono
					.error(new McpError(new McpSchema.JSONRPCResponse.JSONRPCError(McpSchema.ErrorCodes.INTERNAL_ERROR,
							"MCP server '" + server + "' still required input after " + MAX_ROUNDS + " rounds of "
									+ method + "; the request is given up",
							null)));
			}
			return answers.answer(required.inputRequests())
				.flatMap((responses) -> round(number + 1, new Round(responses, required.requestState()), server, method,
						answers, send, complete));
		});
	}

	/**
	 * What one round sends besides the request itself.
	 *
	 * @param responses the responses to the previous round's input requests, empty in the
	 * first
	 * @param state the {@code requestState} the server's previous answer gave, if any
	 */
	record Round(Map<String, Object> responses, @Nullable String state) {

		static final Round FIRST = new Round(Map.of(), null);

	}

}
