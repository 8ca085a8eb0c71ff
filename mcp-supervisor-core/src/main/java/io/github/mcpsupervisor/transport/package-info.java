/**
 * How to reach a supervised MCP server: the definition of a stdio server (its command,
 * environment and timeouts) and of a Streamable HTTP server (its URL, headers and
 * timeouts), as the configuration resolves them. The transports themselves are in the
 * internal packages below.
 */
@NullMarked
package io.github.mcpsupervisor.transport;

import org.jspecify.annotations.NullMarked;
