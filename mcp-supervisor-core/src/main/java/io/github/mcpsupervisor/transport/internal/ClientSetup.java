package io.github.mcpsupervisor.transport.internal;

import java.time.Duration;

import io.github.mcpsupervisor.client.internal.McpClientFactory;
import io.github.mcpsupervisor.client.internal.McpServerSession;

/**
 * How the generations of one server build their clients, whatever revision they speak.
 *
 * @param factory builds each client, and answers what the server asks of the application
 * @param session the server's client session
 * @param toolsChanged called when the server announces that its tools changed
 * @param timeouts the bounds of the requests and of each tool's calls
 * @param initializationTimeout the bound of the request that opens a session
 * @since 0.1.0
 */
public record ClientSetup(McpClientFactory factory, McpServerSession session, Runnable toolsChanged,
		CallTimeouts timeouts, Duration initializationTimeout) {

}
