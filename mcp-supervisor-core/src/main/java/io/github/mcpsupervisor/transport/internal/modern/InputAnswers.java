package io.github.mcpsupervisor.transport.internal.modern;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.function.Supplier;

import io.github.mcpsupervisor.client.internal.ClientHandlers;
import io.github.mcpsupervisor.client.internal.ElicitationUrls;
import io.github.mcpsupervisor.client.internal.McpServerSession;
import io.github.mcpsupervisor.client.internal.RequestGate;
import io.github.mcpsupervisor.client.internal.SamplingGate;
import io.github.mcpsupervisor.internal.ServerText;
import io.modelcontextprotocol.modern.McpSchema.CreateMessageInputRequest;
import io.modelcontextprotocol.modern.McpSchema.ElicitInputRequest;
import io.modelcontextprotocol.modern.McpSchema.InputRequest;
import io.modelcontextprotocol.modern.McpSchema.ListRootsInputRequest;
import io.modelcontextprotocol.spec.McpError;
import io.modelcontextprotocol.spec.McpSchema;
import io.modelcontextprotocol.spec.McpSchema.CreateMessageRequest;
import io.modelcontextprotocol.spec.McpSchema.CreateMessageResult;
import io.modelcontextprotocol.spec.McpSchema.ElicitFormRequest;
import io.modelcontextprotocol.spec.McpSchema.ElicitResult;
import io.modelcontextprotocol.spec.McpSchema.ElicitUrlRequest;
import io.modelcontextprotocol.spec.McpSchema.ListRootsResult;
import io.modelcontextprotocol.spec.McpSchema.Root;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * Answers the input requests of a 2026-07-28 server's multi-round-trip result with the
 * application's handlers, those that answer the sampling and elicitation requests of
 * 2025-11-25 servers, and with the roots the server is offered; sampling held to the
 * server's {@link SamplingGate} and elicitations to its elicitation {@link RequestGate}
 * as for 2025-11-25, a URL elicitation passed on only with an http or https URL
 * ({@link ElicitationUrls}). The capabilities that every request declares are exactly
 * those it can answer.
 */
final class InputAnswers {

	private static final Log logger = LogFactory.getLog(InputAnswers.class);

	/**
	 * The most input requests one round may ask: each may reach a person or the
	 * application's model.
	 */
	static final int MAX_REQUESTS_PER_ROUND = 16;

	private final String server;

	private final ClientHandlers handlers;

	private final McpServerSession session;

	private final ModernSchema schema;

	// the capabilities of the handlers, which a generation keeps: every request declares
	// them
	private final Map<String, Object> handled;

	InputAnswers(String server, ClientHandlers handlers, McpServerSession session, ModernSchema schema) {
		this.server = server;
		this.handlers = handlers;
		this.session = session;
		this.schema = schema;
		this.handled = handled(handlers);
	}

	/**
	 * Returns the client capabilities a request declares, in their JSON form: sampling
	 * and each elicitation mode where the application has a handler, roots while the
	 * server is offered some.
	 * @return the capabilities
	 */
	Map<String, Object> capabilities() {
		if (this.session.roots().isEmpty()) {
			return this.handled;
		}
		Map<String, Object> capabilities = new LinkedHashMap<>(this.handled);
		capabilities.put("roots", Map.of());
		return capabilities;
	}

	private static Map<String, Object> handled(ClientHandlers handlers) {
		Map<String, Object> capabilities = new LinkedHashMap<>();
		if (handlers.sampling() != null) {
			capabilities.put("sampling", Map.of());
		}
		Map<String, Object> elicitation = new LinkedHashMap<>();
		if (handlers.formElicitation() != null) {
			elicitation.put("form", Map.of());
		}
		if (handlers.urlElicitation() != null) {
			elicitation.put("url", Map.of());
		}
		if (!elicitation.isEmpty()) {
			capabilities.put("elicitation", Collections.unmodifiableMap(elicitation));
		}
		return Collections.unmodifiableMap(capabilities);
	}

