package io.github.mcpsupervisor.tool;

import java.util.Collections;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/**
 * The tools of the servers' first attempts include some whose names are refused: names
 * that other tools have, or that models do not accept.
 *
 * @since 0.1.0
 */
public class McpToolNamesException extends IllegalStateException {

	private static final long serialVersionUID = 1L;

	private final transient List<String> refusals;

	private final transient Set<String> servers;

	/**
	 * Create a new instance.
	 * @param refusals which tools are refused and why, one sentence each
	 * @param servers the servers whose naming could tell the tools apart
	 */
	public McpToolNamesException(List<String> refusals, Set<String> servers) {
		super("MCP tool names refused: " + String.join("; ", refusals));
		this.refusals = List.copyOf(refusals);
		this.servers = Collections.unmodifiableSet(new TreeSet<>(servers));
	}

	/**
	 * Return which tools are refused and why, one sentence each.
	 * @return the refusals
	 */
	public List<String> getRefusals() {
		return this.refusals;
	}

	/**
	 * Return the servers whose naming could tell the tools apart.
	 * @return the servers' names
	 */
	public Set<String> getServers() {
		return this.servers;
	}

}
