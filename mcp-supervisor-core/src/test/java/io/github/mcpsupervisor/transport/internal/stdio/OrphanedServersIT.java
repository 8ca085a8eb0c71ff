package io.github.mcpsupervisor.transport.internal.stdio;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import io.github.mcpsupervisor.demo.ServerCommands;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Servers that outlive their application, killed with SIGKILL outside a PID namespace:
 * the next start of the application terminates them, and never the servers of another
 * application that runs.
 */
@EnabledOnOs(OS.LINUX)
@Tag("boot-independent")
class OrphanedServersIT {

	private static final Duration PATIENCE = Duration.ofSeconds(90);

	// a JVM that runs a few seconds starts faster with the client compiler alone
	static final List<String> FAST_START = List.of("-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC");

	@TempDir
	Path runtimeDirectory;

	private final List<Process> applications = new ArrayList<>();

	private final List<Long> groups = new ArrayList<>();

	/**
	 * Reads the applications' output: threads of the test's own, as a read that never
	 * ends would hold a worker of the common pool for good (its only one on a 2-CPU Java
	 * 25).
	 */
	private final ExecutorService readers = Executors.newCachedThreadPool();

	@AfterEach
	void killEverything() {
		this.applications.forEach(Process::destroyForcibly);
		this.readers.shutdownNow();
		await().atMost(PATIENCE).until(() -> {
			this.groups.forEach((group) -> ProcessTree.group(group).forEach(ProcessHandle::destroyForcibly));
			return this.groups.stream().allMatch((group) -> ProcessTree.group(group).isEmpty());
		});
	}

	@Test
	void withoutRecordsAServerOutlivesItsKilledApplicationAndTheNextStartSpawnsAnother() throws Exception {
		long first = start("none");
		kill(0);
		assertThat(ProcessTree.group(first)).as("the first run's server lives on").isNotEmpty();
		long second = start("none");
		assertThat(ProcessTree.group(first)).as("still beside the next run's").isNotEmpty();
		assertThat(ProcessTree.group(second)).isNotEmpty();
	}

	@Test
	void theNextStartTerminatesTheServersOfAKilledRunButNotThoseOfARunningOne() throws Exception {
		String directory = this.runtimeDirectory.toString();
		long first = start(directory);
		long concurrent = start(directory);
		assertThat(ProcessTree.group(first)).as("a running application's server is left alone").isNotEmpty();
		kill(0);
		kill(1);
		assertThat(ProcessTree.group(first)).as("servers outlive the application killed with SIGKILL").isNotEmpty();
		assertThat(ProcessTree.group(concurrent)).isNotEmpty();
		long next = start(directory);
		assertThat(ProcessTree.group(first)).as("the killed runs' groups are gone before the next spawn").isEmpty();
		assertThat(ProcessTree.group(concurrent)).isEmpty();
		assertThat(ProcessTree.group(next)).hasSize(2);
		try (Stream<Path> records = Files.list(this.runtimeDirectory)) {
			assertThat(records.map((file) -> file.getFileName().toString())).singleElement()
				.satisfies((name) -> assertThat(name).startsWith(next + "-"));
		}
	}

	// Starts a run and returns its server's pid once it is up.
	private long start(String runtimeDirectory) throws Exception {
		List<String> command = new ArrayList<>(List.of(ServerCommands.java()));
		command.addAll(FAST_START);
		command.addAll(List.of("-cp", System.getProperty("java.class.path"), OrphaningApplication.class.getName(),
				runtimeDirectory));
		Process application = new ProcessBuilder(command).redirectErrorStream(true).start();
		this.applications.add(application);
		BufferedReader output = new BufferedReader(
				new InputStreamReader(application.getInputStream(), StandardCharsets.UTF_8));
		long pid = CompletableFuture.supplyAsync(() -> {
			try {
				long found = -1;
				for (String line = output.readLine(); line != null; line = output.readLine()) {
					if (line.startsWith("pid=")) {
						found = Long.parseLong(line.substring(4));
					}
					if (line.startsWith("started=")) {
						assertThat(line).isEqualTo("started=UP");
						return found;
					}
				}
				throw new IllegalStateException("the application ended before its server was up");
			}
			catch (java.io.IOException ex) {
				throw new IllegalStateException(ex);
			}
		}, this.readers).get(PATIENCE.toSeconds(), TimeUnit.SECONDS);
		this.groups.add(pid);
		// the rest of its output is drained so that it never blocks
		CompletableFuture.runAsync(() -> output.lines().forEach((line) -> {
		}), this.readers);
		await().atMost(PATIENCE).until(() -> ProcessTree.group(pid).size() == 2);
		return pid;
	}

	// SIGKILL, as an OOM killer or kill -9 would.
	private void kill(int run) throws Exception {
		Process application = this.applications.get(run);
		application.destroyForcibly();
		assertThat(application.waitFor(60, TimeUnit.SECONDS)).isTrue();
	}

}
