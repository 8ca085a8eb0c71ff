package io.github.mcpsupervisor.event;

import io.github.mcpsupervisor.supervisor.McpServerState;
import io.github.mcpsupervisor.supervisor.McpServerStateChange;
import org.jspecify.annotations.Nullable;

import org.springframework.context.ApplicationEvent;

/**
 * A supervised MCP server changed state. Published for every transition, in order.
 *
 * @since 0.1.0
 */
public class McpServerStateChangedEvent extends ApplicationEvent {

	private static final long serialVersionUID = 1L;

	private final transient McpServerStateChange change;

	public McpServerStateChangedEvent(McpServerStateChange change) {
		super(change.server());
		this.change = change;
	}

	public String getServer() {
		return this.change.server();
	}

	public McpServerState getFrom() {
		return this.change.from();
	}

	public McpServerState getTo() {
		return this.change.to();
	}

	public int getGeneration() {
		return this.change.generation();
	}

	public String getCause() {
		return this.change.cause();
	}

	/**
	 * Returns the exit code of the process whose end caused the transition.
	 * @return the exit code, or {@code null}
	 */
	public @Nullable Integer getExitCode() {
		return (this.change.exit() != null) ? this.change.exit().exitCode() : null;
	}

	public McpServerStateChange getChange() {
		return this.change;
	}

	@Override
	public String toString() {
		return "McpServerStateChangedEvent[" + getServer() + ": " + getFrom() + " -> " + getTo() + ", generation "
				+ getGeneration() + ", " + getCause() + "]";
	}

}
