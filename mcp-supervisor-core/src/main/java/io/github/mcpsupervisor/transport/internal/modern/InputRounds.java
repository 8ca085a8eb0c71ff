package io.github.mcpsupervisor.transport.internal.modern;

import java.time.Duration;
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
 * {@code requestState} the server echoed, for at most {@link #MAX_ROUNDS} such results,
 * as the SDK's client does. A result that asks for no input (only state, as while a
 * server waits for something done elsewhere) is followed after a pause that grows from
 * {@link #FIRST_PAUSE} to {@link #LONGEST_PAUSE}.
 */
final class InputRounds {

	/** The most results requiring input of one request, as many as the SDK's allows. */
	static final int MAX_ROUNDS = 10;

	/** The pause before the request follows the first result that asks for no input. */
	static final Duration FIRST_PAUSE = Duration.ofMillis(50);

	/** The longest pause before the request follows a result that asks for no input. */
	static final Duration LONGEST_PAUSE = Duration.ofMillis(250);

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
		return round(0, 0, Round.FIRST, server, method, answers, send, complete);
	}

	// required: the results requiring input so far; waited: those that asked for none
	private static <R> Mono<R> round(int required, int waited, Round round, String server, String method,
			InputAnswers answers, Function<Round, Mono<?>> send, Class<R> complete) {
		return send.apply(round).flatMap((outcome) -> {
			if (complete.isInstance(outcome)) {
				return Mono.just(complete.cast(outcome));
			}
			if (!(outcome instanceof InputRequired result)) {
				return Mono.error(new IllegalStateException("MCP server '" + server + "' answered " + method
						+ " with a result of another kind: " + outcome.getClass().getSimpleName()));
			}
			if (required == MAX_ROUNDS) {
				return Mono
					.error(new McpError(new McpSchema.JSONRPCResponse.JSONRPCError(McpSchema.ErrorCodes.INTERNAL_ERROR,
							"MCP server '" + server + "' still required input after " + MAX_ROUNDS + " rounds of "
									+ method + "; the request is given up",
							null)));
			}
			boolean stateOnly = result.inputRequests() == null || result.inputRequests().isEmpty();
			Mono<Map<String, Object>> responses = stateOnly ? Mono.delay(pause(waited)).thenReturn(Map.of())
					: answers.answer(result.inputRequests());
			return responses.flatMap((answered) -> round(required + 1, stateOnly ? waited + 1 : waited,
					new Round(answered, result.requestState()), server, method, answers, send, complete));
		});
	}

	private static Duration pause(int waited) {
		Duration pause = FIRST_PAUSE.multipliedBy(1L << Math.min(waited, 3));
		return (pause.compareTo(LONGEST_PAUSE) > 0) ? LONGEST_PAUSE : pause;
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
