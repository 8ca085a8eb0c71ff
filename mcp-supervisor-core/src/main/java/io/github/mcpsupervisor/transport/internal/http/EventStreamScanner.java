package io.github.mcpsupervisor.transport.internal.http;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;

import io.github.mcpsupervisor.transport.internal.MessageLimits;
import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.spec.McpSchema;
import io.modelcontextprotocol.spec.McpSchema.JSONRPCResponse;
import org.jspecify.annotations.Nullable;

/**
 * Reads the server-sent events of one stream, across the connections that resume it, as
 * the SSE standard defines them: it keeps the last event id and the reconnection time
 * ({@code retry}), sees whether an event carried an answer, and passes on whole events
 * only, with their {@code data}, {@code id} and {@code event} fields and comments (the
 * SDK rejects any other field). An event that a connection ends in the middle of is not
 * passed on when the stream is resumed.
 */
final class EventStreamScanner {

	/** The reconnection time until the server sets one. */
	static final Duration DEFAULT_RETRY = Duration.ofSeconds(1);

	/**
	 * The longest reconnection time obeyed: a longer {@code retry} would keep a request
	 * pending long after its caller gave up.
	 */
	static final Duration MAX_RETRY = Duration.ofSeconds(30);

	/**
	 * The most bytes of one event (one MCP message), as a stdio server's line: a server
	 * cannot make the application buffer more.
	 */
	static final int MAX_EVENT_BYTES = MessageLimits.MAX_MESSAGE_BYTES;

	private final McpJsonMapper jsonMapper;

	private final boolean watchAnswers;

	private final ByteArrayOutputStream line = new ByteArrayOutputStream();

	private boolean afterCarriageReturn;

	private final ByteArrayOutputStream event = new ByteArrayOutputStream();

	private final StringBuilder data = new StringBuilder();

	private @Nullable String eventType;

	private @Nullable String idBuffer;

	private @Nullable String lastEventId;

	private Duration retry = DEFAULT_RETRY;

	private boolean answered;

	/**
	 * Creates a scanner for one stream.
	 * @param jsonMapper reads the data of events
	 * @param watchAnswers whether to see if an event carries a JSON-RPC answer (the
	 * stream of a request)
	 */
	EventStreamScanner(McpJsonMapper jsonMapper, boolean watchAnswers) {
		this.jsonMapper = jsonMapper;
		this.watchAnswers = watchAnswers;
	}

	/**
	 * Reads the next bytes of the stream.
	 * @param buffers the bytes
	 * @return the events they complete, empty when none
	 */
	List<ByteBuffer> scan(List<ByteBuffer> buffers) {
		ByteArrayOutputStream complete = new ByteArrayOutputStream();
		for (ByteBuffer buffer : buffers) {
			while (buffer.hasRemaining()) {
				byte next = buffer.get();
				if (next == '\n' && this.afterCarriageReturn) {
					this.afterCarriageReturn = false; // the end of a CRLF
				}
				else if (next == '\n' || next == '\r') {
					this.afterCarriageReturn = (next == '\r');
					endLine(complete);
				}
				else {
					this.afterCarriageReturn = false;
					this.line.write(next);
					if (this.line.size() + this.event.size() > MAX_EVENT_BYTES) {
						throw new EventTooLargeException();
					}
				}
			}
		}
		return (complete.size() > 0) ? List.of(ByteBuffer.wrap(complete.toByteArray())) : List.of();
	}

	/**
	 * Ends a connection at the end of its stream. The event it was in the middle of
	 * counts as the SDK counts it: dispatched when the stream is over, dropped when it is
	 * resumed.
	 * @return the bytes of that event, to pass on if the stream is not resumed
	 */
	List<ByteBuffer> endOfConnection() {
		if (this.line.size() > 0) {
			field(this.line.toString(StandardCharsets.UTF_8));
			this.line.reset();
		}
		this.afterCarriageReturn = false;
		if (this.data.length() > 0) {
			watchAnswer();
		}
		byte[] rest = this.event.toByteArray();
		this.event.reset();
		this.data.setLength(0);
		this.eventType = null;
		return (rest.length > 0) ? List.of(ByteBuffer.wrap(rest)) : List.of();
	}