	/**
	 * Answers the input requests of one round, one after the other.
	 * @param requests the input requests by their keys
	 * @return the responses by the same keys, or an {@link McpError} naming the request
	 * that could not be answered
	 */
	Mono<Map<String, Object>> answer(@Nullable Map<String, InputRequest> requests) {
		if (requests == null || requests.isEmpty()) {
			return Mono.just(Map.of());
		}
		if (requests.size() > MAX_REQUESTS_PER_ROUND) {
			return Mono.error(new McpError(new McpSchema.JSONRPCResponse.JSONRPCError(
					McpSchema.ErrorCodes.INVALID_REQUEST, "MCP server '" + this.server + "' asked for "
							+ requests.size() + " inputs at once, more than the " + MAX_REQUESTS_PER_ROUND + " allowed",
					null)));
		}
		return Flux.fromIterable(requests.entrySet())
			.concatMap((entry) -> answer(entry.getKey(), entry.getValue())
				.map((response) -> Map.entry(entry.getKey(), response)))
			.collectMap(Map.Entry::getKey, Map.Entry::getValue, LinkedHashMap::new);
	}

	// A handler that fails or gives no answer fails the request as an answered error: it
	// says nothing of the server, whose generation goes on.
	private Mono<Object> answer(String key, @Nullable InputRequest request) {
		String kind = (request != null) ? request.method() : "(none)";
		return route(key, request)
			.switchIfEmpty(Mono.error(() -> refused(McpSchema.ErrorCodes.INTERNAL_ERROR, key, kind,
					"which the application's handler did not answer")))
			.onErrorMap((ex) -> !(ex instanceof McpError), (ex) -> handlerFailed(key, kind, ex));
	}

	// The failure is the application's: logged in full, named to the model by its type.
	private McpError handlerFailed(String key, String kind, Throwable ex) {
		McpError failed = refused(McpSchema.ErrorCodes.INTERNAL_ERROR, key, kind,
				"which the application's handler failed to answer (" + ex.getClass().getSimpleName() + ")");
		logger.warn(failed.getMessage(), ex);
		return failed;
	}

	private Mono<Object> route(String key, @Nullable InputRequest request) {
		if (request instanceof ElicitInputRequest elicitation) {
			return elicit(key, elicitation);
		}
		if (request instanceof CreateMessageInputRequest sampling) {
			return sample(key, sampling);
		}
		if (request instanceof ListRootsInputRequest) {
			return roots(key);
		}
		return Mono.error(refused(McpSchema.ErrorCodes.METHOD_NOT_FOUND, key,
				(request != null) ? request.method() : "(none)", "which no revision of MCP defines"));
	}

	private Mono<Object> elicit(String key, ElicitInputRequest request) {
		if (request.params() instanceof io.modelcontextprotocol.modern.McpSchema.ElicitUrlRequest urlRequest) {
			Function<ElicitUrlRequest, Mono<ElicitResult>> handler = this.handlers.urlElicitation();
			if (handler == null) {
				return Mono.error(undeclared(key, "elicitation/create (url)"));
			}
			String refusal = ElicitationUrls.refusal(this.server, urlRequest.url());
			if (refusal != null) {
				logger.warn(refusal);
				return Mono.error(new McpError(
						new McpSchema.JSONRPCResponse.JSONRPCError(ElicitationUrls.INVALID_URL, refusal, null)));
			}
			return gated(this.session.elicitation(),
					() -> handler.apply(this.schema.convert(request.params(), ElicitUrlRequest.class))
						.map(this::modern));
		}
		Function<ElicitFormRequest, Mono<ElicitResult>> handler = this.handlers.formElicitation();
		if (handler == null) {
			return Mono.error(undeclared(key, "elicitation/create (form)"));
		}
		return gated(this.session.elicitation(), () -> {
			ElicitFormRequest form = this.schema.convert(request.params(), ElicitFormRequest.class);
			return handler.apply(form).map((result) -> modern(withDefaults(form, result)));
		});
	}

