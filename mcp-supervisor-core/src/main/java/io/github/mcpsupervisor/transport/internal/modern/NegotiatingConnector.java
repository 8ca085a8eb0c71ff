package io.github.mcpsupervisor.transport.internal.modern;

import io.github.mcpsupervisor.supervisor.McpConnector;
import io.github.mcpsupervisor.supervisor.McpConnector.McpConnection;
import org.jspecify.annotations.Nullable;

/**
 * Connects a server configured as {@code auto} in the revision it speaks, as the
 * revision's version negotiation describes it: each generation first asks
 * {@code server/discover} as a 2026-07-28 client; on an answer that is not a modern one,
 * or none in time, it connects as a 2025-11-25 client instead (a stdio server gets a
 * fresh process for it, so that one that exits on the probe costs nothing). The outcome
 * is kept for the server's configuration (this connector, and with a runtime directory
 * the later starts of the application, see {@link NegotiatedRevision}): later generations
 * connect in the known revision at once, and probe again only when the known revision
 * fails them the way another revision's server would.
 *
 * @since 0.1.0
 */
public final class NegotiatingConnector implements McpConnector {

	private final String server;

	private final McpConnector modern;

	private final McpConnector legacy;

	private final NegotiatedRevision negotiated;

	/**
	 * Creates the connector, which keeps the revision in memory.
	 * @param server the server's name
	 * @param modern connects as a 2026-07-28 client
	 * @param legacy connects as a 2025-11-25 client
	 */
	public NegotiatingConnector(String server, McpConnector modern, McpConnector legacy) {
		this(server, modern, legacy, NegotiatedRevision.inMemory());
	}

	/**
	 * Creates the connector.
	 * @param server the server's name
	 * @param modern connects as a 2026-07-28 client
	 * @param legacy connects as a 2025-11-25 client
	 * @param negotiated where the revision the server speaks is kept
	 */
	public NegotiatingConnector(String server, McpConnector modern, McpConnector legacy,
			NegotiatedRevision negotiated) {
		this.server = server;
		this.modern = modern;
		this.legacy = legacy;
		this.negotiated = negotiated;
	}

	@Override
	public McpConnection create(int generation, Runnable toolsChanged) {
		return new NegotiatingConnection(this.server, generation, toolsChanged, this.modern, this.legacy,
				this.negotiated);
	}

	/**
	 * Returns the revision the server was last connected in.
	 * @return the revision, or {@code null} before the first connection
	 */
	public @Nullable String negotiated() {
		return this.negotiated.current();
	}

	// both revisions share the server's one authorization: registered once
	@Override
	public void whenAuthorized(Runnable authorized) {
		this.modern.whenAuthorized(authorized);
	}

	// both revisions share the server's one session
	@Override
	public boolean keepsAwake() {
		return this.modern.keepsAwake();
	}

	@Override
	public String redact(String text) {
		return this.modern.redact(text);
	}

	@Override
	public void close() {
		try {
			this.modern.close();
		}
		finally {
			this.legacy.close();
		}
	}

}
