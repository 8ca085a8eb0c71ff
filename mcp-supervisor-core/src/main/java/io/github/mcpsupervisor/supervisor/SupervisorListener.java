package io.github.mcpsupervisor.supervisor;

import java.time.Duration;
import java.util.List;
import java.util.function.Consumer;

import io.github.mcpsupervisor.internal.ListenerDispatcher;
import io.modelcontextprotocol.spec.McpSchema.Prompt;
import io.modelcontextprotocol.spec.McpSchema.Resource;
import io.modelcontextprotocol.spec.McpSchema.ResourceContents;
import org.apache.commons.logging.LogFactory;

/**
 * Receives what a supervisor does, in order, outside its lock. Implementations must be
 * quick and must not throw; a failure is logged and ignored. In a Spring Boot
 * application, the application's listeners are {@link #dispatched} off the supervisor's
 * threads, so that they may call the server they hear from; a listener given to a
 * supervisor built without Boot is called on the supervisor's threads, and must not.
 *
 * @since 0.1.0
 */
public interface SupervisorListener {

	/** A listener that ignores everything. */
	SupervisorListener NONE = new SupervisorListener() {
	};

	/**
	 * The server's tool set was replaced (a new generation, a re-sync, a withdrawal, or
	 * the same tools marked {@link ToolSet#unavailable() unavailable} while the server is
	 * down).
	 * @param server the server's name
	 * @param tools the new tool set
	 */
	default void toolsChanged(String server, ToolSet tools) {
	}

	/**
	 * The server changed state.
	 * @param change the transition
	 */
	default void stateChanged(McpServerStateChange change) {
	}

	/**
	 * A connection attempt ended.
	 * @param server the server's name
	 * @param generation the generation it built
	 * @param connected whether it connected
	 */
	default void attemptFinished(String server, int generation, boolean connected) {
	}

	/**
	 * The server is up again after an outage: a generation connected after the last
	 * connected one left (it was lost, restarted, or given up as its tree survived its
	 * kill). Each outage is told once, also one that a reset ended after the server was
	 * given up; a server's first connection is no recovery, and an outage that a stop
	 * ends is not told.
	 * @param server the server's name
	 * @param attempts the attempts of this outage, the connecting one included
	 * @param outage from the moment the last connected generation left to the new
	 * connection
	 */
	default void recovered(String server, int attempts, Duration outage) {
	}

	/**
	 * The supervisor starts over with new generations after a server that had connected
	 * since its start (see {@link RestartCause} for when, and for what is not a restart).
	 * @param server the server's name
	 * @param cause why
	 */
	default void restarting(String server, RestartCause cause) {
	}

	/**
	 * The cooldown of a server given up after a spent outage budget is over: it tries
	 * again with a fresh budget (see {@link ReconnectPolicy.Cooldown}).
	 * @param server the server's name
	 * @param cooldown how long the server stayed given up
	 */
	default void cooldownOver(String server, Duration cooldown) {
	}

	/**
	 * The server said its list of resources changed: the whole new list, as read from it.
	 * @param server the server's name
	 * @param resources the resources it offers now
	 */
	default void resourcesChanged(String server, List<Resource> resources) {
	}

	/**
	 * The server said its list of prompts changed: the whole new list, as read from it.
	 * @param server the server's name
	 * @param prompts the prompts it offers now
	 */
	default void promptsChanged(String server, List<Prompt> prompts) {
	}

	/**
	 * A resource subscribed to (through {@code McpServerClient}) changed: its new
	 * contents, as read from the server while it is still subscribed to.
	 * @param server the server's name
	 * @param uri the URI subscribed to
	 * @param contents the contents read
	 */
	default void resourceUpdated(String server, String uri, List<ResourceContents> contents) {
	}

	/**
	 * The next attempt of an outage was scheduled after its backoff delay: the delay
	 * actually applied, jitter included.
	 * @param server the server's name
	 * @param attempt the attempt's number in this outage's budget, from 1
	 * @param delay how long the attempt waits before it starts
	 */
	default void retryScheduled(String server, int attempt, Duration delay) {
	}

	/**
	 * A standby generation became the serving one at once after the serving generation
	 * ended (lost, or ended on request), without a new attempt (see
	 * {@code standby.enabled}).
	 * @param server the server's name
	 * @param generation the generation that serves now
	 * @param replaced the generation that it replaced
	 */
	default void promoted(String server, int generation, int replaced) {
	}

	/**
	 * The server was removed from the application: its supervisor is stopped, and nothing
	 * more is told of it (a server added later under the same name is another server).
	 * @param server the server's name
	 */
	default void removed(String server) {
	}

