package io.github.mcpsupervisor.e2e;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;

import io.github.mcpsupervisor.connector.McpConnectors;
import io.github.mcpsupervisor.connector.McpConnectors.Protocol;
import io.github.mcpsupervisor.connector.StdioStarts;
import io.github.mcpsupervisor.supervisor.McpServerState;
import io.github.mcpsupervisor.supervisor.McpServerSupervisor;
import io.github.mcpsupervisor.supervisor.McpSupervisors;
import io.github.mcpsupervisor.supervisor.McpSupervisors.SupervisedServer;
import io.github.mcpsupervisor.supervisor.ThreadPoolSupervisorScheduler;
import io.github.mcpsupervisor.transport.StdioServerDefinition;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * More stdio servers than the application's bound on starts, started at once: the minimal
 * test server records when each process started and when it answered {@code initialize},
 * and no more processes than the bound are ever between the two.
 */
@Tag("boot-independent")
class BoundedStartsIT {

	private static final int BOUND = 2;

	private static final int SERVERS = 6;

	private final ThreadPoolSupervisorScheduler scheduler = new ThreadPoolSupervisorScheduler();

	private @Nullable McpSupervisors supervisors;

	@TempDir
	Path directory;

	@AfterEach
	void stop() {
		if (this.supervisors != null) {
			this.supervisors.stop();
		}
		this.scheduler.close();
		await().atMost(TestServers.PATIENCE).until(() -> ProcessHandle.current().children().findAny().isEmpty());
	}

	@Test
	void moreStdioServersThanTheBoundStartedAtOnceNeverStartMoreThanTheBoundAtOnce() throws IOException {
		Path log = this.directory.resolve("starts.log");
		StdioStarts starts = StdioStarts.atMost(BOUND);
		List<SupervisedServer> servers = IntStream.rangeClosed(1, SERVERS).mapToObj((i) -> {
			StdioServerDefinition server = fixture("s" + i, log);
			McpServerSupervisor supervisor = McpServerSupervisor
				.builder(server.name(), McpConnectors.stdio(server, this.scheduler, Protocol.V2025_11_25, starts),
						this.scheduler)
				.build();
			return new SupervisedServer(supervisor, true, true, TestServers.PATIENCE, Duration.ofSeconds(10));
		}).toList();
		this.supervisors = new McpSupervisors(servers);
		this.supervisors.start();
		assertThat(this.supervisors.supervisors())
			.allSatisfy((supervisor) -> assertThat(supervisor.state()).isEqualTo(McpServerState.UP));
		List<Event> events = events(log);
		assertThat(events).filteredOn(Event::start).hasSize(SERVERS);
		assertThat(mostAtOnce(events)).as("processes started and not yet initialized at once").isEqualTo(BOUND);
	}

	// The minimal server, its answer to initialize delayed: a start that takes its time.
	private static StdioServerDefinition fixture(String name, Path log) {
		Path script = TestServers.npmDirectory().resolve("minimal-mcp-server.js").toAbsolutePath();
		return TestServers.definition(name, "node", List.of(script.toString(), name),
				Map.of("MCP_START_LOG", log.toString(), "MCP_INITIALIZE_DELAY_MS", "300"));
	}

	static List<Event> events(Path log) throws IOException {
		List<Event> events = new ArrayList<>();
		for (String line : Files.readAllLines(log)) {
			String[] fields = line.split(" ");
			events.add(new Event("start".equals(fields[0]), Long.parseLong(fields[1]), Double.parseDouble(fields[2])));
		}
		return events;
	}

	// The most processes that were between their start and their answer to initialize
	// at once; of two events at the same time, the answer is counted first.
	private static int mostAtOnce(List<Event> events) {
		List<Event> inOrder = new ArrayList<>(events);
		inOrder.sort(Comparator.comparingDouble(Event::millis).thenComparing(Event::start));
		int starting = 0;
		int most = 0;
		for (Event event : inOrder) {
			starting += event.start() ? 1 : -1;
			most = Math.max(most, starting);
		}
		return most;
	}

	/**
	 * A line of the start log.
	 *
	 * @param start whether the process started, or answered initialize
	 * @param pid the process
	 * @param millis when, wall-clock
	 */
	record Event(boolean start, long pid, double millis) {

	}

}
