package io.github.mcpsupervisor.transport.internal.modern;

import java.util.List;

import io.github.mcpsupervisor.transport.internal.Revision20251125;

/**
 * The MCP revisions this client speaks.
 *
 * @since 0.1.0
 */
public final class Revisions {

	/** The stateful revision: initialize, sessions, ping. */
	public static final String LEGACY = Revision20251125.REVISION;

	/** The stateless revision: server/discover, no session. */
	public static final String MODERN = Revision20260728.REVISION;

	/** Both, the newest first. */
	public static final List<String> SUPPORTED = List.of(MODERN, LEGACY);

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
