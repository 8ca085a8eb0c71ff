/**
 * The benchmark and chaos harness of mcp-supervisor.
 */
@NullMarked
package io.github.mcpsupervisor.benchmark;

import org.jspecify.annotations.NullMarked;
