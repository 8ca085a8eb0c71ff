package io.github.mcpsupervisor.autoconfigure.properties.internal;

import org.jspecify.annotations.Nullable;

/**
 * Thrown at startup when a file of {@code mcp.servers-configuration} cannot be read or
 * one of its entries is not a server this starter can supervise.
 *
 * @since 0.1.0
 */
public class McpServersFileException extends RuntimeException {

	private final String location;

	private final @Nullable String entry;

	private final String problem;

	McpServersFileException(String location, @Nullable String entry, String problem) {
		this(location, entry, problem, null);
	}

	McpServersFileException(String location, @Nullable String entry, String problem, @Nullable Throwable cause) {
		super(message(location, entry, problem), cause);
		this.location = location;
		this.entry = entry;
		this.problem = problem;
	}

	private static String message(String location, @Nullable String entry, String problem) {
		return "MCP server file '" + location + "'" + ((entry != null) ? ", entry '" + entry + "'" : "") + ": "
				+ problem;
	}

	/**
	 * Returns the location of the file as configured in
	 * {@code mcp.servers-configuration}.
	 * @return the location
	 */
	public String getLocation() {
		return this.location;
	}

	/**
	 * Returns the name of the entry at fault, if the fault is in one entry.
	 * @return the name of the entry or {@code null}
	 */
	public @Nullable String getEntry() {
		return this.entry;
	}

	/**
	 * Returns what is wrong.
	 * @return the problem
	 */
	public String getProblem() {
		return this.problem;
	}

}
