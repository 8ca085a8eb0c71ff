package io.github.mcpsupervisor.transport.internal.modern;

import java.util.List;

import io.github.mcpsupervisor.transport.internal.Revisions;

/**
 * A server speaks only MCP revisions this client does not: no new attempt changes that.
 *
 * @since 0.1.0
 */
public class UnsupportedRevisionException extends IllegalStateException {

	private static final long serialVersionUID = 1L;

	private final List<String> serverRevisions;

	/**
	 * Creates the exception.
	 * @param serverRevisions the revisions the server said it supports
	 */
	public UnsupportedRevisionException(List<String> serverRevisions) {
		super("the server supports MCP revision(s) " + serverRevisions + ", this client " + Revisions.SUPPORTED);
		this.serverRevisions = List.copyOf(serverRevisions);
	}

	public List<String> getServerRevisions() {
		return this.serverRevisions;
	}

}
