package io.github.mcpsupervisor.transport.internal;

import java.util.List;

import io.github.mcpsupervisor.internal.CauseChain;
import io.github.mcpsupervisor.supervisor.McpConnector.McpConnectException;
import io.github.mcpsupervisor.supervisor.McpConnector.McpConnectException.Kind;
import org.jspecify.annotations.Nullable;

/**
 * How one generation reaches its server, whatever revision it speaks (the process of a
 * stdio server, the exchanges of a Streamable HTTP server), and what a failure on that
 * way means for the generation.
 *
 * @since 0.1.0
 */
public interface Carrier {

	/**
	 * Starts what the generation runs on and opens its revision's client over it. On
	 * failure what was started is ended again.
	 * @throws McpConnectException if the generation could not be connected
	 */
	void open() throws McpConnectException;

	/**
	 * A call or a listing failed other than by the server's answer.
	 * @param ex the failure
	 * @return the failure to report to the caller: by default the same
	 */
	RuntimeException callFailed(RuntimeException ex);

	/**
	 * A liveness probe was not answered.
	 * @param ex the failure
	 */
	default void pingFailed(RuntimeException ex) {
	}

	/**
	 * A stream that the client keeps open on the server broke; the client opens it again
	 * while the generation lives.
	 * @param ex the failure
	 */
	default void streamFailed(Throwable ex) {
	}

	/** The tools were listed again. */
	default void listed() {
	}

	/**
	 * Closes the way to the server, after the client: requests in flight fail at once.
	 */
	void close();

	/**
	 * Ends what the generation runs on, bounded in time. Idempotent.
	 * @return whether it is confirmed gone
	 */
	boolean terminate();

	/**
	 * Returns how many messages the server has sent on the generation so far.
	 * @return the count
	 */
	long messagesReceived();

	@Nullable Long pid();

	List<String> stderrTail();

	/**
	 * Describes a client that could not be built: the application's client factory or one
	 * of its customizers threw, which no new attempt changes.
	 * @param ex what was thrown
	 * @param confirmed whether what the generation runs on is confirmed gone
	 * @return the failure of the attempt
	 */
	static McpConnectException clientBuildFailure(RuntimeException ex, boolean confirmed) {
		String message = "building the MCP client failed: " + CauseChain.rootMessage(ex);
		if (!confirmed) {
			return new McpConnectException(Kind.NOT_CONFIRMED_DEAD, message
					+ "; its process tree could not be confirmed gone, not reconnecting so that two servers never run",
					null, ex);
		}
		return new McpConnectException(Kind.CONFIGURATION, message, null, ex);
	}

}
