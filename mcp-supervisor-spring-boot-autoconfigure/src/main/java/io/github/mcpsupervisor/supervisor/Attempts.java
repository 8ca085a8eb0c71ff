package io.github.mcpsupervisor.supervisor;

import java.util.function.IntConsumer;

import io.github.mcpsupervisor.supervisor.McpConnectException.Kind;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

/**
 * Runs a server's connection attempts for its state machine: creates a generation's
 * connection and opens it on a tracked worker, outside the lock, and reports how the
 * attempt ended. What follows is the state machine's decision.
 */
final class Attempts {

	private static final Log logger = LogFactory.getLog(Attempts.class);

	private final String name;

	private final McpConnector connector;

	private final WorkTracker work;

	private final IntConsumer toolsChanged;

	private final Outcomes outcomes;

	Attempts(String name, McpConnector connector, WorkTracker work, IntConsumer toolsChanged, Outcomes outcomes) {
		this.name = name;
		this.connector = connector;
		this.work = work;
		this.toolsChanged = toolsChanged;
		this.outcomes = outcomes;
	}

	/**
	 * Creates the connection of a generation; called under the lock.
	 * @param generation the generation's number
	 * @return the connection, not yet open
	 * @throws McpConnectException if the connector throws: it costs an attempt, like a
	 * failed connect
	 */
	McpConnection create(int generation) throws McpConnectException {
		try {
			return this.connector.create(generation, () -> this.toolsChanged.accept(generation));
		}
		catch (RuntimeException ex) {
			logger.debug("MCP server '" + this.name + "': cannot create generation " + generation, ex);
			throw new McpConnectException(Kind.TRANSIENT, String.valueOf(ex.getMessage()), null, ex);
		}
		catch (LinkageError ex) {
			throw new McpConnectException(Kind.CONFIGURATION, incompatible(ex), null, ex);
		}
	}

	private static String incompatible(LinkageError ex) {
		return "a library on the class path does not fit this version of the starter (" + ex
				+ "); check the MCP SDK's version with the dependency tree";
	}

	/**
	 * Opens a created connection on a tracked worker and reports the outcome.
	 * @param connection the connection
	 */
	void open(McpConnection connection) {
		this.work.track(() -> run(connection));
	}

	private void run(McpConnection connection) {
		try {
			connection.open();
		}
		catch (McpConnectException ex) {
			this.outcomes.failed(connection, ex);
			return;
		}
		catch (RuntimeException ex) {
			this.outcomes.failed(connection,
					new McpConnectException(Kind.TRANSIENT, String.valueOf(ex.getMessage()), null, ex));
			return;
		}
		catch (LinkageError ex) {
			// a library on the class path that does not fit (an MCP SDK of another
			// version): the open may have left a process behind it, and no retry helps
			boolean confirmed = connection.terminate();
			this.outcomes.failed(connection, new McpConnectException(
					confirmed ? Kind.CONFIGURATION : Kind.NOT_CONFIRMED_DEAD, incompatible(ex), null, ex));
			return;
		}
		this.outcomes.connected(connection);
	}

	/**
	 * Where an attempt's outcome goes.
	 */
	interface Outcomes {

		/**
		 * The attempt connected.
		 * @param connection its connection, open
		 */
		void connected(McpConnection connection);

		/**
		 * The attempt failed.
		 * @param connection its connection
		 * @param ex why
		 */
		void failed(McpConnection connection, McpConnectException ex);

	}

}
