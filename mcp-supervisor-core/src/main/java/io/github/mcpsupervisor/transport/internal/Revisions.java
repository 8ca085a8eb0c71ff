package io.github.mcpsupervisor.transport.internal;

import java.util.List;

/**
 * The MCP revisions this client speaks, named by their dates.
 *
 * @since 0.1.0
 */
public final class Revisions {

	/** The stateful revision: initialize, sessions, ping. */
	public static final String V2025_11_25 = "2025-11-25";

	/** The stateless revision: server/discover, no session. */
	public static final String V2026_07_28 = "2026-07-28";

	/** Both, the newest first. */
	public static final List<String> SUPPORTED = List.of(V2026_07_28, V2025_11_25);

	private Revisions() {
	}

	/**
	 * Returns a revision this client speaks.
	 * @param revision the revision's date
	 * @return the revision
	 * @throws IllegalArgumentException if this client does not speak it
	 */
	public static String require(String revision) {
		if (!SUPPORTED.contains(revision)) {
			throw new IllegalArgumentException(
					"MCP revision '" + revision + "' is not one this client speaks: " + SUPPORTED);
		}
		return revision;
	}

}
