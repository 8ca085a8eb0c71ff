/**
 * Micrometer metrics of the supervised MCP servers and their tool calls.
 */
@NullMarked
package io.github.mcpsupervisor.metrics;

import org.jspecify.annotations.NullMarked;
