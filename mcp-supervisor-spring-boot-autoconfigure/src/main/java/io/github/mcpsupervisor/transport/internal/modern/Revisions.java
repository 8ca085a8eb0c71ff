package io.github.mcpsupervisor.transport.internal.modern;

import java.util.List;

/**
 * The MCP revisions this client speaks.
 *
 * @since 0.1.0
 */
public final class Revisions {

	/** The stateful revision: initialize, sessions, ping. */
	public static final String LEGACY = "2025-11-25";

	/** The stateless revision: server/discover, no session. */
	public static final String MODERN = "2026-07-28";

	/** Both, the newest first. */
	public static final List<String> SUPPORTED = List.of(MODERN, LEGACY);

	private Revisions() {
	}

}
