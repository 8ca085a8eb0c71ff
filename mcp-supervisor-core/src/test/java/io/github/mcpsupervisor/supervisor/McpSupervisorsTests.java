package io.github.mcpsupervisor.supervisor;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.IntStream;

import io.github.mcpsupervisor.supervisor.McpSupervisors.SupervisedServer;
import io.modelcontextprotocol.spec.McpSchema.CallToolRequest;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * Tests for {@link McpSupervisors}.
 */
class McpSupervisorsTests {

	private final VirtualScheduler scheduler = new VirtualScheduler();

	@Test
	void startWaitsForHungServersInParallelNotOneAfterAnother() {
		// the virtual scheduler never runs the first attempts: every server hangs
		List<SupervisedServer> servers = IntStream.range(0, 3)
			.mapToObj((i) -> new SupervisedServer(
					McpServerSupervisor.builder("hung" + i, new FakeConnector(), this.scheduler).build(), false, false,
					Duration.ofSeconds(1), Duration.ofSeconds(1)))
			.toList();
		McpSupervisors supervisors = new McpSupervisors(servers);
		long started = System.nanoTime();
		supervisors.start();
		long took = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started);
		assertThat(took).as("3 hung servers with a 1 s bound each, waited for in parallel").isLessThan(2500);
		assertThat(supervisors.status()).extracting(McpServerStatus::state).containsOnly(McpServerState.STARTING);
	}

	@Test
	void anAddedServerIsStartedAndListedWithItsTools() {
		McpSupervisors supervisors = running(List.of());
		FakeConnector connector = new FakeConnector();
		supervisors.add(server("added", connector));
		this.scheduler.runReady();
		assertThat(supervisors.supervisors()).extracting(McpServerSupervisor::name).containsExactly("added");
		assertThat(supervisors.supervisor("added").state()).isEqualTo(McpServerState.UP);
		assertThat(supervisors.supervisor("added").tools().names()).containsExactly("echo", "add");
	}

	@Test
	void aServerAddedBeforeTheStartIsStartedWithTheOthers() {
		McpSupervisors supervisors = new McpSupervisors(List.of());
		FakeConnector connector = new FakeConnector();
		assertThat(supervisors.add(server("early", connector)).state()).isEqualTo(McpServerState.STOPPED);
		this.scheduler.runReady();
		assertThat(connector.spawns()).isZero();
		supervisors.start();
		this.scheduler.runReady();
		assertThat(supervisors.supervisor("early").state()).isEqualTo(McpServerState.UP);
	}

	@Test
	void addRefusesANameThatIsTaken() {
		McpSupervisors supervisors = running(List.of(server("one", new FakeConnector())));
		assertThatExceptionOfType(IllegalArgumentException.class)
			.isThrownBy(() -> supervisors.add(server("one", new FakeConnector())))
			.withMessageContaining("'one'");
	}

	@Test
	void replaceAndRemoveRefuseAnUnknownName() {
		McpSupervisors supervisors = running(List.of());
		assertThatExceptionOfType(NoSuchElementException.class)
			.isThrownBy(() -> supervisors.replace(server("none", new FakeConnector())));
		assertThatExceptionOfType(NoSuchElementException.class).isThrownBy(() -> supervisors.remove("none"))
			.withMessageContaining("'none'");
	}

	@Test
	void replaceStartsTheNewServerOnlyOnceTheOldOneIsGone() {
		// one connector for both: its count of live processes spans the two supervisors
		FakeConnector connector = new FakeConnector();
		McpSupervisors supervisors = running(List.of(server("files", connector)));
		this.scheduler.runReady();
		McpServerSupervisor old = supervisors.supervisor("files");
		assertThat(old.state()).isEqualTo(McpServerState.UP);
		SupervisedServer next = server("files", connector);
		supervisors.replace(next);
		assertThat(supervisors.supervisor("files")).isSameAs(next.supervisor());
		assertThat(old.tools().tools()).as("the old tools are withdrawn at once").isEmpty();
		assertThat(connector.spawns()).as("nothing spawned while the old process terminates").isEqualTo(1);
		this.scheduler.runReady();
		assertThat(connector.events).containsSubsequence("terminate g1", "open g1");
		assertThat(connector.maxAlive).isEqualTo(1);
		assertThat(old.state()).isEqualTo(McpServerState.STOPPED);
		assertThat(next.supervisor().state()).isEqualTo(McpServerState.UP);
	}

	@Test
	void aServerReplacedTwiceBeforeItsPredecessorStoppedStartsTheLastOnly() {
		FakeConnector connector = new FakeConnector();
		McpSupervisors supervisors = running(List.of(server("files", connector)));
		this.scheduler.runReady();
		SupervisedServer second = server("files", connector);
		SupervisedServer third = server("files", connector);
		supervisors.replace(second);
		supervisors.replace(third);
		this.scheduler.runReady();
		assertThat(second.supervisor().state()).isEqualTo(McpServerState.STOPPED);
		assertThat(third.supervisor().state()).isEqualTo(McpServerState.UP);
		assertThat(connector.spawns()).isEqualTo(2);
		assertThat(connector.maxAlive).isEqualTo(1);
	}

	@Test
	void removeWithdrawsTheServerStopsItAndTellsTheListenerLast() {
		List<String> told = Collections.synchronizedList(new ArrayList<>());
		SupervisorListener listener = new SupervisorListener() {

			@Override
			public void stateChanged(McpServerStateChange change) {
				told.add(change.to().name());
			}

			@Override
			public void removed(String server) {
				told.add("removed " + server);
			}

		};
		FakeConnector connector = new FakeConnector();
		McpSupervisors supervisors = new McpSupervisors(
				List.of(server("files", connector, listener), server("other", new FakeConnector())), listener);
		supervisors.start();
		this.scheduler.runReady();
		McpServerSupervisor removed = supervisors.supervisor("files");
		supervisors.remove("files");
		assertThat(supervisors.supervisors()).extracting(McpServerSupervisor::name).containsExactly("other");
		assertThat(told).doesNotContain("removed files");
		this.scheduler.runReady();
		assertThat(removed.state()).isEqualTo(McpServerState.STOPPED);
		assertThat(connector.alive).isZero();
		assertThat(told).endsWith("STOPPED", "removed files");
		this.scheduler.advance(Duration.ofHours(1));
		assertThat(connector.spawns()).as("nothing restarts a removed server").isEqualTo(1);
	}

	@Test
	void aRemovedNameMayBeGivenAgainAndItsServerStartsOnceTheOldOneIsGone() {
		FakeConnector connector = new FakeConnector();
		McpSupervisors supervisors = running(List.of(server("files", connector)));
		this.scheduler.runReady();
		supervisors.remove("files");
		SupervisedServer again = server("files", connector);
		supervisors.add(again);
		assertThat(connector.spawns()).isEqualTo(1);
		this.scheduler.runReady();
		assertThat(again.supervisor().state()).isEqualTo(McpServerState.UP);
		assertThat(connector.maxAlive).isEqualTo(1);
	}

	@Test
	void aStopWhileAReplacedServerTerminatesStartsNothingLate() {
		FakeConnector connector = new FakeConnector();
		McpSupervisors supervisors = running(List.of(server("files", connector)));
		this.scheduler.runReady();
		SupervisedServer next = server("files", connector);
		supervisors.replace(next);
		supervisors.stop();
		this.scheduler.advance(Duration.ofHours(1));
		assertThat(connector.spawns()).isEqualTo(1);
		assertThat(connector.alive).isZero();
		assertThat(next.supervisor().state()).isEqualTo(McpServerState.STOPPED);
		assertThat(this.scheduler.pendingTimers()).isZero();
	}

	@Test
	void concurrentAddsAndRemovesOfOneNameNeverRunTwoProcesses() throws Exception {
		FakeConnector connector = new FakeConnector();
		McpSupervisors supervisors = running(List.of());
		AtomicBoolean done = new AtomicBoolean();
		Thread worker = new Thread(() -> {
			while (!done.get()) {
				this.scheduler.runReady();
				Thread.onSpinWait();
			}
		});
		worker.start();
		ExecutorService callers = Executors.newFixedThreadPool(4);
		CountDownLatch go = new CountDownLatch(1);
		List<java.util.concurrent.Future<?>> work = new ArrayList<>();
		for (int t = 0; t < 4; t++) {
			work.add(callers.submit(() -> {
				go.await();
				for (int i = 0; i < 50; i++) {
					try {
						if (i % 2 == 0) {
							supervisors.add(server("same", connector));
						}
						else {
							supervisors.remove("same");
						}
					}
					catch (IllegalArgumentException | NoSuchElementException ex) {
						// another caller was first
					}
				}
				return null;
			}));
		}
		go.countDown();
		for (java.util.concurrent.Future<?> each : work) {
			each.get(60, TimeUnit.SECONDS);
		}
		callers.shutdown();
		supervisors.stop();
		done.set(true);
		worker.join();
		this.scheduler.runReady();
		assertThat(connector.maxAlive).isEqualTo(1);
		assertThat(connector.alive).isZero();
		assertThat(supervisors.supervisors().size()).isLessThanOrEqualTo(1);
	}

	@Test
	void aCallInFlightDuringAReplaceIsToldOfTheReplaceNotOfACrash() {
		FakeConnector connector = new FakeConnector();
		McpSupervisors supervisors = running(List.of(server("demo", connector)));
		this.scheduler.runReady();
		McpServerSupervisor replaced = supervisors.supervisor("demo");
		connector.last().onCall = (request) -> {
			supervisors.replace(server("demo", new FakeConnector()));
			this.scheduler.runReady();
			throw new IllegalStateException("MCP session with server terminated");
		};
		assertThatExceptionOfType(McpServerUnavailableException.class)
			.isThrownBy(() -> replaced.callTool(CallToolRequest.builder("echo").arguments(Map.of()).build()))
			.withMessage("MCP server 'demo' was replaced during the call to tool 'echo': the call may or may not"
					+ " have taken effect. A call made now goes to the server that replaced it.")
			.satisfies((ex) -> assertThat(ex.getState()).isEqualTo(McpServerState.STOPPED));
		supervisors.stop();
	}

	@Test
	void aCallInFlightDuringARemovalIsToldOfTheRemovalAndOfNoReconnect() {
		FakeConnector connector = new FakeConnector();
		McpSupervisors supervisors = running(List.of(server("demo", connector)));
		this.scheduler.runReady();
		McpServerSupervisor removed = supervisors.supervisor("demo");
		connector.last().onCall = (request) -> {
			supervisors.remove("demo");
			this.scheduler.runReady();
			throw new IllegalStateException("MCP session with server terminated");
		};
		assertThatExceptionOfType(McpServerUnavailableException.class)
			.isThrownBy(() -> removed.callTool(CallToolRequest.builder("echo").arguments(Map.of()).build()))
			.withMessage("MCP server 'demo' was removed during the call to tool 'echo': the call may or may not"
					+ " have taken effect.")
			.satisfies((ex) -> assertThat(ex.getState()).isEqualTo(McpServerState.STOPPED));
	}

	private McpSupervisors running(List<SupervisedServer> servers) {
		McpSupervisors supervisors = new McpSupervisors(servers);
		supervisors.start();
		return supervisors;
	}

	private SupervisedServer server(String name, FakeConnector connector) {
		return server(name, connector, SupervisorListener.NONE);
	}

	// the bounds are of real time: the virtual scheduler runs nothing while a call waits
	private SupervisedServer server(String name, FakeConnector connector, SupervisorListener listener) {
		return new SupervisedServer(
				McpServerSupervisor.builder(name, connector, this.scheduler).listener(listener).build(), false, false,
				Duration.ofMillis(20), Duration.ofMillis(20));
	}

}
