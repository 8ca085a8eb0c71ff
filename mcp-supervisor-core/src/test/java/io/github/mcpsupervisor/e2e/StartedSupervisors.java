package io.github.mcpsupervisor.e2e;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

import io.github.mcpsupervisor.supervisor.CallPolicy;
import io.github.mcpsupervisor.supervisor.HealthCheckPolicy;
import io.github.mcpsupervisor.supervisor.McpConnector;
import io.github.mcpsupervisor.supervisor.McpServerState;
import io.github.mcpsupervisor.supervisor.McpServerStateChange;
import io.github.mcpsupervisor.supervisor.McpServerSupervisor;
import io.github.mcpsupervisor.supervisor.ReconnectPolicy;
import io.github.mcpsupervisor.supervisor.SupervisorListener;
import io.github.mcpsupervisor.supervisor.ThreadPoolSupervisorScheduler;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The supervisors an end-to-end test starts, on one scheduler, with every state change
 * they report: {@link #close() closed}, they are stopped, then what the test gave to be
 * closed with them, then the scheduler.
 */
final class StartedSupervisors implements AutoCloseable {

	private final ThreadPoolSupervisorScheduler scheduler = new ThreadPoolSupervisorScheduler();

	private final List<McpServerSupervisor> supervisors = new ArrayList<>();

	private final List<AutoCloseable> closeables = new ArrayList<>();

	private final List<McpServerStateChange> changes = new CopyOnWriteArrayList<>();

	private final ReconnectPolicy reconnect;

	StartedSupervisors(ReconnectPolicy reconnect) {
		this.reconnect = reconnect;
	}

	/**
	 * Returns the scheduler the supervisors run on, whose workers connectors take too.
	 * @return the scheduler
	 */
	ThreadPoolSupervisorScheduler scheduler() {
		return this.scheduler;
	}

	/**
	 * Closes something once the supervisors have stopped.
	 * @param <T> its type
	 * @param closeable what to close
	 * @return it
	 */
	<T extends AutoCloseable> T closeLater(T closeable) {
		this.closeables.add(closeable);
		return closeable;
	}

	/**
	 * Starts a supervisor and checks that its server is up.
	 * @param name the server's name
	 * @param connector its connector
	 * @param calls its call policy
	 * @param healthCheck its liveness probe
	 * @return the supervisor, up
	 */
	McpServerSupervisor start(String name, McpConnector connector, CallPolicy calls, HealthCheckPolicy healthCheck) {
		McpServerSupervisor supervisor = McpServerSupervisor.builder(name, connector, this.scheduler)
			.reconnect(this.reconnect)
			.calls(calls)
			.healthCheck(healthCheck)
			.listener(new SupervisorListener() {
				@Override
				public void stateChanged(McpServerStateChange change) {
					StartedSupervisors.this.changes.add(change);
				}
			})
			.build();
		this.supervisors.add(supervisor);
		assertThat(supervisor.start().join().state()).isEqualTo(McpServerState.UP);
		return supervisor;
	}

	/**
	 * Returns the state changes reported so far.
	 * @return the changes, in order
	 */
	List<McpServerStateChange> changes() {
		return this.changes;
	}

	/**
	 * Waits for the first move out of UP (a server's lastError moves on to each failed
	 * reconnect attempt; the loss itself is the transition).
	 * @return the move
	 */
	McpServerStateChange awaitLoss() {
		return await().atMost(TestServers.PATIENCE)
			.until(() -> this.changes.stream().filter((change) -> change.from() == McpServerState.UP).findFirst(),
					Optional::isPresent)
			.orElseThrow();
	}

	@Override
	public void close() throws Exception {
		for (McpServerSupervisor supervisor : this.supervisors) {
			supervisor.stop().get(30, TimeUnit.SECONDS);
		}
		for (AutoCloseable closeable : this.closeables) {
			closeable.close();
		}
		this.scheduler.close();
	}

}
