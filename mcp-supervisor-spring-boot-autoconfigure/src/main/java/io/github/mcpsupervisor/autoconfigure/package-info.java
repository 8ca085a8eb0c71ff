/**
 * Auto-configuration of mcp-supervisor: the supervisors of the configured MCP servers,
 * the connectors and Spring AI clients they are built from, and the failure analysis of
 * the application's start.
 */
@NullMarked
package io.github.mcpsupervisor.autoconfigure;

import org.jspecify.annotations.NullMarked;
