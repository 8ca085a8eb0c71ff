package io.github.mcpsupervisor.transport.internal.stdio;

import java.io.IOException;
import java.io.OutputStream;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;
import java.util.function.Function;

import io.github.mcpsupervisor.internal.RepeatedWarnings;
import io.github.mcpsupervisor.transport.internal.MessageLimits;
import io.github.mcpsupervisor.transport.internal.stdio.LineReader.LineTooLongException;
import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.json.TypeRef;
import io.modelcontextprotocol.spec.McpClientTransport;
import io.modelcontextprotocol.spec.McpSchema;
import io.modelcontextprotocol.spec.McpSchema.JSONRPCMessage;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Scheduler;

/**
 * An MCP client transport over a {@link StdioServerProcess} that someone else owns.
 *
 * <p>
 * Single-use by design: once closed, or connected once, it refuses to connect again. The
 * SDK re-initializes a closed client on its next call, which with its own stdio transport
 * would spawn a process that nothing owns; here that call fails instead.
 */
final class ProcessStdioTransport implements McpClientTransport {

	private static final Log logger = LogFactory.getLog(ProcessStdioTransport.class);

	private static final byte[] NEWLINE = { '\n' };

	private final CompletableFuture<Void> stdoutClosed = new CompletableFuture<>();

	private final StdioServerProcess process;

	private final McpJsonMapper jsonMapper;

	private final String label;

	/** Writes this transport's messages in order, on the threads shared by all. */
	private final Scheduler.Worker writer;

	private final Consumer<String> violated;

	private long notJsonLines;

	private volatile long messagesReceived;

	private final AtomicBoolean connected = new AtomicBoolean();

	private volatile boolean closed;

	/**
	 * Creates the transport of one generation.
	 * @param process the server process
	 * @param jsonMapper reads and writes messages
	 * @param label names the reader thread
	 * @param violated told why, when the server broke the protocol in a way that ends the
	 * generation
	 */
	ProcessStdioTransport(StdioServerProcess process, McpJsonMapper jsonMapper, String label,
			Consumer<String> violated) {
		this.process = process;
		this.jsonMapper = jsonMapper;
		this.label = label;
		this.violated = violated;
		this.writer = StdinWriters.newWriter();
	}

	@Override
	public Mono<Void> connect(Function<Mono<JSONRPCMessage>, Mono<JSONRPCMessage>> handler) {
		if (this.closed || !this.connected.compareAndSet(false, true)) {
			return Mono.error(new IllegalStateException("transport " + this.label + " is single-use and already "
					+ (this.closed ? "closed" : "connected")));
		}
		Thread reader = new Thread(() -> readMessages(handler), this.label + "-stdout");
		reader.setDaemon(true);
		reader.start();
		return Mono.empty();
	}

	@Override
	public Mono<Void> sendMessage(JSONRPCMessage message) {
		return Mono.defer(() -> {
			if (this.closed) {
				return Mono.error(new IllegalStateException("transport " + this.label + " is closed"));
			}
			try {
				return Mono.fromFuture(CompletableFuture.runAsync(() -> write(message), this.writer::schedule));
			}
			catch (RejectedExecutionException ex) {
				return Mono.error(new IllegalStateException("transport " + this.label + " is closed", ex));
			}
		});
	}

	@Override
	public Mono<Void> closeGracefully() {
		return Mono.fromRunnable(() -> {
			this.closed = true;
			this.writer.dispose();
		});
	}

	/**
	 * Returns how many JSON-RPC messages the server has sent so far.
	 * @return the count
	 */
	long messagesReceived() {
		return this.messagesReceived;
	}

	@Override
	public <T> T unmarshalFrom(Object data, TypeRef<T> typeRef) {
		return this.jsonMapper.convertValue(data, typeRef);
	}

	private void write(JSONRPCMessage message) {
		try {
			byte[] json = this.jsonMapper.writeValueAsBytes(message);
			OutputStream stdin = this.process.stdin();
			synchronized (stdin) {
				stdin.write(json);
				stdin.write(NEWLINE);
				stdin.flush();
			}
		}
		catch (IOException ex) {
			throw new IllegalStateException("cannot write to " + this.label + ": " + ex.getMessage(), ex);
		}
	}

	/**
	 * Completes once the reader has handed on every message the server wrote before its
	 * stdout closed, so that an answer written just before an exit is delivered before
	 * the exit is reported.
	 * @return the end of stdout
	 */
	CompletableFuture<Void> stdoutClosed() {
		return this.stdoutClosed.copy();
	}

	private void readMessages(Function<Mono<JSONRPCMessage>, Mono<JSONRPCMessage>> handler) {
		try {
			readLines(handler);
		}
		finally {
			this.stdoutClosed.complete(null);
		}
	}

	private void readLines(Function<Mono<JSONRPCMessage>, Mono<JSONRPCMessage>> handler) {
		LineReader reader = new LineReader(this.process.stdout(), MessageLimits.MAX_MESSAGE_BYTES);
		try {
			String line;
			while ((line = reader.readLine()) != null) {
				if (this.closed) {
					return;
				}
				if (!line.isBlank()) {
					handle(line, handler);
				}
			}
		}
		catch (LineTooLongException ex) {
			this.violated.accept("the server wrote a stdout line longer than " + MessageLimits.MAX_MESSAGE_BYTES
					+ " bytes, the limit of one MCP message");
		}
		catch (IOException ex) {
			// stdout closes with the process; the exit is reported by the process itself
		}
	}

	private void handle(String line, Function<Mono<JSONRPCMessage>, Mono<JSONRPCMessage>> handler) {
		JSONRPCMessage message;
		try {
			message = McpSchema.deserializeJsonRpcMessage(this.jsonMapper, line);
		}
		catch (IOException | RuntimeException ex) {
			// A stray log line must not end the session: skip it. The server's output is
			// not logged at WARN, and warnings thin out as such lines keep coming.
			this.notJsonLines++;
			if (RepeatedWarnings.isLogged(this.notJsonLines)) {
				logger.warn(this.label + ": ignored " + this.notJsonLines
						+ " stdout line(s) that are not JSON-RPC so far (their content is logged at DEBUG)");
			}
			if (logger.isDebugEnabled()) {
				logger
					.debug(this.label + ": ignoring a stdout line that is not JSON-RPC: " + StderrTail.sanitize(line));
			}
			return;
		}
		this.messagesReceived++;
		handler.apply(Mono.just(message))
			.subscribe(null, (error) -> logger.warn(this.label + ": failed to handle a message", error));
	}

}
