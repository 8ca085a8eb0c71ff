package io.github.mcpsupervisor.supervisor;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;

import io.github.mcpsupervisor.internal.ListenerDispatcher;
import io.github.mcpsupervisor.supervisor.SupervisorListener.RestartCause;
import io.modelcontextprotocol.spec.McpSchema.Prompt;
import io.modelcontextprotocol.spec.McpSchema.Resource;
import io.modelcontextprotocol.spec.McpSchema.ResourceContents;

/**
 * A listener that hands every notification to its server's lane of a
 * {@link ListenerDispatcher}: the step that made it goes on at once, and the
 * notifications of one server reach the listener in order. A removed server's lane is
 * released once its removal was told, so that the lanes are those of the servers that
 * exist.
 */
final class DispatchingListener implements SupervisorListener {

	private final SupervisorListener listener;

	private final ListenerDispatcher dispatcher;

	private final Map<String, ListenerDispatcher.Lane> lanes = new ConcurrentHashMap<>();

	DispatchingListener(SupervisorListener listener, ListenerDispatcher dispatcher) {
		this.listener = listener;
		this.dispatcher = dispatcher;
	}

	@Override
	public void toolsChanged(String server, ToolSet tools) {
		dispatch(server, NotificationSizes.ofList(tools.tools()), () -> this.listener.toolsChanged(server, tools));
	}

	@Override
	public void stateChanged(McpServerStateChange change) {
		dispatch(change.server(), () -> this.listener.stateChanged(change));
	}

	@Override
	public void attemptFinished(String server, int generation, boolean connected) {
		dispatch(server, () -> this.listener.attemptFinished(server, generation, connected));
	}

	@Override
	public void recovered(String server, int attempts, Duration outage) {
		dispatch(server, () -> this.listener.recovered(server, attempts, outage));
	}

	@Override
	public void restarting(String server, RestartCause cause) {
		dispatch(server, () -> this.listener.restarting(server, cause));
	}

	@Override
	public void cooldownOver(String server, Duration cooldown) {
		dispatch(server, () -> this.listener.cooldownOver(server, cooldown));
	}

	@Override
	public void retryScheduled(String server, int attempt, Duration delay) {
		dispatch(server, () -> this.listener.retryScheduled(server, attempt, delay));
	}

	@Override
	public void promoted(String server, int generation, int replaced) {
		dispatch(server, () -> this.listener.promoted(server, generation, replaced));
	}

	@Override
	public void resourcesChanged(String server, List<Resource> resources) {
		dispatch(server, NotificationSizes.ofList(resources), () -> this.listener.resourcesChanged(server, resources));
	}

	@Override
	public void promptsChanged(String server, List<Prompt> prompts) {
		dispatch(server, NotificationSizes.ofList(prompts), () -> this.listener.promptsChanged(server, prompts));
	}

	@Override
	public void resourceUpdated(String server, String uri, List<ResourceContents> contents) {
		dispatch(server, NotificationSizes.ofContents(contents),
				() -> this.listener.resourceUpdated(server, uri, contents));
	}

	@Override
	public void removed(String server) {
		// never dropped: the lane, and what the listener keeps of the server, would stay
		give(server, (lane) -> lane.executeLast(() -> {
			try {
				this.listener.removed(server);
			}
			finally {
				release(server);
			}
		}));
	}

	int lanes() {
		return this.lanes.size();
	}

	// One lane per server, created at its first notification. A callback is given to it
	// under the map's lock of the name, so that a lane is never released while one
	// waits, and a server added again under the name never runs beside the removed
	// one's last callbacks.
	private void dispatch(String server, Runnable callback) {
		dispatch(server, NotificationSizes.OVERHEAD, callback);
	}

	private void dispatch(String server, long bytes, Runnable callback) {
		give(server, (lane) -> lane.execute(callback, bytes));
	}

	private void give(String server, Consumer<ListenerDispatcher.Lane> callback) {
		this.lanes.compute(server, (name, lane) -> {
			ListenerDispatcher.Lane current = (lane != null) ? lane : this.dispatcher.newLane(name);
			callback.accept(current);
			return current;
		});
	}

	// On the lane, after its server's removal was told: released unless a server of
	// the name already gave it more (released after that one's removal then).
	private void release(String server) {
		this.lanes.computeIfPresent(server, (name, lane) -> {
			if (!lane.idle()) {
				return lane;
			}
			lane.dispose();
			return null;
		});
	}

}
