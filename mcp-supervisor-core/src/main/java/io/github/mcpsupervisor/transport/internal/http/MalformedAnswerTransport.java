package io.github.mcpsupervisor.transport.internal.http;

import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import io.github.mcpsupervisor.internal.CauseChain;
import io.github.mcpsupervisor.internal.ServerText;
import io.github.mcpsupervisor.transport.internal.DelegatingClientTransport;
import io.modelcontextprotocol.spec.McpClientTransport;
import io.modelcontextprotocol.spec.McpSchema.ErrorCodes;
import io.modelcontextprotocol.spec.McpSchema.JSONRPCMessage;
import io.modelcontextprotocol.spec.McpSchema.JSONRPCResponse;
import io.modelcontextprotocol.spec.McpSchema.JSONRPCResponse.JSONRPCError;
import io.modelcontextprotocol.spec.McpTransportException;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;
import reactor.core.publisher.Mono;
import tools.jackson.core.JacksonException;

/**
 * The SDK's Streamable HTTP transport, with an answer that is not valid JSON failing its
 * own request at once. The SDK drops such an answer when it came as a JSON body, leaving
 * its request to wait for the request timeout; here it is answered, on the server's
 * behalf, with a JSON-RPC parse error for the request id it names. The session goes on: a
 * bad message is not a dead transport.
 */
final class MalformedAnswerTransport extends DelegatingClientTransport {

	private static final Log logger = LogFactory.getLog(MalformedAnswerTransport.class);

	// The id of the request that a malformed answer names, as the SDK quotes it.
	private static final Pattern ID = Pattern.compile("\"id\"\\s*:\\s*(?:\"([^\"\\\\]{1,200})\"|(\\d{1,9})\\b)");

	private final String server;

	private final int generation;

	private final AtomicReference<@Nullable Function<Mono<JSONRPCMessage>, Mono<JSONRPCMessage>>> handler = new AtomicReference<>();

	MalformedAnswerTransport(McpClientTransport delegate, String server, int generation) {
		super(delegate);
		this.server = server;
		this.generation = generation;
	}

	/**
	 * Returns whether a failure is an answer of the server that could not be read, not a
	 * failure of the transport.
	 * @param ex the failure
	 * @return whether the server sent a malformed message
	 */
	static boolean isMalformedAnswer(Throwable ex) {
		return CauseChain.hasCause(ex, McpTransportException.class) && CauseChain.hasCause(ex, JacksonException.class);
	}

	/**
	 * Returns the message of a request that failed because of a malformed answer.
	 * @param server the server's name
	 * @return the message, which quotes nothing of the answer
	 */
	static String message(String server) {
		return "the answer of MCP server '" + server + "' is not a valid JSON-RPC message";
	}

	@Override
	public Mono<Void> connect(Function<Mono<JSONRPCMessage>, Mono<JSONRPCMessage>> handler) {
		this.handler.set(handler);
		return this.delegate.connect(handler);
	}

	@Override
	public void setExceptionHandler(Consumer<Throwable> handler) {
		this.delegate.setExceptionHandler((ex) -> {
			if (isMalformedAnswer(ex)) {
				answerWithParseError(ex);
			}
			handler.accept(ex);
		});
	}

	private void answerWithParseError(Throwable ex) {
		McpTransportException malformed = CauseChain.cause(ex, McpTransportException.class);
		Matcher id = ID.matcher(String.valueOf((malformed != null) ? malformed.getMessage() : null));
		Function<Mono<JSONRPCMessage>, Mono<JSONRPCMessage>> current = this.handler.get();
		String prefix = "MCP server '" + this.server + "': an answer that is not a valid JSON-RPC message (generation "
				+ this.generation + ")";
		if (current == null || !id.find()) {
			logger.warn(prefix + " names no request id; its request waits for its timeout");
			return;
		}
		Object requestId = (id.group(1) != null) ? id.group(1) : Integer.valueOf(id.group(2));
		logger.warn(prefix + " failed its request; the session goes on");
		if (logger.isDebugEnabled()) {
			logger.debug(prefix + ": " + ServerText.forLog(CauseChain.rootMessage(ex)));
		}
		JSONRPCResponse parseError = JSONRPCResponse.error(requestId,
				new JSONRPCError(ErrorCodes.PARSE_ERROR, message(this.server)));
		current.apply(Mono.just(parseError))
			.subscribe(null, (failure) -> logger.debug(prefix + ": answering its request failed", failure));
	}

}
