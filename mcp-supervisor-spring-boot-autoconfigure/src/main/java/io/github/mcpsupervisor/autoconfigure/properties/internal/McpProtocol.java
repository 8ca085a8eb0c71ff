package io.github.mcpsupervisor.autoconfigure.properties.internal;

import java.util.Arrays;
import java.util.Locale;

import io.github.mcpsupervisor.autoconfigure.properties.McpSupervisorProperties;

/**
 * Which MCP revision a server is spoken to in: the values of
 * {@code mcp.servers.<name>.protocol}, as {@link McpSupervisorProperties#PROTOCOLS}
 * writes them.
 */
public enum McpProtocol {

	/**
	 * Negotiated per server: {@code server/discover} first, {@code initialize} when the
	 * server does not answer it as a 2026-07-28 server; the outcome is kept for the
	 * server's configuration.
	 */
	AUTO("auto"),

	/** The stateful revision 2025-11-25 only: initialize, a session, ping. */
	V2025_11_25("2025-11-25"),

	/** The stateless revision 2026-07-28 only: server/discover, no session. */
	V2026_07_28("2026-07-28");

	private final String value;

	McpProtocol(String value) {
		this.value = value;
	}

	/**
	 * Returns the value as it is written in the configuration.
	 * @return the value, e.g. {@code 2026-07-28}
	 */
	public String value() {
		return this.value;
	}

	/**
	 * Reads a value of the configuration.
	 * @param value {@code auto}, {@code 2025-11-25} or {@code 2026-07-28}
	 * @return the protocol
	 * @throws IllegalArgumentException if the value is none of them
	 */
	public static McpProtocol of(String value) {
		String wanted = value.trim().toLowerCase(Locale.ROOT);
		return Arrays.stream(values())
			.filter((protocol) -> protocol.value.equals(wanted))
			.findFirst()
			.orElseThrow(() -> new IllegalArgumentException(
					"'" + value + "' is not an MCP protocol: use auto, 2025-11-25 or 2026-07-28"));
	}

	@Override
	public String toString() {
		return this.value;
	}

}
