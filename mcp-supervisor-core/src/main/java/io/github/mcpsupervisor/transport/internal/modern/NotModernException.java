package io.github.mcpsupervisor.transport.internal.modern;

import io.github.mcpsupervisor.transport.internal.Revisions;
import org.jspecify.annotations.Nullable;

/**
 * A server's answer to {@code server/discover} (or its silence) was not that of a
 * 2026-07-28 server: under {@code auto} the client falls back to {@code initialize}.
 *
 * @since 0.1.0
 */
public class NotModernException extends IllegalStateException {

	private static final long serialVersionUID = 1L;

	private final boolean answered;

	/**
	 * Creates the exception.
	 * @param message what the server did instead
	 * @param answered whether the server answered (an error, a result of another shape)
	 * rather than falling silent or exiting
	 * @param cause the failure of the request, if any
	 */
	public NotModernException(String message, boolean answered, @Nullable Throwable cause) {
		super(message, cause);
		this.answered = answered;
	}

	/**
	 * Describes the failure of a server that a fixed 2026-07-28 was set for.
	 * @param reason what the server answered, its secrets masked
	 * @return the message
	 */
	public static String configurationMessage(String reason) {
		return "not a " + Revisions.V2026_07_28 + " server (" + reason
				+ "); set the server's protocol to auto or to the revision it speaks";
	}

	/**
	 * Returns whether the server answered, which tells that it speaks another revision;
	 * silence or an exit may also be a modern server that failed.
	 * @return whether it answered
	 */
	public boolean isAnswered() {
		return this.answered;
	}

}