	// The request holds its place in the gate until the handler is done with it, not
	// until the call stops waiting (a sync handler runs on regardless).
	private Mono<Object> gated(RequestGate gate, Supplier<@Nullable Mono<Object>> handled) {
		return Mono.defer(() -> {
			String refusal = gate.admit();
			if (refusal != null) {
				return Mono.error(
						new McpError(new McpSchema.JSONRPCResponse.JSONRPCError(RequestGate.REFUSED, refusal, null)));
			}
			Mono<Object> answer;
			try {
				answer = handled.get();
			}
			catch (RuntimeException ex) {
				gate.release();
				return Mono.error(ex);
			}
			Mono<Object> answered = ((answer != null) ? answer : Mono.empty()).doFinally((signal) -> gate.release())
				.cache();
			answered.subscribe(null, (ex) -> {
			});
			return answered;
		});
	}

	// As the SDK's client applies them for 2025-11-25 when it is told to (SEP-1034): the
	// fields an accepted content leaves out get the requested schema's defaults.
	private ElicitResult withDefaults(ElicitFormRequest request, ElicitResult result) {
		if (!this.handlers.elicitationDefaults() || result.action() != ElicitResult.Action.ACCEPT
				|| result.content() == null || !(request.requestedSchema() != null
						&& request.requestedSchema().get("properties") instanceof Map<?, ?> properties)) {
			return result;
		}
		Map<String, Object> content = new LinkedHashMap<>(result.content());
		properties.forEach((name, property) -> {
			if (name instanceof String field && property instanceof Map<?, ?> definition
					&& definition.containsKey("default") && !content.containsKey(field)) {
				content.put(field, definition.get("default"));
			}
		});
		return new ElicitResult(result.action(), content, result.meta());
	}

	private Object modern(ElicitResult result) {
		return this.schema.convert(result, io.modelcontextprotocol.modern.McpSchema.ElicitResult.class);
	}

	private Mono<Object> sample(String key, CreateMessageInputRequest request) {
		Function<CreateMessageRequest, Mono<CreateMessageResult>> handler = this.handlers.sampling();
		if (handler == null) {
			return Mono.error(undeclared(key, "sampling/createMessage"));
		}
		SamplingGate gate = this.session.sampling();
		return gated(gate.requests(), () -> {
			Object params = gate.capped(this.schema.convert(request.params(), Map.class));
			Mono<CreateMessageResult> sampled = handler.apply(this.schema.convert(params, CreateMessageRequest.class));
			return ((sampled != null) ? sampled : Mono.<CreateMessageResult>empty())
				.map((result) -> (Object) this.schema.convert(result,
						io.modelcontextprotocol.modern.McpSchema.CreateMessageResult.class));
		});
	}

	@SuppressWarnings("deprecation") // 2026-07-28 deprecates roots; its servers may still
										// ask for them
	private Mono<Object> roots(String key) {
		List<Root> roots = this.session.roots();
		if (roots.isEmpty()) {
			return Mono.error(undeclared(key, "roots/list"));
		}
		return Mono.just(this.schema.convert(new ListRootsResult(roots),
				io.modelcontextprotocol.modern.McpSchema.ListRootsResult.class));
	}

	// A server must not ask for input whose capability the request did not declare.
	private McpError undeclared(String key, String kind) {
		return refused(McpSchema.ErrorCodes.INVALID_REQUEST, key, kind,
				"whose capability the request did not declare (the application has no handler for it)");
	}

	private McpError refused(int code, String key, String kind, String why) {
		// the key and the kind are the server's text
		return new McpError(new McpSchema.JSONRPCResponse.JSONRPCError(code, "MCP server '" + this.server
				+ "' asked for input '" + quoted(key) + "' of kind " + quoted(kind) + ", " + why, null));
	}

	private static String quoted(String text) {
		return ServerText.bounded(text, ServerText.MAX_LENGTH);
	}

}
