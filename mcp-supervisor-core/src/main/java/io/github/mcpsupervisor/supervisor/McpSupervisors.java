package io.github.mcpsupervisor.supervisor;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.HashMap;
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
 * context and stopped with it; the Java API to look at a server, to reset and to restart
 * it. In a Spring Boot application, servers are added, replaced and removed while it runs
 * through the auto-configuration's {@code McpServerRegistry}, which checks and merges
 * them as configured servers: the operations that change the set are protected here, for
 * it.
 *
 * <p>
 * A server added, replaced or removed has the guarantees of the others: at most one
 * process per server name at any time (a server that takes a name starts only once every
 * supervisor that had it has stopped completely), nothing scheduled, spawned or left
 * running by a removed one, and its tools gone with it. Changes of one name are applied
 * in the order they are asked for; each is visible at once, as one step, to
 * {@link #servers()} and what reads it (tools, health, endpoint).
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

	private static final CompletableFuture<Void> DONE = CompletableFuture.completedFuture(null);

	private final SupervisorListener listener;

	// guards the changes of the servers and of the running flag
	private final Object changes = new Object();

	// replaced as a whole, so that a reader sees every server of one moment
	private volatile Map<String, SupervisedServer> servers;

	// by name: completes once every supervisor that has had the name has stopped
	private final Map<String, CompletableFuture<Void>> retiring = new HashMap<>();

	// guarded by changes: how long a stop waits for each name's removals under way
	private final Map<String, Duration> retiringBounds = new HashMap<>();

	private volatile boolean running;

	// a stop that has only removals to wait for
	private static final Duration MIN_STOP = Duration.ofSeconds(5);

	public McpSupervisors(List<SupervisedServer> servers) {
		this(servers, SupervisorListener.NONE);
	}

	/**
	 * Creates the servers of an application.
	 * @param servers the servers it starts with
	 * @param listener told when a server is {@link SupervisorListener#removed removed}
	 */
	public McpSupervisors(List<SupervisedServer> servers, SupervisorListener listener) {
		Map<String, SupervisedServer> all = new LinkedHashMap<>();
		servers.forEach((server) -> all.put(server.supervisor().name(), server));
		this.servers = Collections.unmodifiableMap(all);
		this.listener = listener;
	}

	/**
	 * Starts every server in parallel and waits until each has connected or failed its
	 * first attempt, each bounded by its startup timeout counted from the common start:
	 * hung servers cost the longest bound, not the sum of them.
	 * @throws McpServerStartupException if a server that must start did not
	 */
	@Override
	public void start() {
		Map<SupervisedServer, CompletableFuture<McpServerStatus>> outcomes = new LinkedHashMap<>();
		synchronized (this.changes) {
			this.running = true;
			this.servers.values()
				.forEach((server) -> outcomes.put(server, startWhenRetired(server).copy()
					.completeOnTimeout(null, server.startupTimeout().toMillis(), TimeUnit.MILLISECONDS)));
		}
		awaitAll(outcomes.values());
		List<McpServerStatus> failures = new ArrayList<>();
		outcomes.forEach((server, outcome) -> {
			McpServerStatus status = outcome.getNow(null);
			if (status == null) {
				status = server.supervisor().status();
			}
			// an idle server started as it should: its first call starts its process
			if (server.failOnStartupError() && status.state() != McpServerState.UP
					&& status.state() != McpServerState.IDLE) {
				failures.add(status);
			}
		});
		if (!failures.isEmpty()) {
			stop();
			throw new McpServerStartupException(failures);
		}
	}

	private static void awaitAll(Collection<? extends CompletableFuture<?>> outcomes) {
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
	 * terminated (bounded), tools withdrawn. Removals still under way are waited for too.
	 */
	@Override
	public void stop() {
		List<CompletableFuture<Void>> stopped = new ArrayList<>();
		List<Duration> bounds = new ArrayList<>();
		synchronized (this.changes) {
			this.running = false;
			Collection<SupervisedServer> all = this.servers.values();
			all.forEach((server) -> stopped.add(server.supervisor().stop()));
			all.forEach((server) -> bounds.add(server.stopTimeout()));
			stopped.addAll(this.retiring.values());
			bounds.addAll(this.retiringBounds.values());
		}
		Duration bound = bounds.stream().max(Duration::compareTo).orElse(MIN_STOP);
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
	 * Adds a server and, while the application runs, starts it and waits for its first
	 * attempt (bounded by its startup timeout, after any earlier server of that name has
	 * stopped). A server whose first attempt fails stays, reconnecting as its policy
	 * says: {@link SupervisedServer#failOnStartupError()} is about the application's
	 * start only.
	 * @param server the server
	 * @return its status after its first attempt, or when the bound ran out
	 * @throws IllegalArgumentException if a server has that name
	 */
	protected McpServerStatus add(SupervisedServer server) {
		return change(server, false);
	}

	/**
	 * Replaces a server: the one that has the name is stopped (its tools withdrawn at
	 * once), and the new one starts once its process tree is gone, as for
	 * {@link #add(SupervisedServer)}.
	 * @param server the new server, named as the one it replaces
	 * @return its status after its first attempt, or when the bound ran out
	 * @throws NoSuchElementException if no server has that name
	 */
	protected McpServerStatus replace(SupervisedServer server) {
		return change(server, true);
	}

	/**
	 * Removes a server: its tools are withdrawn at once, it is stopped, and this waits
	 * (bounded by its stop timeout) until every attempt, sync and termination of it has
	 * ended. Its name may be given to a new server at once: that one starts only after.
	 * @param name the server's name
	 * @throws NoSuchElementException if no server has that name
	 */
	protected void remove(String name) {
		CompletableFuture<Void> retired;
		SupervisedServer removed;
		synchronized (this.changes) {
			removed = existing(name);
			Map<String, SupervisedServer> all = new LinkedHashMap<>(this.servers);
			all.remove(name);
			this.servers = Collections.unmodifiableMap(all);
			retired = retire(removed, true);
		}
		logger.info("MCP server '" + name + "' removed");
		await(retired, removed.stopTimeout(), name, "stop");
	}

	private McpServerStatus change(SupervisedServer server, boolean replace) {
		String name = server.supervisor().name();
		CompletableFuture<McpServerStatus> started;
		Duration bound;
		synchronized (this.changes) {
			SupervisedServer old = this.servers.get(name);
			if (replace && old == null) {
				existing(name);
			}
			if (!replace && old != null) {
				throw new IllegalArgumentException("An MCP server named '" + name + "' exists already");
			}
			Map<String, SupervisedServer> all = new LinkedHashMap<>(this.servers);
			all.put(name, server);
			this.servers = Collections.unmodifiableMap(all);
			bound = server.startupTimeout();
			if (old != null) {
				retire(old, false);
				bound = bound.plus(old.stopTimeout());
			}
			if (!this.running) {
				return server.supervisor().status();
			}
			started = startWhenRetired(server);
		}
		logger.info("MCP server '" + name + "' " + (replace ? "replaced" : "added"));
		await(started, bound, name, "first attempt");
		return server.supervisor().status();
	}

	// Under the lock. The start follows the stops of the name's earlier supervisors, and
	// only if the server still has its name and the application still runs when they
	// have ended; a stop is never waited for under the lock.
	private CompletableFuture<McpServerStatus> startWhenRetired(SupervisedServer server) {
		String name = server.supervisor().name();
		CompletableFuture<Void> retired = this.retiring.get(name);
		if (retired == null) {
			return server.supervisor().start();
		}
		return retired.thenCompose((ignored) -> {
			synchronized (this.changes) {
				if (this.running && this.servers.get(name) == server) {
					return server.supervisor().start();
				}
			}
			return CompletableFuture.completedFuture(server.supervisor().status());
		});
	}

	// Under the lock: stops a supervisor that no longer has its name.
	private CompletableFuture<Void> retire(SupervisedServer server, boolean removed) {
		String name = server.supervisor().name();
		CompletableFuture<Void> stopped = server.supervisor()
			.retire(removed ? EndedOnRequest.REMOVED : EndedOnRequest.REPLACED)
			.exceptionally((ex) -> {
				logger.warn("Stopping MCP server '" + name + "' failed", ex);
				return null;
			});
		CompletableFuture<Void> earlier = this.retiring.getOrDefault(name, DONE);
		CompletableFuture<Void> retired = CompletableFuture.allOf(earlier, stopped).handle((ignored, ex) -> {
			if (removed) {
				this.listener.removed(name);
			}
			return null;
		});
		this.retiring.put(name, retired);
		this.retiringBounds.merge(name, server.stopTimeout(), (a, b) -> (a.compareTo(b) >= 0) ? a : b);
		retired.whenComplete((ignored, ex) -> {
			synchronized (this.changes) {
				if (this.retiring.remove(name, retired)) {
					this.retiringBounds.remove(name);
				}
			}
		});
		return retired;
	}

	private static void await(CompletableFuture<?> future, Duration bound, String name, String what) {
		try {
			future.get(bound.toMillis(), TimeUnit.MILLISECONDS);
		}
		catch (TimeoutException ex) {
			logger.warn("MCP server '" + name + "': " + what + " did not end within " + bound.toMillis() + " ms");
		}
		catch (ExecutionException ex) {
			// told by the server's status
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}

	private SupervisedServer existing(String name) {
		SupervisedServer server = this.servers.get(name);
		if (server == null) {
			throw new NoSuchElementException("No MCP server named '" + name + "'; servers: " + this.servers.keySet());
		}
		return server;
	}

	/**
	 * Returns the supervisors in the order they were given (by name when
	 * auto-configured), those added later after them.
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
		return existing(name).supervisor();
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
