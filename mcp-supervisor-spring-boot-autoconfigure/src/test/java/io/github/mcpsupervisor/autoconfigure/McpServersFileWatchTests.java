package io.github.mcpsupervisor.autoconfigure;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Predicate;

import io.github.mcpsupervisor.autoconfigure.properties.internal.McpPropertiesBinder;
import io.github.mcpsupervisor.supervisor.VirtualScheduler;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import org.springframework.boot.io.ApplicationResourceLoader;
import org.springframework.core.env.MapPropertySource;
import org.springframework.core.env.StandardEnvironment;
import org.springframework.core.io.ResourceLoader;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Tests for {@link McpServersFileWatch}: a change of the servers' files is applied once,
 * from the content the environment was built from, and none is applied once the watch has
 * stopped.
 */
class McpServersFileWatchTests {

	private static final Duration INTERVAL = Duration.ofSeconds(2);

	private static final String SERVER = "{\"mcpServers\": {\"one\": {\"command\": \"/nonexistent/mcp-server\"}}}";

	private static final String CHANGED = "{\"mcpServers\": {\"two\": {\"command\": \"/nonexistent/mcp-server\"}}}";

	private final VirtualScheduler scheduler = new VirtualScheduler();

	private final ResourceLoader resources = ApplicationResourceLoader.get();

	private final StandardEnvironment environment = new StandardEnvironment();

	private final List<String> reloads = new CopyOnWriteArrayList<>();

	@TempDir
	Path directory;

	@Test
	void aFileChangedBetweenTheEnvironmentAndTheStartOfTheWatchIsApplied() throws IOException {
		Path file = serversFile(SERVER);
		McpPropertiesBinder.readServersFiles(this.environment, this.resources);
		// e.g. a ConfigMap updated while the servers started
		Files.writeString(file, CHANGED);
		McpServersFileWatch watch = watch((source) -> this.reloads.add(source));
		watch.start();
		this.scheduler.advance(INTERVAL);
		assertThat(this.reloads).containsExactly("the file file:" + file);
		this.scheduler.advance(INTERVAL.multipliedBy(3));
		assertThat(this.reloads).hasSize(1);
		watch.stop();
	}

	@Test
	void aFileUnchangedSinceTheEnvironmentIsNotApplied() throws IOException {
		serversFile(SERVER);
		McpPropertiesBinder.readServersFiles(this.environment, this.resources);
		McpServersFileWatch watch = watch((source) -> this.reloads.add(source));
		watch.start();
		this.scheduler.advance(INTERVAL.multipliedBy(3));
		assertThat(this.reloads).isEmpty();
		watch.stop();
	}

	@Test
	void aRefusedChangeIsNotTriedAgainUntilTheFileChangesAgain() throws IOException {
		Path file = serversFile(SERVER);
		McpPropertiesBinder.readServersFiles(this.environment, this.resources);
		McpServersFileWatch watch = watch((source) -> !this.reloads.add(source));
		watch.start();
		Files.writeString(file, "{ \"mcpServers\": ");
		this.scheduler.advance(INTERVAL.multipliedBy(3));
		assertThat(this.reloads).hasSize(1);
		Files.writeString(file, CHANGED);
		this.scheduler.advance(INTERVAL);
		assertThat(this.reloads).hasSize(2);
		watch.stop();
	}

	@Test
	void stopWaitsForTheReloadUnderWay() throws Exception {
		Path file = serversFile(SERVER);
		McpPropertiesBinder.readServersFiles(this.environment, this.resources);
		CountDownLatch reloading = new CountDownLatch(1);
		CountDownLatch release = new CountDownLatch(1);
		AtomicBoolean stopped = new AtomicBoolean();
		AtomicBoolean ranAfterStop = new AtomicBoolean();
		McpServersFileWatch watch = watch((source) -> {
			reloading.countDown();
			awaitQuietly(release);
			ranAfterStop.set(stopped.get());
			return true;
		});
		watch.start();
		Files.writeString(file, CHANGED);
		Thread check = new Thread(watch::check, "check");
		check.start();
		assertThat(reloading.await(30, TimeUnit.SECONDS)).isTrue();
		Thread stop = new Thread(() -> {
			watch.stop();
			stopped.set(true);
		}, "stop");
		stop.start();
		// stop() either returned at once or waits for the reload
		await().atMost(Duration.ofSeconds(30))
			.until(() -> stop.getState() == Thread.State.TERMINATED || stop.getState() == Thread.State.WAITING);
		release.countDown();
		check.join(30_000);
		stop.join(30_000);
		assertThat(stopped).isTrue();
		assertThat(ranAfterStop).as("a reload ran after stop() returned").isFalse();
		this.scheduler.advance(INTERVAL.multipliedBy(3));
		assertThat(watch.isRunning()).isFalse();
	}

	private Path serversFile(String content) throws IOException {
		Path file = Files.writeString(this.directory.resolve("mcp.json"), content);
		this.environment.getPropertySources()
			.addFirst(new MapPropertySource("test", Map.of("mcp.servers-configuration", "file:" + file)));
		return file;
	}

	private McpServersFileWatch watch(Predicate<String> reload) {
		return new McpServersFileWatch(reload, this.environment, this.resources, this.scheduler, INTERVAL);
	}

	private static void awaitQuietly(CountDownLatch latch) {
		try {
			latch.await(30, TimeUnit.SECONDS);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}

}
