package io.github.mcpsupervisor.autoconfigure;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Predicate;

import io.github.mcpsupervisor.autoconfigure.properties.internal.McpPropertiesBinder;
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
 * The first contents compared are those the environment was built from, so that a change
 * made while the application started is applied too. A change that cannot be applied
 * (invalid JSON, an invalid server) is refused with an error naming the files and the
 * cause, and nothing changes until the files change again. Once {@link #stop()} returns,
 * no change is applied: it waits for the one under way.
 */
final class McpServersFileWatch implements SmartLifecycle {

	private static final Log logger = LogFactory.getLog(McpServersFileWatch.class);

	private final Predicate<String> reload;

	private final ConfigurableEnvironment environment;

	private final ResourceLoader resources;

	private final SupervisorScheduler scheduler;

	private final Duration interval;

	private final Object lock = new Object();

	// held by a check from its reading to its reload, so that a stop can wait for it
	private final ReentrantLock checking = new ReentrantLock();

	// guarded by lock
	private Map<String, byte @Nullable []> seen = Map.of();

	private SupervisorScheduler.@Nullable Cancellable next;

	private boolean running;

	McpServersFileWatch(Predicate<String> reload, ConfigurableEnvironment environment, ResourceLoader resources,
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
			this.seen = baseline(contents());
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
		// a check under way finishes its reload; the next one sees that the watch stopped
		this.checking.lock();
		this.checking.unlock();
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
		this.checking.lock();
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
				this.reload.test("the file" + ((now.size() > 1) ? "s " : " ") + String.join(", ", now.keySet()));
			}
		}
		catch (RuntimeException ex) {
			logger.error("Watching the MCP servers' files failed", ex);
		}
		finally {
			this.checking.unlock();
			synchronized (this.lock) {
				if (this.running) {
					this.next = this.scheduler.schedule(this.interval, this::check);
				}
			}
		}
	}

	// The contents the environment was built from, in place of those read now: a file
	// changed since then (e.g. while the servers started) differs at the first check.
	private Map<String, byte @Nullable []> baseline(Map<String, byte @Nullable []> now) {
		Map<String, byte[]> read = McpPropertiesBinder.serversFilesContents(this.environment);
		Map<String, byte @Nullable []> baseline = new LinkedHashMap<>();
		now.forEach((location, content) -> baseline.put(location,
				read.containsKey(location) ? read.get(location) : content));
		return baseline;
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
