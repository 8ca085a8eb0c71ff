package io.github.mcpsupervisor.supervisor;

import io.github.mcpsupervisor.supervisor.McpConnector.McpConnectException;
import io.github.mcpsupervisor.supervisor.McpConnector.McpConnection;
import io.github.mcpsupervisor.supervisor.McpServerStatus.ExitStatus;
import org.jspecify.annotations.Nullable;

/**
 * Where a server's blocking work reports how it ended (an attempt connected or failed, a
 * tree terminated, a hung generation survived its kill), relayed to its state machine. It
 * is created before that work and bound to the state machine once the state machine is
 * built, so that no object is handed a state machine still under construction.
 */
final class LifecycleEvents implements Attempts.Outcomes, Retirements.Outcomes {

	// Set once, before the server is first started: nothing reports before.
	private Attempts.@Nullable Outcomes attempts;

	private Retirements.@Nullable Outcomes retirements;

	/**
	 * Binds the relay to the state machine that handles the events.
	 * @param <T> the type of the state machine
	 * @param handler the state machine
	 */
	<T extends Attempts.Outcomes & Retirements.Outcomes> void deliverTo(T handler) {
		this.attempts = handler;
		this.retirements = handler;
	}

	@Override
	public void connected(McpConnection connection) {
		attempts().connected(connection);
	}

	@Override
	public void failed(McpConnection connection, McpConnectException ex) {
		attempts().failed(connection, ex);
	}

	@Override
	public void terminated(McpConnection connection, boolean confirmed, @Nullable ExitStatus exit) {
		retirements().terminated(connection, confirmed, exit);
	}

	@Override
	public void survivedKill(McpConnection connection) {
		retirements().survivedKill(connection);
	}

	private Attempts.Outcomes attempts() {
		Attempts.Outcomes outcomes = this.attempts;
		if (outcomes == null) {
			throw new IllegalStateException("no state machine receives the outcomes of attempts yet");
		}
		return outcomes;
	}

	private Retirements.Outcomes retirements() {
		Retirements.Outcomes outcomes = this.retirements;
		if (outcomes == null) {
			throw new IllegalStateException("no state machine receives the outcomes of retirements yet");
		}
		return outcomes;
	}

}
