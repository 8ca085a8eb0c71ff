/**
 * Supervision of MCP servers: the per-server state machine, its generations and outage
 * budget, and the Java API to reset a server.
 */
@NullMarked
package io.github.mcpsupervisor.supervisor;

import org.jspecify.annotations.NullMarked;
