/**
 * Ownership of stdio MCP server processes: spawning, exit detection, stderr diagnostics,
 * bounded termination of the whole process tree.
 */
@NullMarked
package io.github.mcpsupervisor.transport;

import org.jspecify.annotations.NullMarked;