	// The id of the last event, null when no event had one.
	@Nullable String lastEventId() {
		return this.lastEventId;
	}

	// The reconnection time: the server's last retry, or the default.
	Duration retry() {
		return this.retry;
	}

	// Whether an event carried a JSON-RPC answer (only when watching answers).
	boolean answered() {
		return this.answered;
	}

	private void endLine(ByteArrayOutputStream complete) {
		if (this.line.size() == 0) {
			dispatch(complete);
		}
		else {
			field(this.line.toString(StandardCharsets.UTF_8));
			this.line.reset();
		}
	}

	// Applies one line of an event and keeps what the SDK reads of it: a field without a
	// colon as one with an empty value, as the standard reads it and the SDK does not.
	private void field(String text) {
		int colon = text.indexOf(':');
		String name = (colon >= 0) ? text.substring(0, colon) : text;
		String value = (colon >= 0) ? text.substring(colon + 1) : "";
		String kept = (colon >= 0) ? text : text + ":";
		value = value.startsWith(" ") ? value.substring(1) : value;
		switch (name) {
			case "" -> keep(kept); // a comment
			case "data" -> {
				if (this.watchAnswers) {
					this.data.append(value).append('\n');
				}
				keep(kept);
			}
			case "id" -> {
				if (value.indexOf('\0') < 0) {
					this.idBuffer = value;
				}
				keep(kept);
			}
			case "event" -> {
				this.eventType = value;
				keep(kept);
			}
			case "retry" -> {
				// at most 9 digits (11 days), which parse without overflow
				if (!value.isEmpty() && value.length() <= 9 && value.chars().allMatch((c) -> c >= '0' && c <= '9')) {
					Duration asked = Duration.ofMillis(Long.parseLong(value));
					this.retry = (asked.compareTo(MAX_RETRY) > 0) ? MAX_RETRY : asked;
				}
			}
			default -> {
				// a field the standard does not define: ignored
			}
		}
	}

	private void keep(String line) {
		this.event.writeBytes(line.getBytes(StandardCharsets.UTF_8));
		this.event.write('\n');
	}

	private void dispatch(ByteArrayOutputStream complete) {
		// an empty id leaves the stream without a point to resume from
		this.lastEventId = (this.idBuffer == null || this.idBuffer.isEmpty()) ? null : this.idBuffer;
		if (this.event.size() > 0) {
			this.event.write('\n');
			complete.writeBytes(this.event.toByteArray());
		}
		if (this.data.length() > 0) {
			watchAnswer();
		}
		this.event.reset();
		this.data.setLength(0);
		this.eventType = null;
	}

	private void watchAnswer() {
		if (!this.watchAnswers || this.answered || (this.eventType != null && !"message".equals(this.eventType))) {
			return;
		}
		String json = this.data.substring(0, this.data.length() - 1);
		if (json.isBlank()) {
			return;
		}
		try {
			this.answered = McpSchema.deserializeJsonRpcMessage(this.jsonMapper, json) instanceof JSONRPCResponse;
		}
		catch (Exception ex) {
			// not JSON-RPC: the SDK ends the stream, failing the request (see
			// MalformedAnswerTransport)
			this.answered = true;
		}
	}

	/**
	 * An event longer than {@link #MAX_EVENT_BYTES}: the stream fails, and with it the
	 * request it answers.
	 */
	static final class EventTooLargeException extends IllegalStateException {

		private static final long serialVersionUID = 1L;

		EventTooLargeException() {
			super("the server sent an event longer than " + MAX_EVENT_BYTES + " bytes");
		}

	}

}
