package io.github.mcpsupervisor.supervisor;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import org.springframework.beans.factory.DisposableBean;
import org.springframework.context.SmartLifecycle;

/**
 * All supervised servers of the application, started in parallel with the application
 * context and stopped with it; the Java API to look at a server and to reset it.
 *
 * @since 0.1.0
 */
public class McpSupervisors implements SmartLifecycle, DisposableBean {

	/**
	 * Starts before the web server, so that tools are there when traffic arrives; stops
	 * after it.
	 */
	public static final int PHASE = SmartLifecycle.DEFAULT_PHASE - 2048;

	private static final Log logger = LogFactory.getLog(McpSupervisors.class);

	private final Map<String, SupervisedServer> servers = new LinkedHashMap<>();

	private volatile boolean running;

	public McpSupervisors(List<SupervisedServer> servers) {
		servers.forEach((server) -> this.servers.put(server.supervisor().name(), server));
	}

	/**
	 * Starts every server in parallel and waits until each has connected or failed its
	 * first attempt, each bounded by its startup timeout counted from the common start:
	 * hung servers cost the longest bound, not the sum of them.
	 * @throws McpServerStartupException if a server that must start did not
	 */
	@Override
	public void start() {
		this.running = true;
		Map<SupervisedServer, CompletableFuture<McpServerStatus>> outcomes = new LinkedHashMap<>();
		this.servers.values()
			.forEach((server) -> outcomes.put(server,
					server.supervisor()
						.start()
						.copy()
						.completeOnTimeout(null, server.startupTimeout().toMillis(), TimeUnit.MILLISECONDS)));
		awaitAll(outcomes.values());
		List<McpServerStatus> failures = new ArrayList<>();
		outcomes.forEach((server, outcome) -> {
			McpServerStatus status = outcome.getNow(null);
			if (status == null) {
				status = server.supervisor().status();
			}
			if (server.failOnStartupError() && status.state() != McpServerState.UP) {
				failures.add(status);
			}
		});
		if (!failures.isEmpty()) {
			stop();
			throw new McpServerStartupException(failures);
		}
	}

	private static void awaitAll(Collection<CompletableFuture<McpServerStatus>> outcomes) {
		try {
			CompletableFuture.allOf(outcomes.toArray(CompletableFuture[]::new)).get();
		}
		catch (ExecutionException ex) {
			// judged by each server's status
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}

	/**
	 * Stops every server in parallel: timers cancelled, clients closed, process trees
	 * terminated (bounded), tools withdrawn.
	 */
	@Override
	public void stop() {
		this.running = false;
		List<CompletableFuture<Void>> stopped = this.servers.values()
			.stream()
			.map((server) -> server.supervisor().stop())
			.toList();
		Duration bound = this.servers.values()
			.stream()
			.map(SupervisedServer::stopTimeout)
			.max(Duration::compareTo)
			.orElse(Duration.ZERO);
		try {
			CompletableFuture.allOf(stopped.toArray(CompletableFuture[]::new))
				.get(bound.toMillis(), TimeUnit.MILLISECONDS);
		}
		catch (TimeoutException ex) {
			logger.warn("MCP servers did not stop within " + bound.toMillis() + " ms");
		}
		catch (ExecutionException ex) {
			logger.warn("Stopping MCP servers failed", ex);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}

	@Override
	public void destroy() {
		stop();
	}

	@Override
	public boolean isRunning() {
		return this.running;
	}

	@Override
	public int getPhase() {
		return PHASE;
	}

	/**
	 * Returns the supervisors in the order they were given (by name when
	 * auto-configured).
	 * @return the supervisors
	 */
	public List<McpServerSupervisor> supervisors() {
		return this.servers.values().stream().map(SupervisedServer::supervisor).toList();
	}

	/**
	 * Returns the supervisor of a server.
	 * @param name the server's name
	 * @return its supervisor
	 * @throws NoSuchElementException if no server has that name
	 */
	public McpServerSupervisor supervisor(String name) {
		SupervisedServer server = this.servers.get(name);
		if (server == null) {
			throw new NoSuchElementException(
					"No MCP server named '" + name + "'; configured servers: " + this.servers.keySet());
		}
		return server.supervisor();
	}

	/**
	 * Clears the outage budget of a server and connects it now (on an UP server only the
	 * budget is cleared).
	 * @param name the server's name
	 * @return its status after the reset
	 */
	public McpServerStatus reset(String name) {
		return supervisor(name).reset();
	}

	/**
	 * Ends the live generation of a server, even when it is up, and connects a new one.
	 * @param name the server's name
	 * @return its status after the restart was taken
	 */
	public McpServerStatus restart(String name) {
		return supervisor(name).restart();
	}

	/**
	 * Returns the status of every server, in the order they were given (by name when
	 * auto-configured).
	 * @return the statuses
	 */
	public List<McpServerStatus> status() {
		return supervisors().stream().map(McpServerSupervisor::status).toList();
	}

	/**
	 * Returns the supervised servers with how the application treats them, in the order
	 * they were given (by name when auto-configured).
	 * @return the servers
	 */
	public List<SupervisedServer> servers() {
		return List.copyOf(this.servers.values());
	}

	/**
	 * A supervisor and how the application treats it at start and stop.
	 *
	 * @param supervisor the supervisor
	 * @param required whether the application is unhealthy while this server is not up
	 * @param failOnStartupError whether a failed first attempt aborts the start
	 * @param startupTimeout how long start waits for the first attempt
	 * @param stopTimeout how long stop waits for the server to be gone
	 */
	public record SupervisedServer(McpServerSupervisor supervisor, boolean required, boolean failOnStartupError,
			Duration startupTimeout, Duration stopTimeout) {

	}

}
