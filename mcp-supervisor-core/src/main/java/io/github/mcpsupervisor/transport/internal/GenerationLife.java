package io.github.mcpsupervisor.transport.internal;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.UnaryOperator;

import io.github.mcpsupervisor.internal.ServerText;
import io.github.mcpsupervisor.supervisor.McpServerStatus.ExitStatus;
import org.jspecify.annotations.Nullable;

/**
 * The life of one generation, which its carrier and its revision's client share: lost
 * once, for the first reason it is given, its client closed as it ends, and what it
 * reports of the server masked.
 *
 * @since 0.1.0
 */
public final class GenerationLife {

	private final String server;

	private final int number;

	private final String defaultLossReason;

	private final UnaryOperator<String> redaction;

	private final CompletableFuture<ExitStatus> lost = new CompletableFuture<>();

	private final AtomicReference<@Nullable String> endedBecause = new AtomicReference<>();

	private volatile Runnable clientClosing = () -> {
	};

	/**
	 * Creates the life of a generation.
	 * @param server the server's name
	 * @param number the generation's number
	 * @param defaultLossReason how the generation ended when nothing else tells it
	 * @param redaction masks the secrets of the server's configuration in a text that
	 * quotes them
	 */
	public GenerationLife(String server, int number, String defaultLossReason, UnaryOperator<String> redaction) {
		this.server = server;
		this.number = number;
		this.defaultLossReason = defaultLossReason;
		this.redaction = redaction;
	}

	public String server() {
		return this.server;
	}

	public int number() {
		return this.number;
	}

	/**
	 * Returns what completes when the generation has ended.
	 * @return the exit of the generation's process, {@code null} when it has none
	 */
	public CompletableFuture<ExitStatus> lost() {
		return this.lost;
	}

	public boolean isLost() {
		return this.lost.isDone();
	}

	/**
	 * Ends the generation for the given reason, unless it has already ended: it is lost
	 * from now on and its client is closed, so that calls in flight fail at once.
	 * @param reason why it ended, as {@link #lossReason()} tells it
	 */
	public void end(String reason) {
		if (!this.lost.isDone() && this.endedBecause.compareAndSet(null, reason)) {
			this.lost.complete(null);
		}
		closeClient();
	}

	/**
	 * Ends the generation with the exit of its process, and closes its client.
	 * @param exit the exit, its secrets masked
	 */
	public void exited(ExitStatus exit) {
		this.lost.complete(exit);
		closeClient();
	}

	/**
	 * Closes the generation's client, so that calls in flight fail at once; the client is
	 * never used again.
	 */
	public void closeClient() {
		this.clientClosing.run();
	}

	// The connection that the generation is the life of closes its client.
	void closeClientWith(Runnable closing) {
		this.clientClosing = closing;
	}

	/**
	 * Returns why {@link #end(String)} ended the generation.
	 * @return the reason, or {@code null} if it was not ended that way
	 */
	public @Nullable String endedBecause() {
		return this.endedBecause.get();
	}

	/**
	 * Describes how the generation ended.
	 * @return the reason it was ended for, or the default one
	 */
	public String lossReason() {
		String reason = this.endedBecause.get();
		return (reason != null) ? reason : this.defaultLossReason;
	}

	/**
	 * Masks the secrets of the server's configuration wherever a text of the server
	 * quotes them.
	 * @param text a text of the server
	 * @return the text with the secrets masked
	 */
	public String redact(String text) {
		return this.redaction.apply(text);
	}

	/**
	 * Returns a text of the server fit for a log line: masked, on one line, bounded.
	 * @param text a text of the server
	 * @return the text as it may be logged
	 */
	public String loggable(@Nullable String text) {
		return ServerText.forLog(redact(String.valueOf(text)));
	}

	/**
	 * Returns the client of the generation while it lives.
	 * @param <C> the type of the client
	 * @param client the client, {@code null} before it is built
	 * @return the client
	 * @throws IllegalStateException if it is not built yet or the generation is lost
	 */
	public <C> C require(@Nullable C client) {
		if (client == null || isLost()) {
			throw new IllegalStateException(
					"generation " + this.number + " of MCP server '" + this.server + "' is not connected");
		}
		return client;
	}

}
