package io.github.mcpsupervisor.autoconfigure;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import io.github.mcpsupervisor.autoconfigure.properties.McpPropertiesBinder;
import io.github.mcpsupervisor.supervisor.McpSupervisors;
import io.github.mcpsupervisor.supervisor.SupervisorScheduler;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

import org.springframework.context.SmartLifecycle;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.core.io.Resource;
import org.springframework.core.io.ResourceLoader;

/**
 * Reads the files of {@code mcp.servers-configuration} every interval and applies a
 * change of their contents to the servers. The contents are compared, not the times of
 * the files: an editor's atomic rename, a Kubernetes ConfigMap's symbolic link swap and a
 * write within the same second are all seen, and a file touched without a change is not.
 * A change that cannot be applied (invalid JSON, an invalid server) is refused with an
 * error naming the files and the cause, and nothing changes until the files change again.
 */
final class McpServersFileWatch implements SmartLifecycle {

	private static final Log logger = LogFactory.getLog(McpServersFileWatch.class);

	private final McpServersReload reload;

	private final ConfigurableEnvironment environment;

	private final ResourceLoader resources;

	private final SupervisorScheduler scheduler;

	private final Duration interval;

	private final Object lock = new Object();

	// guarded by lock
	private Map<String, byte @Nullable []> seen = Map.of();

	private SupervisorScheduler.@Nullable Cancellable next;

	private boolean running;

	McpServersFileWatch(McpServersReload reload, ConfigurableEnvironment environment, ResourceLoader resources,
			SupervisorScheduler scheduler, Duration interval) {
		this.reload = reload;
		this.environment = environment;
		this.resources = resources;
		this.scheduler = scheduler;
		this.interval = interval;
	}

	@Override
	public void start() {
		synchronized (this.lock) {
			this.seen = contents();
			this.running = true;
			// no file on the file system, nothing to watch
			if (!this.seen.isEmpty()) {
				this.next = this.scheduler.schedule(this.interval, this::check);
			}
		}
	}

	@Override
	public void stop() {
		synchronized (this.lock) {
			this.running = false;
			if (this.next != null) {
				this.next.cancel();
				this.next = null;
			}
		}
	}

	@Override
	public boolean isRunning() {
		synchronized (this.lock) {
			return this.running;
		}
	}

	@Override
	public int getPhase() {
		// after the servers have started, before they stop
		return McpSupervisors.PHASE + 2;
	}

	/**
	 * Reads the files and applies them if they changed since they were last read.
	 */
	void check() {
		try {
			Map<String, byte @Nullable []> now = contents();
			boolean changed;
			synchronized (this.lock) {
				if (!this.running) {
					return;
				}
				changed = !same(this.seen, now);
				this.seen = now;
			}
			if (changed) {
				this.reload.apply("the file" + ((now.size() > 1) ? "s " : " ") + String.join(", ", now.keySet()));
			}
		}
		catch (RuntimeException ex) {
			logger.error("Watching the MCP servers' files failed", ex);
		}
		finally {
			synchronized (this.lock) {
				if (this.running) {
					this.next = this.scheduler.schedule(this.interval, this::check);
				}
			}
		}
	}

	// the contents of each file on the file system, null for one that cannot be read now
	private Map<String, byte @Nullable []> contents() {
		Map<String, byte @Nullable []> contents = new LinkedHashMap<>();
		for (String location : McpPropertiesBinder.serversFiles(this.environment)) {
			Resource resource = this.resources.getResource(location.trim());
			if (resource.isFile()) {
				contents.put(location, read(resource));
			}
		}
		return contents;
	}

	private static byte @Nullable [] read(Resource resource) {
		try {
			return resource.getContentAsByteArray();
		}
		catch (IOException ex) {
			return null;
		}
	}

	private static boolean same(Map<String, byte @Nullable []> one, Map<String, byte @Nullable []> other) {
		if (!one.keySet().equals(other.keySet())) {
			return false;
		}
		List<String> changed = new ArrayList<>();
		one.forEach((location, content) -> {
			if (!Arrays.equals(content, other.get(location))) {
				changed.add(location);
			}
		});
		return changed.isEmpty();
	}

}
