package io.github.mcpsupervisor.supervisor;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;

import io.modelcontextprotocol.spec.McpSchema.Prompt;
import io.modelcontextprotocol.spec.McpSchema.Resource;
import io.modelcontextprotocol.spec.McpSchema.ResourceContents;

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

	@Override
	public void cooldownOver(String server, Duration cooldown) {
		lane(server).execute(() -> this.listener.cooldownOver(server, cooldown));
	}

	@Override
	public void retryScheduled(String server, int attempt, Duration delay) {
		lane(server).execute(() -> this.listener.retryScheduled(server, attempt, delay));
	}

	@Override
	public void promoted(String server, int generation, int replaced) {
		lane(server).execute(() -> this.listener.promoted(server, generation, replaced));
	}

	@Override
	public void resourcesChanged(String server, List<Resource> resources) {
		lane(server).execute(() -> this.listener.resourcesChanged(server, resources));
	}

	@Override
	public void promptsChanged(String server, List<Prompt> prompts) {
		lane(server).execute(() -> this.listener.promptsChanged(server, prompts));
	}

	@Override
	public void resourceUpdated(String server, String uri, List<ResourceContents> contents) {
		lane(server).execute(() -> this.listener.resourceUpdated(server, uri, contents));
	}

	@Override
	public void removed(String server) {
		lane(server).execute(() -> this.listener.removed(server));
	}

	// one lane per configured server, created at its first notification
	private Executor lane(String server) {
		return this.lanes.computeIfAbsent(server, this.dispatcher::lane);
	}

}
