package io.github.mcpsupervisor.supervisor.internal;

import java.util.List;

import io.github.mcpsupervisor.supervisor.McpServerStatus;
import io.github.mcpsupervisor.supervisor.McpSupervisors;
import io.github.mcpsupervisor.supervisor.SupervisorListener;

/**
 * The supervisors of an application whose servers change while it runs, through the one
 * API that changes them (the auto-configuration's {@code McpServerRegistry}, which checks
 * a server as a configured one before it reaches these operations).
 */
public class ChangeableMcpSupervisors extends McpSupervisors {

	/**
	 * Creates the supervisors of the servers an application starts with.
	 * @param servers the servers
	 * @param listener told of each server's changes of state
	 */
	public ChangeableMcpSupervisors(List<SupervisedServer> servers, SupervisorListener listener) {
		super(servers, listener);
	}

	@Override
	public McpServerStatus add(SupervisedServer server) {
		return super.add(server);
	}

	@Override
	public McpServerStatus replace(SupervisedServer server) {
		return super.replace(server);
	}

	@Override
	public void remove(String name) {
		super.remove(name);
	}

}
