/**
 * An application on the starter that the public MCP conformance suite runs as its client:
 * it supervises the suite's server, lists its tools and calls them as each scenario
 * intends.
 */
@NullMarked
package io.github.mcpsupervisor.conformance;

import org.jspecify.annotations.NullMarked;
