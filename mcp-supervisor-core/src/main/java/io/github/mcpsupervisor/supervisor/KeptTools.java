package io.github.mcpsupervisor.supervisor;

import java.time.Duration;
import java.time.Instant;

import io.github.mcpsupervisor.supervisor.McpConnector.McpConnection;
import org.jspecify.annotations.Nullable;

/**
 * The tools of a server that starts on first use, read from its catalog at a start and
 * kept in it each time a live generation lists them, on a worker: a file is never read or
 * written under the supervisor's lock.
 */
final class KeptTools {

	private final String server;

	private final @Nullable ToolCatalog catalog;

	private final WorkTracker work;

	private final SupervisorScheduler scheduler;

	KeptTools(String server, @Nullable ToolCatalog catalog, WorkTracker work, SupervisorScheduler scheduler) {
		this.server = server;
		this.catalog = catalog;
		this.work = work;
		this.scheduler = scheduler;
	}

	/**
	 * Returns whether the server starts on first use.
	 * @return whether it has a catalog
	 */
	boolean onFirstUse() {
		return this.catalog != null;
	}

	/**
	 * Reads the tools the catalog holds for the server's configuration, on the caller's
	 * thread.
	 * @return the tools, or {@code null} when the server does not start on first use or
	 * its catalog holds none
	 */
	ToolCatalog.@Nullable Listing read() {
		return (this.catalog != null) ? this.catalog.read(this.server, this.scheduler.clock().instant()) : null;
	}

	/**
	 * Keeps the tools a live generation listed, on a worker.
	 * @param tools the tools
	 * @param connection the generation that listed them
	 */
	void keep(ToolSet tools, McpConnection connection) {
		ToolCatalog kept = this.catalog;
		if (kept == null || !kept.keeps()) {
			return;
		}
		Duration freshFor = connection.toolsFreshFor();
		Instant now = this.scheduler.clock().instant();
		this.work.track(() -> kept.keep(this.server, tools.tools(), tools.session(), freshFor, now));
	}

}
