package io.github.mcpsupervisor.transport.internal.stdio;

import java.util.concurrent.CompletableFuture;

import io.github.mcpsupervisor.transport.internal.RevisionClient;

/**
 * How the client of one revision speaks over the pipes of a generation's process: the
 * revision's SDK transport, built once the process runs.
 */
interface StdioBinding {

	/**
	 * Returns the client of the generation.
	 * @return the client, connected by {@link #connect(StdioServerProcess, String)}
	 */
	RevisionClient client();

	/**
	 * Builds the revision's transport over the process's stdin and stdout, and the client
	 * over it.
	 * @param process the generation's process, started
	 * @param label names the transport's threads
	 */
	void connect(StdioServerProcess process, String label);

	/**
	 * Completes once every message the server wrote before its stdout closed has been
	 * handed on, so that an answer written just before an exit is delivered before the
	 * exit is reported.
	 * @return the end of stdout, or a completed future when the transport does not tell
	 */
	CompletableFuture<?> drained();

	/**
	 * Returns how many JSON-RPC messages the server has sent so far.
	 * @return the count
	 */
	long messagesReceived();

	/** Closes the transport, after the client: it connects no more. */
	void close();

}
