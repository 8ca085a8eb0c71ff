package io.github.mcpsupervisor.supervisor;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;

/**
 * A listener that hands every notification to its server's lane of a
 * {@link ListenerDispatcher}: the step that made it goes on at once, and the
 * notifications of one server reach the listener in order.
 */
final class DispatchingListener implements SupervisorListener {

	private final SupervisorListener listener;

	private final ListenerDispatcher dispatcher;

	private final Map<String, Executor> lanes = new ConcurrentHashMap<>();

	DispatchingListener(SupervisorListener listener, ListenerDispatcher dispatcher) {
		this.listener = listener;
		this.dispatcher = dispatcher;
	}

	@Override
	public void toolsChanged(String server, ToolSet tools) {
		lane(server).execute(() -> this.listener.toolsChanged(server, tools));
	}

	@Override
	public void stateChanged(McpServerStateChange change) {
		lane(change.server()).execute(() -> this.listener.stateChanged(change));
	}

	@Override
	public void attemptFinished(String server, int generation, boolean connected) {
		lane(server).execute(() -> this.listener.attemptFinished(server, generation, connected));
	}

	@Override
	public void recovered(String server, int attempts, Duration outage) {
		lane(server).execute(() -> this.listener.recovered(server, attempts, outage));
	}

	@Override
	public void restarting(String server, RestartCause cause) {
		lane(server).execute(() -> this.listener.restarting(server, cause));
	}

	// one lane per configured server, created at its first notification
	private Executor lane(String server) {
		return this.lanes.computeIfAbsent(server, this.dispatcher::lane);
	}

}
