package io.github.mcpsupervisor.supervisor;

import java.util.function.IntConsumer;

import io.github.mcpsupervisor.supervisor.McpConnector.McpConnectException;
import io.github.mcpsupervisor.supervisor.McpConnector.McpConnectException.Kind;
import io.github.mcpsupervisor.supervisor.McpConnector.McpConnection;
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
	 * @throws McpConnectException if the connector throws (anything but a
	 * {@link VirtualMachineError}): it costs an attempt, like a failed connect
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
		catch (VirtualMachineError ex) {
			throw ex;
		}
		catch (Throwable ex) {
			// any other error, or a checked exception thrown undeclared: nothing was
			// opened yet
			logger.debug("MCP server '" + this.name + "': cannot create generation " + generation, ex);
			throw new McpConnectException(Kind.TRANSIENT, "creating the connection failed: " + ex, null, ex);
		}
	}

	private static String incompatible(LinkageError ex) {
		return "a library on the class path does not fit this version of the starter (" + ex
				+ "); check the MCP SDK's version with the dependency tree";
	}

	/**
	 * Opens a created connection on a tracked worker and reports the outcome: whatever
	 * the open throws ends the attempt as failed; a {@link VirtualMachineError} is
	 * rethrown after that.
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
			boolean confirmed = terminate(connection);
			this.outcomes.failed(connection, new McpConnectException(
					confirmed ? Kind.CONFIGURATION : Kind.NOT_CONFIRMED_DEAD, incompatible(ex), null, ex));
			return;
		}
		catch (VirtualMachineError ex) {
			// the JVM's own trouble (out of memory, a stack overflow): the attempt is
			// still a failed one of the budget, then the error goes on to the worker
			failedUnexpectedly(connection, ex);
			throw ex;
		}
		catch (Throwable ex) {
			// any other error, or a checked exception thrown undeclared: a failed attempt
			// of the budget, never an attempt that never ends
			failedUnexpectedly(connection, ex);
			return;
		}
		this.outcomes.connected(connection);
	}

	// An open that threw what no open should may have left its process behind it.
	private void failedUnexpectedly(McpConnection connection, Throwable ex) {
		logger.debug("MCP server '" + this.name + "': opening generation " + connection.generation() + " failed", ex);
		boolean confirmed = terminate(connection);
		this.outcomes.failed(connection, new McpConnectException(confirmed ? Kind.TRANSIENT : Kind.NOT_CONFIRMED_DEAD,
				"opening the connection failed: " + ex, null, ex));
	}

	// A termination that throws counts as not confirmed gone.
	private boolean terminate(McpConnection connection) {
		return Retirements.terminateQuietly(this.name, connection);
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