	// One listener that fails (an application's handler) costs the others nothing.
	private static void safely(SupervisorListener listener, Consumer<SupervisorListener> call) {
		try {
			call.accept(listener);
		}
		catch (RuntimeException ex) {
			LogFactory.getLog(SupervisorListener.class).error("MCP supervisor listener " + listener + " failed", ex);
		}
	}

	/**
	 * Returns a listener that calls the given one on the lanes of a dispatcher, one lane
	 * per server: each server's notifications in order, none of them on the thread of the
	 * step that made it (which may be the thread that reads the server).
	 * @param listener the listener
	 * @param dispatcher the dispatcher
	 * @return the dispatching listener
	 */
	static SupervisorListener dispatched(SupervisorListener listener, ListenerDispatcher dispatcher) {
		return new DispatchingListener(listener, dispatcher);
	}

	/**
	 * Combines listeners, called in order.
	 * @param listeners the listeners
	 * @return a listener that calls each of them
	 */
	static SupervisorListener composite(List<? extends SupervisorListener> listeners) {
		List<SupervisorListener> all = List.copyOf(listeners);
		return new SupervisorListener() {

			@Override
			public void toolsChanged(String server, ToolSet tools) {
				all.forEach((listener) -> safely(listener, (each) -> each.toolsChanged(server, tools)));
			}

			@Override
			public void stateChanged(McpServerStateChange change) {
				all.forEach((listener) -> safely(listener, (each) -> each.stateChanged(change)));
			}

			@Override
			public void attemptFinished(String server, int generation, boolean connected) {
				all.forEach(
						(listener) -> safely(listener, (each) -> each.attemptFinished(server, generation, connected)));
			}

			@Override
			public void recovered(String server, int attempts, Duration outage) {
				all.forEach((listener) -> safely(listener, (each) -> each.recovered(server, attempts, outage)));
			}

			@Override
			public void restarting(String server, RestartCause cause) {
				all.forEach((listener) -> safely(listener, (each) -> each.restarting(server, cause)));
			}

			@Override
			public void cooldownOver(String server, Duration cooldown) {
				all.forEach((listener) -> safely(listener, (each) -> each.cooldownOver(server, cooldown)));
			}

			@Override
			public void retryScheduled(String server, int attempt, Duration delay) {
				all.forEach((listener) -> safely(listener, (each) -> each.retryScheduled(server, attempt, delay)));
			}

			@Override
			public void promoted(String server, int generation, int replaced) {
				all.forEach((listener) -> safely(listener, (each) -> each.promoted(server, generation, replaced)));
			}

			@Override
			public void resourcesChanged(String server, List<Resource> resources) {
				all.forEach((listener) -> safely(listener, (each) -> each.resourcesChanged(server, resources)));
			}

			@Override
			public void promptsChanged(String server, List<Prompt> prompts) {
				all.forEach((listener) -> safely(listener, (each) -> each.promptsChanged(server, prompts)));
			}

			@Override
			public void resourceUpdated(String server, String uri, List<ResourceContents> contents) {
				all.forEach((listener) -> safely(listener, (each) -> each.resourceUpdated(server, uri, contents)));
			}

			@Override
			public void removed(String server) {
				all.forEach((listener) -> safely(listener, (each) -> each.removed(server)));
			}

		};
	}

	/**
	 * Why a supervisor starts over with new generations after a server that had connected
	 * since its start: once when a connected generation ends and the supervisor
	 * reconnects it, and once when an operator's reset or restart brings back a server
	 * that the supervisor had stopped reconnecting ({@link McpServerState#DISCONNECTED},
	 * {@link McpServerState#FAILED}, {@link McpServerState#NEEDS_AUTHORIZATION}), or when
	 * the cooldown of a server given up after a spent budget is over. A reset or restart
	 * while the supervisor is reconnecting only hastens the restart already under way,
	 * and a server that never connected is not restarted: its attempts are.
	 *
	 * @since 0.1.0
	 */
	enum RestartCause {

		/** The connected generation's server process exited on its own. */
		CRASH,

		/**
		 * The connected generation's connection ended without a process exit: a
		 * Streamable HTTP server's transport failed, its session was lost or its requests
		 * were refused.
		 */
		CONNECTION_LOST,

		/**
		 * The connected generation stopped answering its liveness probe and was ended.
		 */
		LIVENESS,

		/**
		 * An operator reset the server after the supervisor had stopped reconnecting it.
		 */
		RESET,

		/**
		 * An operator restarted the server: its connected generation, or a server the
		 * supervisor had stopped reconnecting.
		 */
		RESTART,

		/**
		 * The cooldown of a server that had connected and was given up after a spent
		 * outage budget is over: it tries again with a fresh budget.
		 */
		COOLDOWN

	}

}
