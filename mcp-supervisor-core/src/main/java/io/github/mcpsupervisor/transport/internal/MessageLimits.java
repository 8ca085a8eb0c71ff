package io.github.mcpsupervisor.transport.internal;

/**
 * The bound on one JSON-RPC message that every transport reads, whatever its kind.
 *
 * @since 0.1.0
 */
public final class MessageLimits {

	/**
	 * The longest JSON-RPC message that is read (a stdout line, an event's data): a
	 * longer one ends the generation (the SDK's own stdio transport used the same bound).
	 */
	public static final int MAX_MESSAGE_BYTES = 16 * 1024 * 1024;

	private MessageLimits() {
	}

}
